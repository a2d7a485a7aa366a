// Device time per host slice: the kernels launched inside it, by it or by anything it encloses.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "link/op_stacks.h"
#include "tensormorph/link/work_links.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

struct SliceDeviceTime {
  std::vector<int64_t> inclusive_ns;  // parallel to Trace::slices; saturates at INT64_MAX
  // The device of the first kernel counted for the slice (kNoDevice when none): one op call
  // running on two devices is rare enough to report under the first.
  std::vector<uint32_t> device;
};

// Walks each attributed kernel up the chain of enclosing ops and annotations (OpStacks), adding
// its duration to every one. `backend` keeps only kernels of that backend.
SliceDeviceTime ComputeSliceDeviceTime(const Trace& trace, const TraceLinks& links,
                                       const OpStacks& stacks, std::optional<Backend> backend);

}  // namespace tensormorph
