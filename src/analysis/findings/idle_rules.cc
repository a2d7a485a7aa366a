// host_launch_gaps, synchronization, blocking_copies and launch_bound_kernels: the device's idle
// time. Each of timeline's gaps goes to one rule by its cause; launch_bound_kernels claims at most
// the idle time outside every gap, so the four never claim more than the device's idle time.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "analysis/common/intervals.h"
#include "analysis/findings/rules.h"
#include "analysis/timeline/gaps.h"
#include "analysis/timeline/graph_capture.h"
#include "tensormorph/model/copy_kinds.h"

namespace tensormorph::findings {
namespace {

// What the launching thread was doing across a gap: the innermost op spanning its middle, else
// the python function, else the annotation; "" when nothing spans it.
std::string HostActivity(const InputContext& ctx, const Gap& gap) {
  const Trace& trace = ctx.trace();
  if (gap.launch_call == kNoRow) return "";
  const uint32_t track = trace.api_calls[gap.launch_call].track;
  const int64_t middle = gap.start_ns + gap.length_ns / 2;
  for (SliceKind kind : {SliceKind::kOp, SliceKind::kPythonFunction, SliceKind::kUserAnnotation}) {
    const uint32_t slice = EnclosingSlice(trace, ctx.linked->links(), track, middle, kind);
    if (slice != kNoRow) return std::string(trace.str(trace.slices[slice].name));
  }
  return "";
}

std::vector<const Gap*> GapsOf(const DeviceTimeline& d, GapCause cause) {
  std::vector<const Gap*> gaps;
  for (const Gap& g : d.gaps) {
    if (g.cause == cause) gaps.push_back(&g);
  }
  std::stable_sort(gaps.begin(), gaps.end(),
                   [](const Gap* a, const Gap* b) { return a->length_ns > b->length_ns; });
  return gaps;
}

void HostLaunchGaps(const InputContext& ctx, const DeviceTimeline& d, std::vector<Finding>* out) {
  const std::vector<const Gap*> gaps = GapsOf(d, GapCause::kHostLaunchDelay);
  const CauseTotal& total = d.gap_causes[static_cast<size_t>(GapCause::kHostLaunchDelay)];
  if (gaps.empty()) return;
  Finding f = NewFinding(ctx, "host_launch_gaps", total.total_ns, &d);
  f.where.op = HostActivity(ctx, *gaps.front());
  f.title = fmt::format("{} idle gaps while the host was late to launch{}", total.count,
                        f.where.op.empty() ? "" : fmt::format(" (longest in {})", f.where.op));
  f.evidence = {{"gaps", static_cast<int64_t>(total.count)},
                {"gap_ns", total.total_ns},
                {"longest_gap_ns", gaps.front()->length_ns},
                {"device_idle_ns", d.span_ns - d.busy_ns}};
  for (size_t i = 0; i < gaps.size() && i < ctx.query->top_items; ++i) {
    const Gap& g = *gaps[i];
    const std::string host = HostActivity(ctx, g);
    f.top.push_back({host.empty() ? "(no host op spans it)" : host,
                     {{"start_ns", g.start_ns},
                      {"length_ns", g.length_ns},
                      {"before", std::string(g.before)},
                      {"after", std::string(g.after)}}});
  }
  if (const GraphCaptureSummary capture = SummarizeGraphCapture(ctx.trace()); capture.windows) {
    // The program already captures graphs, and the idle time of the captures themselves is
    // graph_capture's, not this rule's: what is left are launches outside the graphs.
    f.fix = fmt::format(
        "This trace was recorded while the program captured its CUDA/HIP graphs ({} capture "
        "windows, {:.3f} ms; the idle time they caused is not counted here): profile the graph "
        "replays, the steady state. The gaps here are launches outside the captured region: move "
        "them into it or fuse them (torch.compile), and move the host work named here off the "
        "launch path.",
        capture.windows, capture.total_ns / 1e6);
  } else {
    f.fix =
        "Launch fewer, larger pieces of work: capture the step in a CUDA/HIP graph "
        "(torch.cuda.graphs, torch.compile(mode=\"reduce-overhead\")), fuse small ops "
        "(torch.compile), or raise the batch size; move the host work named here off the launch "
        "path.";
  }
  out->push_back(std::move(f));
}

// The synchronize calls of each host thread by end time, to find the one behind a gap.
class SyncCalls {
 public:
  explicit SyncCalls(const Trace& trace) {
    for (uint32_t row = 0; row < trace.api_calls.size(); ++row) {
      const ApiCall& c = trace.api_calls[row];
      if (!IsSynchronizeCall(c, trace.str(c.name))) continue;
      by_track_[c.track].emplace_back(c.start_ns + c.duration_ns, row);
      ++count_;
    }
    for (auto& entry : by_track_) std::sort(entry.second.begin(), entry.second.end());
  }
  uint64_t count() const { return count_; }

