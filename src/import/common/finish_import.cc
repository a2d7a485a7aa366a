#include "import/common/finish_import.h"

#include <set>
#include <utility>

#include "import/common/kernel_names.h"
#include "import/common/trace_checks.h"
#include "model/timestamp_quantum.h"
#include "model/trace_order.h"
#include "tensormorph/model/copy_kinds.h"

namespace tensormorph {

void DeriveBackends(const BackendFacts& facts, Trace* trace) {
  if (facts.given) return;
  std::set<Backend> used;
  if (facts.host_traced || !trace->api_calls.empty() || !trace->slices.empty()) {
    used.insert(Backend::kCpu);
  }
  auto ran_on = [&](uint32_t device) {
    if (device < trace->devices.size()) {
      used.insert(trace->devices[device].backend);
    } else if (facts.deviceless) {
      used.insert(*facts.deviceless);
    }
  };
  for (const Kernel& k : trace->kernels) ran_on(k.device);
  for (const Transfer& t : trace->transfers) ran_on(t.device);
  if (facts.every_device) {
    for (const Device& d : trace->devices) used.insert(d.backend);
  }
  trace->backends.assign(used.begin(), used.end());
}

void FinishImport(Trace* trace, const ImportFinish& finish) {
  if (finish.order == TableOrder::kUnsorted) {
    SortTraceTables(trace);
  } else if (finish.order == TableOrder::kKernelsInOrder) {
    std::vector<Kernel> kernels = std::move(trace->kernels);
    trace->kernels.clear();
    SortTraceTables(trace);
    trace->kernels = std::move(kernels);
  }
  ComputeTraceSpan(trace);
  DeriveBackends(finish.backends, trace);
  // WebGPU timestamps are often quantized by the browser or Dawn; importers that know their
  // resolution set it themselves.
  if (trace->timestamp_resolution_ns == 0 && trace->HasBackend(Backend::kWebGpu)) {
    trace->timestamp_resolution_ns = DetectTimestampQuantum(*trace);
    if (trace->timestamp_resolution_ns > 0) {
      trace->warnings.push_back(QuantizedTimestampsWarning(*trace));
    }
  }
  DescribeCopies(trace);
  DemangleKernelNames(trace);
  CheckDeviceRows(trace);
  CheckStrings(trace);
}

}  // namespace tensormorph
