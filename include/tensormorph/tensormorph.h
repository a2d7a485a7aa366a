// Tensormorph kernel profiler: the library interface Tensormorph itself calls.
//
//   tensormorph::StatusOr<tensormorph::Trace> trace = tensormorph::LoadTrace("trace.json.gz", {});
//   if (!trace.ok()) { /* trace.status().message() */ }
//   tensormorph::KernelSummary kernels = tensormorph::SummarizeKernels({&*trace}, {});
//
// LoadTrace detects the format by content; the Trace holds devices, kernels, transfers, runtime
// calls, ops and annotations with integer-nanosecond times (model/trace.h). Analyses are pure
// functions of traces.
#pragma once

#include "analysis/kernels.h"  // IWYU pragma: export
#include "import/importer.h"   // IWYU pragma: export
#include "model/status.h"      // IWYU pragma: export
#include "model/trace.h"       // IWYU pragma: export