  // The op around the last synchronize call on the launching thread that ended within the gap
  // (before the launch call), else that call's own name; "(unknown)" without one.
  std::string Behind(const InputContext& ctx, const Gap& gap) const {
    const Trace& trace = ctx.trace();
    if (gap.launch_call == kNoRow) return "(unknown)";
    const ApiCall& launch = trace.api_calls[gap.launch_call];
    auto it = by_track_.find(launch.track);
    if (it == by_track_.end()) return "(unknown)";
    const auto& ends = it->second;
    auto after =
        std::upper_bound(ends.begin(), ends.end(), std::make_pair(launch.start_ns, UINT32_MAX));
    if (after == ends.begin() || std::prev(after)->first < gap.start_ns) return "(unknown)";
    const ApiCall& sync = trace.api_calls[std::prev(after)->second];
    const uint32_t op =
        EnclosingSlice(trace, ctx.linked->links(), sync.track, sync.start_ns, SliceKind::kOp);
    return std::string(op != kNoRow ? trace.str(trace.slices[op].name) : trace.str(sync.name));
  }

 private:
  std::map<uint32_t, std::vector<std::pair<int64_t, uint32_t>>> by_track_;
  uint64_t count_ = 0;
};

void Synchronization(const InputContext& ctx, const DeviceTimeline& d, std::vector<Finding>* out) {
  const std::vector<const Gap*> gaps = GapsOf(d, GapCause::kSynchronization);
  if (gaps.empty()) return;
  const CauseTotal& total = d.gap_causes[static_cast<size_t>(GapCause::kSynchronization)];
  struct ByOp {
    int64_t gaps = 0, gap_ns = 0, longest_ns = 0;
  };
  const SyncCalls syncs(ctx.trace());
  std::map<std::string, ByOp> by_op;
  for (const Gap* g : gaps) {
    ByOp& b = by_op[syncs.Behind(ctx, *g)];
    ++b.gaps;
    b.gap_ns += g->length_ns;
    b.longest_ns = std::max(b.longest_ns, g->length_ns);
  }
  std::vector<std::pair<std::string, ByOp>> ranked(by_op.begin(), by_op.end());
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.second.gap_ns > b.second.gap_ns; });
  Finding f = NewFinding(ctx, "synchronization", total.total_ns, &d);
  f.where.op = ranked.front().first;
  f.title = fmt::format("{} idle gaps after the host waited for the device (most after {})",
                        total.count, f.where.op);
  f.evidence = {{"gaps", static_cast<int64_t>(total.count)},
                {"gap_ns", total.total_ns},
                {"synchronize_calls", static_cast<int64_t>(syncs.count())}};
  for (size_t i = 0; i < ranked.size() && i < ctx.query->top_items; ++i) {
    f.top.push_back({ranked[i].first,
                     {{"gaps", ranked[i].second.gaps},
                      {"gap_ns", ranked[i].second.gap_ns},
                      {"longest_gap_ns", ranked[i].second.longest_ns}}});
  }
  f.fix =
      "Keep values on the device: avoid .item(), .cpu(), .tolist(), printing tensors and "
      "torch.cuda.synchronize() inside the step; read results once per step (or every N steps), "
      "and use non_blocking copies with an event where the host needs a value.";
  out->push_back(std::move(f));
}

bool IsPageable(const Transfer& t) {
  return t.kind == TransferKind::kMemcpy &&
         (t.src_memory == MemoryKind::kPageable || t.dst_memory == MemoryKind::kPageable);
}

