// Idle gaps on one device and why the device sat idle (docs/timeline.md, "Definitions").
//
// A gap is an idle stretch between the union of the device's work (kernels, memcpys, memsets),
// longer than the threshold: nsys analyze's gpu_gaps. Its cause comes from the launch call of the
// work after it: host late (plain, after a synchronize, after a blocking copy), queued early (the
// GPU waited on something else), or unknown (no launch call).
#pragma once

#include <string_view>
#include <vector>

#include "analysis/common/device_work.h"
#include "analysis/timeline/graph_capture.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {

// True for host calls that wait for the device: CUPTI synchronization records (ApiKind::kSync) and
// runtime calls whose name contains "Synchronize".
bool IsSynchronizeCall(const ApiCall& call, std::string_view name);

// True for the blocking copy and fill calls (cudaMemcpy, cudaMemcpy2D, hipMemset, cuMemcpyDtoH,
// ...: a cudaMemcpy/cudaMemset/hipMemcpy/hipMemset/cuMemcpy/cuMemset name without "Async").
bool IsBlockingCopyCall(std::string_view name);

// The link of a work item (nullptr past the link tables) and its launch call (nullptr: none in
// the trace).
const WorkLink* LinkOf(const TraceLinks& links, const WorkItem& item);
const ApiCall* LaunchOf(const Trace& trace, const TraceLinks& links, const WorkItem& item);

// The end times of the waiting calls of each host thread, to ask "did this thread come out of a
// wait between t0 and t1?" in O(log n).
class HostWaits {
 public:
  explicit HostWaits(const Trace& trace);
  bool SyncEndedIn(uint32_t track, int64_t from_ns, int64_t to_ns) const;
  bool BlockingCopyEndedIn(uint32_t track, int64_t from_ns, int64_t to_ns) const;
  // Whether the thread was capturing a CUDA/HIP graph at some time in [from, to].
  bool CapturingIn(uint32_t track, int64_t from_ns, int64_t to_ns) const;

 private:
  std::vector<std::vector<int64_t>> sync_ends_;  // by track, sorted
  std::vector<std::vector<int64_t>> copy_ends_;
  std::vector<std::vector<std::pair<int64_t, int64_t>>> captures_;  // by track: capture windows
};

// The cause of a gap given the launch call of the work after it (nullptr: none in the trace).
GapCause ClassifyGap(const Interval& gap, const ApiCall* launch, const HostWaits& waits);

// Fills device->gaps, gap_total_ns and gap_causes. `work` is the device's work as
// CollectDeviceWork sorts it, `merged` the union of its intervals.
void FindDeviceGaps(const Trace& trace, const TraceLinks& links, const HostWaits& waits,
                    const std::vector<WorkItem>& work, const std::vector<Interval>& merged,
                    int64_t min_gap_ns, DeviceTimeline* device);

}  // namespace tensormorph
