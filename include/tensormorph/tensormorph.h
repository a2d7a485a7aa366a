// Tensormorph kernel profiler: the library's public interface. Every header under
// include/tensormorph is public and compiles on its own (-Iinclude, the standard library and the
// installed dependencies' headers); this one includes the entry points of them all.
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
//
// Installed with `cmake --install`: find_package(tensormorph) links tensormorph::tensormorph;
// `pkg-config --cflags --libs tensormorph` gives the same flags. Needs C++20.
#pragma once

#include "tensormorph/analysis/compare/compare.h"             // IWYU pragma: export
#include "tensormorph/analysis/diff/diff.h"                   // IWYU pragma: export
#include "tensormorph/analysis/findings/findings.h"           // IWYU pragma: export
#include "tensormorph/analysis/kernels.h"                     // IWYU pragma: export
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"  // IWYU pragma: export
#include "tensormorph/analysis/occupancy/occupancy.h"         // IWYU pragma: export
#include "tensormorph/analysis/ops/ops.h"                     // IWYU pragma: export
#include "tensormorph/analysis/predict/calibration.h"         // IWYU pragma: export
#include "tensormorph/analysis/predict/op_predictions.h"      // IWYU pragma: export
#include "tensormorph/analysis/predict/predict.h"             // IWYU pragma: export
#include "tensormorph/analysis/profile/build.h"               // IWYU pragma: export
#include "tensormorph/analysis/profile/profile.h"             // IWYU pragma: export
#include "tensormorph/analysis/roofline.h"                    // IWYU pragma: export
#include "tensormorph/analysis/timeline/timeline.h"           // IWYU pragma: export
#include "tensormorph/devices/device_db.h"                    // IWYU pragma: export
#include "tensormorph/export/baseline/baseline_file.h"        // IWYU pragma: export
#include "tensormorph/import/importer.h"                      // IWYU pragma: export
#include "tensormorph/link/linked_trace.h"                    // IWYU pragma: export
#include "tensormorph/link/steps.h"                           // IWYU pragma: export
#include "tensormorph/model/copy_kinds.h"                     // IWYU pragma: export
#include "tensormorph/model/status.h"                         // IWYU pragma: export
#include "tensormorph/model/trace.h"                          // IWYU pragma: export
#include "tensormorph/version.h"                              // IWYU pragma: export
