// Tensormorph kernel profiler: the library interface Tensormorph itself calls.
//
//   tensormorph::StatusOr<tensormorph::Trace> trace = tensormorph::LoadTrace("trace.json.gz", {});
//   if (!trace.ok()) { /* trace.status().message() */ }
//   const tensormorph::LinkedTrace linked(*trace);
//   tensormorph::KernelSummary kernels = tensormorph::SummarizeKernels({&linked}, {});
//
// LoadTrace detects the format by content; the Trace holds devices, kernels, transfers, runtime
// calls, ops and annotations with integer-nanosecond times (model/trace.h). A LinkedTrace adds
// what the linking stage derives once per trace (launch and op links, steps, FLOP estimates);
// analyses are pure functions of linked traces.
#pragma once

#include "analysis/kernels.h"               // IWYU pragma: export
#include "analysis/linking/linked_trace.h"  // IWYU pragma: export
#include "import/importer.h"                // IWYU pragma: export
#include "model/status.h"                   // IWYU pragma: export
#include "model/trace.h"                    // IWYU pragma: export
