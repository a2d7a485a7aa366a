#include "analysis/timeline/gaps.h"

#include <algorithm>

namespace tensormorph {
namespace {

bool AnyIn(const std::vector<std::vector<int64_t>>& ends, uint32_t track, int64_t from_ns,
           int64_t to_ns) {
  if (track >= ends.size()) return false;
  const std::vector<int64_t>& e = ends[track];
  auto it = std::lower_bound(e.begin(), e.end(), from_ns);
  return it != e.end() && *it <= to_ns;
}

}  // namespace

const WorkLink* LinkOf(const TraceLinks& links, const WorkItem& item) {
  const std::vector<WorkLink>& table =
      item.kind == WorkKind::kKernel ? links.kernels : links.transfers;
  return item.row < table.size() ? &table[item.row] : nullptr;
}

const ApiCall* LaunchOf(const Trace& trace, const TraceLinks& links, const WorkItem& item) {
  const WorkLink* link = LinkOf(links, item);
  if (link == nullptr || link->launch >= trace.api_calls.size()) return nullptr;
  return &trace.api_calls[link->launch];
}

const char* GapCauseName(GapCause cause) {
  switch (cause) {
    case GapCause::kHostLaunchDelay:
      return "host_launch_delay";
    case GapCause::kSynchronization:
      return "synchronization";
    case GapCause::kMemcpyWait:
      return "memcpy_wait";
    case GapCause::kQueued:
      return "queued";
    case GapCause::kGraphCapture:
      return "graph_capture";
    case GapCause::kUnknown:
      return "unknown";
  }
  return "unknown";
}

bool IsSynchronizeCall(const ApiCall& call, std::string_view name) {
  return call.kind == ApiKind::kSync || name.find("Synchronize") != std::string_view::npos;
}

bool IsBlockingCopyCall(std::string_view name) {
  if (name.find("Async") != std::string_view::npos) return false;
  for (std::string_view prefix :
       {"cudaMemcpy", "cudaMemset", "hipMemcpy", "hipMemset", "cuMemcpy", "cuMemset"}) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

HostWaits::HostWaits(const Trace& trace) {
  sync_ends_.resize(trace.tracks.size());
  copy_ends_.resize(trace.tracks.size());
  std::vector<const ApiCall*> capture_calls;  // one walk of the calls serves all three
  for (const ApiCall& call : trace.api_calls) {
    if (call.track >= trace.tracks.size()) continue;
    const std::string_view name = trace.str(call.name);
    const int64_t end = call.start_ns + call.duration_ns;
    if (IsSynchronizeCall(call, name)) {
      sync_ends_[call.track].push_back(end);
    } else if (IsBlockingCopyCall(name)) {
      copy_ends_[call.track].push_back(end);
    } else if (IsBeginCaptureCall(name) || IsEndCaptureCall(name)) {
      capture_calls.push_back(&call);
    }
  }
  for (auto& e : sync_ends_) std::sort(e.begin(), e.end());
  for (auto& e : copy_ends_) std::sort(e.begin(), e.end());
  captures_.resize(trace.tracks.size());
  for (const CaptureWindow& w : PairCaptureCalls(trace, capture_calls)) {
    if (w.track < captures_.size()) captures_[w.track].emplace_back(w.start_ns, w.end_ns);
  }
}

bool HostWaits::CapturingIn(uint32_t track, int64_t from_ns, int64_t to_ns) const {
  if (track >= captures_.size()) return false;
  for (const auto& [start, end] : captures_[track]) {  // few windows per thread: a plain scan
    if (start < to_ns && end > from_ns) return true;
  }
  return false;
}

bool HostWaits::SyncEndedIn(uint32_t track, int64_t from_ns, int64_t to_ns) const {
  return AnyIn(sync_ends_, track, from_ns, to_ns);
}

bool HostWaits::BlockingCopyEndedIn(uint32_t track, int64_t from_ns, int64_t to_ns) const {
  return AnyIn(copy_ends_, track, from_ns, to_ns);
}

GapCause ClassifyGap(const Interval& gap, const ApiCall* launch, const HostWaits& waits) {
  if (launch == nullptr) return GapCause::kUnknown;
  // Launched before the device went idle: the work was queued, yet did not start, so it waited
  // on something other than the host (an event, another stream, a collective's peer).
  if (launch->start_ns <= gap.start_ns) return GapCause::kQueued;
  // The host was late. Capturing a graph in the gap: its launches ran nothing, so the device
  // idled for the capture, not for a slow host.
  if (waits.CapturingIn(launch->track, gap.start_ns, launch->start_ns)) {
    return GapCause::kGraphCapture;
  }
  // If its thread came out of a wait during the gap, the wait made it late.
  if (waits.SyncEndedIn(launch->track, gap.start_ns, launch->start_ns)) {
    return GapCause::kSynchronization;
  }
  if (waits.BlockingCopyEndedIn(launch->track, gap.start_ns, launch->start_ns)) {
    return GapCause::kMemcpyWait;
  }
  return GapCause::kHostLaunchDelay;
}

void FindDeviceGaps(const Trace& trace, const TraceLinks& links, const HostWaits& waits,
                    const std::vector<WorkItem>& work, const std::vector<Interval>& merged,
                    int64_t min_gap_ns, DeviceTimeline* device) {
  const std::vector<Interval> gaps = GapsBetween(merged, min_gap_ns);
  if (gaps.empty()) return;
  // Work by end time, to find what ended when each gap began.
  std::vector<uint32_t> by_end(work.size());
  for (uint32_t i = 0; i < by_end.size(); ++i) by_end[i] = i;
  std::stable_sort(by_end.begin(), by_end.end(),
                   [&](uint32_t a, uint32_t b) { return work[a].end_ns < work[b].end_ns; });
  for (const Interval& g : gaps) {
    Gap gap;
    gap.start_ns = g.start_ns;
    gap.length_ns = g.length();
    // The gap begins at a merged interval's end, so some work ends exactly there.
    auto before = std::lower_bound(by_end.begin(), by_end.end(), g.start_ns,
                                   [&](uint32_t i, int64_t t) { return work[i].end_ns < t; });
    if (before != by_end.end()) gap.before = WorkName(trace, work[*before]);
    // Of the work starting when the gap ends, the first in order names it; the first with a
    // launch call (if any) gives the cause.
    auto after = std::lower_bound(work.begin(), work.end(), g.end_ns,
                                  [](const WorkItem& w, int64_t t) { return w.start_ns < t; });
    const ApiCall* launch = nullptr;
    if (after != work.end()) {
      gap.after = WorkName(trace, *after);
      for (auto it = after; it != work.end() && it->start_ns == g.end_ns && !launch; ++it) {
        launch = LaunchOf(trace, links, *it);
      }
    }
    gap.cause = ClassifyGap(g, launch, waits);
    if (launch != nullptr) gap.launch_call = static_cast<uint32_t>(launch - trace.api_calls.data());
    CauseTotal& total = device->gap_causes[static_cast<size_t>(gap.cause)];
    ++total.count;
    total.total_ns += gap.length_ns;
    device->gap_total_ns += gap.length_ns;
    device->gaps.push_back(std::move(gap));
  }
}

}  // namespace tensormorph
