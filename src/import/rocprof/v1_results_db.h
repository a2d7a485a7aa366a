// rocprof v1's SQLite results (`results.db`, written beside results.csv): one table KERN whose 22
// columns are results.csv's ("Index", "KernelName", "gpu-id", "queue-id", ..., "DispatchNs",
// "BeginNs", "EndNs", "CompleteNs", "DurationNs"), one row per dispatch. Quirks of the real
// files: KernelName keeps results.csv's double quotes ('"compute_fd_x_kernel"'), dropped here;
// sig and obj hold text ('0x0') in columns declared INTEGER. Every field is read as SQLite's
// text of the value, so the rows go through the same rules as results.csv's
// (kernels.h: V1DispatchRows).
//
// Devices: the rocminfo text rocprof writes beside it (`results.sysinfo.txt`) names the GPU
// agents (gpu-id is the agent's node id); without it devices are labelled by gpu-id.
#pragma once

#include <string_view>

#include "tensormorph/io/input.h"
#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof {

// Whether the first bytes of a file are an SQLite database whose schema declares rocprof v1's
// KERN table (sqlite_master sits on the first page).
bool LooksLikeV1ResultsDb(std::string_view head);

StatusOr<Trace> ImportV1ResultsDb(const Input& input);

}  // namespace tensormorph::rocprof
