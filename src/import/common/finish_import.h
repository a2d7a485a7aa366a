// The last step of every importer: an importer translates its format's rows into the model, then
// hands the trace to FinishImport, which does what every import needs, in this order:
//  1. the model's order (trace_order.h), unless the importer keeps its own;
//  2. the span (earliest start, latest end);
//  3. Trace::backends, by one rule (DeriveBackends);
//  4. the timestamp quantum of WebGPU traces that do not give their resolution;
//  5. copies described from their names where the importer could not (copy_kinds.h);
//  6. kernel names demangled (kernel_names.h);
//  7. the checks on device rows and strings (trace_checks.h).
// Importers call it as the last thing before returning the trace, so that a trace read by
// Importer::Import directly is the one LoadTrace returns.
#pragma once

#include <optional>

#include "tensormorph/model/trace.h"

namespace tensormorph {

// What the tables' order already is when the importer hands them over.
enum class TableOrder : uint8_t {
  kUnsorted,        // sorted here (SortTraceTables)
  kKernelsInOrder,  // kernel_counters refer to kernels by position: every table but kernels sorted
  kInOrder,         // the importer ordered every table itself (native: a stable order that keeps
                    // rows as the file wrote them)
};

// The backend rule: cpu when the trace has host rows (API calls or slices), plus the backend of
// every device a kernel or transfer ran on; sorted, each once. What an importer knows beyond its
// rows is data it sets here, never a second rule.
struct BackendFacts {
  bool host_traced = false;   // cpu even without host rows: the profiler always records the host
  bool every_device = false;  // every listed device's backend, whether it ran something or not
  // The backend of kernels and transfers that name no device.
  std::optional<Backend> deviceless = std::nullopt;
  bool given = false;  // the input lists the backends itself: left as they are
};

struct ImportFinish {
  TableOrder order = TableOrder::kUnsorted;
  BackendFacts backends = {};
};

// Sets trace->backends by the rule above (unless facts.given).
void DeriveBackends(const BackendFacts& facts, Trace* trace);

void FinishImport(Trace* trace, const ImportFinish& finish = {});

}  // namespace tensormorph
