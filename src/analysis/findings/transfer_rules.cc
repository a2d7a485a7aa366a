// exposed_communication, slow_copies and stragglers: time spent moving data, and ranks the others
// waited for.
#include <fmt/format.h>

#include <algorithm>

#include "analysis/findings/rules.h"
#include "tensormorph/model/copy_kinds.h"

namespace tensormorph::findings {
namespace {

void ExposedCommunication(const InputContext& ctx, const DeviceTimeline& d,
                          std::vector<Finding>* out) {
  const int64_t exposed = d.communication_ns - d.comm_comp_overlap_ns;
  if (d.communication_ns == 0 || exposed <= 0) return;
  Finding f = NewFinding(ctx, "exposed_communication", exposed, &d);
  f.title = fmt::format("communication not overlapped with computation ({:.1f} % overlapped)",
                        d.comm_comp_overlap_percent.value_or(0));
  f.evidence = {{"communication_ns", d.communication_ns},
                {"overlap_ns", d.comm_comp_overlap_ns},
                {"exposed_ns", exposed},
                {"overlap_percent", d.comm_comp_overlap_percent.value_or(0)}};
  f.fix =
      "Overlap communication with computation: DDP/FSDP gradient buckets (bucket_cap_mb), "
      "prefetch in FSDP (forward_prefetch, backward_prefetch), or issue the collective on a side "
      "stream before the computation that does not need its result.";
  out->push_back(std::move(f));
}

// Copies are memcpys that are not from or to pageable memory (those are blocking_copies').
void SlowCopies(const InputContext& ctx, const DeviceTimeline& d, std::vector<Finding>* out) {
  const double attainable = ctx.query->attainable_roof_percent / 100;
  int64_t gain = 0;
  std::vector<std::pair<int64_t, const CopyBandwidth*>> slow;
  for (const CopyBandwidth& c : d.copies) {
    if (c.kind != TransferKind::kMemcpy || !c.percent_of_peak || c.bytes == 0) continue;
    if (c.src_memory == MemoryKind::kPageable || c.dst_memory == MemoryKind::kPageable) continue;
    if (*c.percent_of_peak >= ctx.query->slow_copy_percent) continue;
    const double at_attainable_ns =
        static_cast<double>(c.bytes) / (*c.peak_bytes_per_s * attainable) * 1e9;
    const int64_t copy_gain = c.duration_ns - static_cast<int64_t>(at_attainable_ns);
    if (copy_gain <= 0) continue;
    gain += copy_gain;
    slow.emplace_back(copy_gain, &c);
  }
  if (slow.empty()) return;
  std::stable_sort(slow.begin(), slow.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  auto what = [](const CopyBandwidth& c) {
    return MemcpyKindLabel(c.direction, c.src_memory, c.dst_memory);
  };
  Finding f = NewFinding(ctx, "slow_copies", gain, &d);
  f.where.kernel = what(*slow.front().second);
  f.title = fmt::format("copies below {:.0f} % of their link's peak (most: {} at {:.1f} %)",
                        ctx.query->slow_copy_percent, f.where.kernel,
                        *slow.front().second->percent_of_peak);
  f.evidence = {{"attainable_percent", ctx.query->attainable_roof_percent}};
  for (const auto& [copy_gain, c] : slow) {
    if (copy_gain < c->duration_ns && d.device != kNoDevice) {
      f.speedups.push_back(
          {what(*c), "copy", d.device,
           static_cast<double>(c->duration_ns) / static_cast<double>(c->duration_ns - copy_gain)});
    }
  }
  for (size_t i = 0; i < slow.size() && i < ctx.query->top_items; ++i) {
    const CopyBandwidth& c = *slow[i].second;
    f.top.push_back({what(c),
                     {{"count", static_cast<int64_t>(c.count)},
                      {"bytes", static_cast<int64_t>(c.bytes)},
                      {"duration_ns", c.duration_ns},
                      {"bytes_per_s", *c.bytes_per_s},
                      {"peak_bytes_per_s", *c.peak_bytes_per_s},
                      {"percent_of_peak", *c.percent_of_peak},
                      {"gain_ns", slow[i].first},
                      {"peak_source", c.peak_source}}});
  }
  f.fix =
      "Batch small copies into one (torch.cat before .to(), a preallocated staging buffer), keep "
      "data on the device between steps, and copy from pinned memory so the copy runs at the "
      "link's rate.";
  out->push_back(std::move(f));
}

}  // namespace

void FindSlowTransfers(const InputContext& ctx, const DeviceTimeline& device,
                       std::vector<Finding>* out) {
  ExposedCommunication(ctx, device, out);
  SlowCopies(ctx, device, out);
}

void FindStragglers(const std::vector<InputContext>& inputs, const TimelineResult& timeline,
                    std::vector<Finding>* out) {
  if (!timeline.is_job || !timeline.straggler_basis_ns) return;
  for (const RankSteps& r : timeline.ranks) {
    if (!r.straggler) continue;
    const InputContext& ctx = inputs[static_cast<size_t>(r.input)];
    const DeviceTimeline* device = nullptr;
    for (const DeviceTimeline* d : ctx.timelines) {
      if (d->rank != r.rank) continue;
      if (device == nullptr || d->busy_ns > device->busy_ns) device = d;
    }
    // The others' wait is what this rank arriving on time would give back to the job.
    Finding f = NewFinding(ctx, "stragglers", r.wait_caused_ns, device);
    // The others' wait is theirs, not this rank's: its share is of their profiled time, the one
    // definition timeline, the report's Ranks section and tm.fleet use.
    f.gain_basis = "other ranks";
    f.gain_percent = std::min(100.0, r.wait_caused_percent.value_or(0));
    f.title = fmt::format("rank {} made the other ranks wait {:.3f} ms in {} collectives{}",
                          r.rank ? std::to_string(*r.rank) : std::string("?"),
                          static_cast<double>(r.wait_caused_ns) / 1e6, r.times_last,
                          r.late_cause.empty() ? "" : fmt::format(", late for {}", r.late_cause));
    f.evidence = {{"wait_caused_ns", r.wait_caused_ns},
                  {"wait_suffered_ns", r.wait_suffered_ns},
                  {"times_last", static_cast<int64_t>(r.times_last)},
                  {"late_cause", r.late_cause},
                  {"straggler_basis_ns", *timeline.straggler_basis_ns},
                  {"others_profiled_ns", r.others_profiled_ns},
                  {"steps", static_cast<int64_t>(r.step_count)}};
    if (r.median_step_ns) f.evidence.push_back({"median_step_ns", *r.median_step_ns});
    if (timeline.median_rank_step_ns) {
      f.evidence.push_back({"job_median_step_ns", *timeline.median_rank_step_ns});
    }
    if (r.late_cause == "computation") {
      f.fix =
          "This rank computes longer before its collectives: balance the work across ranks "
          "(sharding, batch sizes) and check its device for throttling.";
    } else if (r.late_cause == "communication") {
      f.fix =
          "This rank spends longer in its own communication before the collectives: check its "
          "links and the collectives it alone runs.";
    } else {
      f.fix =
          "This rank's device sits idle before its collectives: look at its host (data "
          "loading, synchronization, launch gaps: its own findings) first.";
    }
    out->push_back(std::move(f));
  }
}

}  // namespace tensormorph::findings
