// Per training step, on one device: the host's step time against the device work launched during
// it. Work belongs to the step whose host window holds its launch (steps.h), so a step's device
// span can reach past its host end: the GPU lags the host.
#pragma once

#include <vector>

#include "analysis/common/device_work.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/link/steps.h"

namespace tensormorph {

// One row per step in `steps`, including steps that launched nothing on this device.
// `step_of_kernels` / `step_of_transfers` are parallel to the trace's kernels / transfers.
std::vector<StepTimeline> StepsOnDevice(const std::vector<Step>& steps,
                                        const std::vector<int32_t>& step_of_kernels,
                                        const std::vector<int32_t>& step_of_transfers,
                                        const std::vector<WorkItem>& work);

}  // namespace tensormorph