void BlockingCopies(const InputContext& ctx, const DeviceTimeline& d, std::vector<Finding>* out) {
  const Trace& trace = ctx.trace();
  const CauseTotal& waits = d.gap_causes[static_cast<size_t>(GapCause::kMemcpyWait)];
  // Pageable copies, and their time outside the device's kernels.
  struct ByName {
    int64_t count = 0, bytes = 0, time_ns = 0;
  };
  std::map<std::string, ByName> by_name;
  std::vector<Interval> pageable;
  for (const Transfer& t : trace.transfers) {
    if (t.device != d.device || !IsPageable(t)) continue;
    pageable.push_back({t.start_ns, t.start_ns + t.duration_ns});
    ByName& b = by_name[std::string(trace.str(t.name))];
    ++b.count;
    b.bytes += static_cast<int64_t>(t.bytes);
    b.time_ns += t.duration_ns;
  }
  if (pageable.empty() && waits.count == 0) return;
  int64_t exposed_ns = 0;
  if (!pageable.empty()) {
    std::vector<Interval> kernels;
    for (const Kernel& k : trace.kernels) {
      if (k.device == d.device) kernels.push_back({k.start_ns, k.start_ns + k.duration_ns});
    }
    const std::vector<Interval> copies = MergeIntervals(std::move(pageable));
    exposed_ns =
        TotalLength(copies) - IntersectionLength(copies, MergeIntervals(std::move(kernels)));
  }
  Finding f = NewFinding(ctx, "blocking_copies", exposed_ns + waits.total_ns, &d);
  int64_t pageable_count = 0;
  for (const auto& entry : by_name) pageable_count += entry.second.count;
  // Name only the halves present: a trace may have pageable copies, blocking waits, or both.
  std::vector<std::string> parts;
  if (pageable_count > 0) {
    parts.push_back(fmt::format("{} copies from or to pageable memory", pageable_count));
  }
  if (waits.count > 0) {
    parts.push_back(fmt::format("{} idle gaps while the host blocked in a copy", waits.count));
  }
  f.title = fmt::format("{}", fmt::join(parts, ", "));
  f.evidence = {{"pageable_copy_ns_outside_kernels", exposed_ns},
                {"memcpy_wait_gaps", static_cast<int64_t>(waits.count)},
                {"memcpy_wait_gap_ns", waits.total_ns}};
  std::vector<std::pair<std::string, ByName>> ranked(by_name.begin(), by_name.end());
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second.time_ns > b.second.time_ns;
  });
  if (!ranked.empty()) f.where.kernel = ranked.front().first;
  for (size_t i = 0; i < ranked.size() && i < ctx.query->top_items; ++i) {
    f.top.push_back({ranked[i].first,
                     {{"count", ranked[i].second.count},
                      {"bytes", ranked[i].second.bytes},
                      {"time_ns", ranked[i].second.time_ns}}});
  }
  f.fix =
      "Copy from pinned memory without blocking: DataLoader(pin_memory=True) or "
      "tensor.pin_memory(), then .to(device, non_blocking=True); replace cudaMemcpy with "
      "cudaMemcpyAsync on a side stream.";
  out->push_back(std::move(f));
}

void LaunchBoundKernels(const InputContext& ctx, const DeviceTimeline& d,
                        std::vector<Finding>* out) {
  const LaunchLatency& l = d.launch;
  if (l.launch_bound_count == 0) return;
  // The host time the launches cost beyond the kernels, bounded by the idle time no gap rule
  // claims (idle outside every gap longer than the threshold).
  const int64_t bound = l.launch_bound_call_ns - l.launch_bound_ns;
  const int64_t unclaimed_idle = (d.span_ns - d.busy_ns) - d.gap_total_ns;
  const int64_t gain = std::min(bound, unclaimed_idle);
  if (gain <= 0) return;
  Finding f = NewFinding(ctx, "launch_bound_kernels", gain, &d);
  if (!l.launch_bound.empty()) f.where.kernel = l.launch_bound.front().name;
  f.title = fmt::format("{} kernels ran shorter than their launch call", l.launch_bound_count);
  f.evidence = {{"kernels", static_cast<int64_t>(l.launch_bound_count)},
                {"kernel_ns", l.launch_bound_ns},
                {"launch_call_ns", l.launch_bound_call_ns},
                {"launch_overhead_p50_ns", l.overhead.p50_ns},
                {"idle_outside_gaps_ns", unclaimed_idle},
                {"graph_kernels_left_out", static_cast<int64_t>(l.graph_kernels)}};
  for (const NameCount& n : l.launch_bound) {
    f.top.push_back(
        {n.name, {{"count", static_cast<int64_t>(n.count)}, {"kernel_ns", n.total_ns}}});
  }
  f.fix =
      "Fuse the small kernels (torch.compile, fused optimizers such as foreach/fused Adam) or "
      "replay them as a CUDA/HIP graph, whose kernels need no launch call each.";
  out->push_back(std::move(f));
}

}  // namespace

void FindIdleTime(const InputContext& ctx, const DeviceTimeline& device,
                  std::vector<Finding>* out) {
  HostLaunchGaps(ctx, device, out);
  Synchronization(ctx, device, out);
  BlockingCopies(ctx, device, out);
  LaunchBoundKernels(ctx, device, out);
}

}  // namespace tensormorph::findings
