// One rank's work indexed for the critical-path walk (docs/critical-path.md): its device items in
// stream order with their launch calls and stream predecessors, each stream's items by end (for
// the other-stream dependency), its blocking host calls with the device item each waited for, and
// the outermost framework ops of each host thread. Times are the rank's own clock.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "analysis/common/device_work.h"
#include "tensormorph/analysis/job/job.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct PathItem {
  int64_t start_ns = 0, end_ns = 0;
  int64_t stream = -1;
  uint32_t device = kNoDevice;
  uint32_t row = 0;  // into Trace::kernels or Trace::transfers, by kind
  WorkKind kind = WorkKind::kKernel;
  bool collective = false;        // a kernel whose name holds nccl or rccl
  uint32_t launch = kNoRow;       // into Trace::api_calls
  uint32_t predecessor = kNoRow;  // the item before it on its (device, stream), or kNoRow
  int32_t step = -1;              // index into LinkedTrace::steps() it was launched in
};

// A call on a host thread that returned when a device item ended (a synchronising or copy call).
struct BlockingCall {
  int64_t end_ns = 0;
  uint32_t call = 0;    // into Trace::api_calls
  uint32_t waited = 0;  // into RankWork::items
};

class RankWork {
 public:
  RankWork(const LinkedTrace& linked, const JobRank& rank);

  const Trace& trace() const { return linked_->trace(); }
  // Whether a host track (Trace::tracks index) is this rank's (its process's, for a rank that is
  // one process of an input).
  bool OwnsTrack(uint32_t track) const;
  const LinkedTrace& linked() const { return *linked_; }
  const std::vector<PathItem>& items() const { return items_; }
  // The item of a Trace::kernels row, or kNoRow when it is not this rank's.
  uint32_t ItemOfKernel(uint32_t row) const;

  // Of the items launched in step `step` (an index into LinkedTrace::steps()), the one that ended
  // last (ties: latest start, first in order); kNoRow when none.
  uint32_t LastLaunchedIn(size_t step) const;

  // Of the items on other streams of `w`'s device that started before `w` and ended at or before
  // its start: the one with the latest end (ties: latest start, lowest stream, first in order).
  std::optional<uint32_t> LatestOtherStreamBefore(uint32_t w) const;
  // The latest blocking call on `track` that ended at or before `t_ns`; null when none.
  const BlockingCall* LatestBlockingCall(uint32_t track, int64_t t_ns) const;
  // Outermost framework ops of `track` (Trace::slices rows) by start, the longer first, then in
  // the table's order.
  const std::vector<uint32_t>& OutermostOps(uint32_t track) const;
  const std::map<uint32_t, std::vector<uint32_t>>& OutermostOpsByTrack() const {
    return outermost_ops_;
  }
  size_t BlockingCallCount() const { return blocking_count_; }
  // Every blocking call, by track, each track's by end.
  const std::map<uint32_t, std::vector<BlockingCall>>& BlockingCallsByTrack() const {
    return blocking_;
  }

 private:
  void IndexItems(const JobRank& rank);
  void IndexBlockingCalls();
  void IndexOutermostOps();
  // Orders items as LatestOtherStreamBefore prefers them, the preferred last.
  bool PreferredBefore(uint32_t a, uint32_t b) const;

  const LinkedTrace* linked_;
  std::optional<int64_t> pid_;   // JobRank::pid
  std::vector<PathItem> items_;  // by device, then (start, end, kind, row)
  std::vector<uint32_t> item_of_kernel_;
  std::vector<uint32_t> last_of_step_;  // by step index
  // Per (device, stream): its items ordered by PreferredBefore (by end, first).
  std::map<std::pair<uint32_t, int64_t>, std::vector<uint32_t>> by_end_;
  std::map<uint32_t, std::vector<BlockingCall>> blocking_;  // by track, by end
  size_t blocking_count_ = 0;
  std::map<uint32_t, std::vector<uint32_t>> outermost_ops_;
};

}  // namespace tensormorph
