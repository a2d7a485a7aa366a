// Per stream of one device: busy time, idle time by cause and the launch queue (timeline.h,
// StreamBusy and QueueLength state the definitions).
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/common/device_work.h"
#include "analysis/timeline/gaps.h"
#include "tensormorph/analysis/timeline/timeline.h"

namespace tensormorph {

// One StreamBusy per stream of `work` (as CollectDeviceWork sorts it), by stream id.
std::vector<StreamBusy> AnalyzeStreams(const Trace& trace, const TraceLinks& links,
                                       const HostWaits& waits, const std::vector<WorkItem>& work,
                                       int64_t queue_limit);

// A queue's step function from its changes: (time, +1 or -1), in any order.
QueueLength QueueLengthOf(std::vector<std::pair<int64_t, int>> changes, int64_t queue_limit);

}  // namespace tensormorph
