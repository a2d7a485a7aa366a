// The copies and fills of one device by kind, direction and memory kinds, with their rate against
// the link they crossed (timeline.h, CopyBandwidth, states the peaks).
#pragma once

#include <vector>

#include "analysis/common/device_work.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {

// `device` indexes trace.devices (kNoDevice: unnamed, no peaks).
std::vector<CopyBandwidth> MeasureCopies(const Trace& trace, uint32_t device,
                                         const std::vector<WorkItem>& work,
                                         const std::vector<DeviceSpec>& devices);

}  // namespace tensormorph
