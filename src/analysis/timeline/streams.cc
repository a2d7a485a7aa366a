#include "analysis/timeline/streams.h"

#include <algorithm>
#include <map>
#include <utility>

#include "analysis/common/intervals.h"

namespace tensormorph {
namespace {

// The work of one stream, in the device's order (by start).
StreamBusy AnalyzeStream(const Trace& trace, const TraceLinks& links, const HostWaits& waits,
                         int64_t stream, const std::vector<const WorkItem*>& work,
                         int64_t queue_limit) {
  StreamBusy s;
  s.stream = stream;
  s.work_count = work.size();
  std::vector<Interval> intervals;
  intervals.reserve(work.size());
  for (const WorkItem* w : work) intervals.push_back(w->interval());
  const std::vector<Interval> merged = MergeIntervals(std::move(intervals));
  s.busy_ns = TotalLength(merged);
  s.start_ns = merged.front().start_ns;
  s.end_ns = merged.back().end_ns;
  s.idle_ns = (s.end_ns - s.start_ns) - s.busy_ns;
  // Each idle stretch gets the cause of the first work that starts when it ends.
  size_t next = 0;
  for (const Interval& gap : GapsBetween(merged, 0)) {
    while (next < work.size() && work[next]->start_ns < gap.end_ns) ++next;
    const ApiCall* launch = nullptr;
    for (size_t i = next; i < work.size() && work[i]->start_ns == gap.end_ns && !launch; ++i) {
      launch = LaunchOf(trace, links, *work[i]);
    }
    CauseTotal& total = s.idle_causes[static_cast<size_t>(ClassifyGap(gap, launch, waits))];
    ++total.count;
    total.total_ns += gap.length();
  }
  std::vector<std::pair<int64_t, int>> changes;
  changes.reserve(2 * work.size());
  for (const WorkItem* w : work) {
    const WorkLink* link = LinkOf(links, *w);
    if (link == nullptr || link->graph || link->launch >= trace.api_calls.size()) continue;
    // A synchronous copy is queued like any launch until it starts.
    changes.emplace_back(trace.api_calls[link->launch].start_ns, +1);
    changes.emplace_back(w->start_ns, -1);
  }
  s.queue = QueueLengthOf(std::move(changes), queue_limit);
  return s;
}

}  // namespace

QueueLength QueueLengthOf(std::vector<std::pair<int64_t, int>> changes, int64_t queue_limit) {
  QueueLength q;
  q.launches = changes.size() / 2;
  if (changes.empty()) return q;
  // By time; at equal times -1 (a start) before +1 (a launch).
  std::sort(changes.begin(), changes.end());
  int64_t length = 0;
  double point_sum = 0, weighted = 0;
  for (size_t i = 0; i < changes.size(); ++i) {
    length += changes[i].second;
    point_sum += static_cast<double>(length);
    q.max = std::max(q.max, length);
    if (i + 1 < changes.size()) {
      const int64_t held = changes[i + 1].first - changes[i].first;
      weighted += static_cast<double>(length) * static_cast<double>(held);
      if (length >= queue_limit) q.time_at_limit_ns += held;
    }
  }
  q.mean = point_sum / static_cast<double>(changes.size());
  const int64_t span = changes.back().first - changes.front().first;
  q.time_mean = span > 0 ? weighted / static_cast<double>(span) : 0;
  return q;
}

std::vector<StreamBusy> AnalyzeStreams(const Trace& trace, const TraceLinks& links,
                                       const HostWaits& waits, const std::vector<WorkItem>& work,
                                       int64_t queue_limit) {
  std::map<int64_t, std::vector<const WorkItem*>> by_stream;
  for (const WorkItem& w : work) by_stream[w.stream].push_back(&w);
  std::vector<StreamBusy> streams;
  streams.reserve(by_stream.size());
  for (const auto& entry : by_stream) {
    streams.push_back(AnalyzeStream(trace, links, waits, entry.first, entry.second, queue_limit));
  }
  return streams;
}

}  // namespace tensormorph
