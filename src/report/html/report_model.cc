// Builds the report's JSON document (report_model.h). The kernels table joins the occupancy and
// roofline rows of the same kernel name and backend; nothing here recomputes an analysis.
#include "report/html/report_model.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "analysis/occupancy/occupancy.h"
#include "model/precision.h"
#include "report/ops_report.h"

namespace tensormorph {
namespace {

template <typename T>
Json Opt(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}

using NameKey = std::pair<std::string, Backend>;

// Per kernel name: the launch shape with the most time stands for the name in the kernels table.
struct OccupancyJoin {
  const KernelOccupancyRow* largest = nullptr;
  int64_t total_ns = 0;
};

Json Summary(const ReportData& data) {
  Json devices = Json::array();
  int64_t span = 0, busy = 0, kernel_ns = 0;
  std::map<int64_t, bool> ranks;
  for (const DeviceTimeline& d : data.timeline->devices) {
    devices.push_back({{"input", d.input},
                       {"device", d.label},
                       {"rank", Opt(d.rank)},
                       {"span_ns", d.span_ns},
                       {"busy_ns", d.busy_ns},
                       {"utilization_percent", d.utilization_percent},
                       {"kernel_count", d.kernel_count},
                       {"memcpy_count", d.memcpy_count},
                       {"memset_count", d.memset_count},
                       {"gap_count", d.gaps.size()},
                       {"gap_total_ns", d.gap_total_ns}});
    span += d.span_ns;
    busy += d.busy_ns;
    kernel_ns += d.kernel_ns;
    if (d.rank) ranks[*d.rank] = true;
  }
  // Findings: the longest idle gaps over every device, and the kernels furthest below their roof.
  std::vector<std::pair<const DeviceTimeline*, const Gap*>> gaps;
  for (const DeviceTimeline& d : data.timeline->devices) {
    for (const Gap& g : d.gaps) gaps.emplace_back(&d, &g);
  }
  std::stable_sort(gaps.begin(), gaps.end(), [](const auto& a, const auto& b) {
    return a.second->length_ns > b.second->length_ns;
  });
  Json top_gaps = Json::array();
  for (size_t i = 0; i < gaps.size() && i < 5; ++i) {
    const Gap& g = *gaps[i].second;
    top_gaps.push_back({{"device", gaps[i].first->label},
                        {"input", gaps[i].first->input},
                        {"start_ns", g.start_ns},
                        {"length_ns", g.length_ns},
                        {"before", g.before},
                        {"after", g.after},
                        {"cause", GapCauseName(g.cause)}});
  }
  std::vector<const RooflineRow*> below;
  for (const RooflineRow& r : data.roofline->rows) {
    if (r.percent_of_roof) below.push_back(&r);
  }
  std::stable_sort(below.begin(), below.end(), [](const RooflineRow* a, const RooflineRow* b) {
    // Furthest below the roof, weighted by time: the most to gain first.
    return (100 - *a->percent_of_roof) * a->total_ns > (100 - *b->percent_of_roof) * b->total_ns;
  });
  Json top_below = Json::array();
  for (size_t i = 0; i < below.size() && i < 5; ++i) {
    top_below.push_back({{"name", below[i]->name},
                         {"device", below[i]->device},
                         {"total_ns", below[i]->total_ns},
                         {"percent_of_roof", *below[i]->percent_of_roof},
                         {"memory_bound", Opt(below[i]->memory_bound)}});
  }
  Json ranks_json = Json::array();
  for (const auto& [rank, unused] : ranks) ranks_json.push_back(rank);
  return {{"devices", std::move(devices)},
          {"ranks", std::move(ranks_json)},
          {"span_ns", span},
          {"busy_ns", busy},
          {"busy_percent", span > 0 ? 100.0 * static_cast<double>(busy) / span : 0.0},
          {"kernel_count", data.kernels->kernel_count},
          {"kernel_total_ns", data.kernels->total_ns},
          {"top_gaps", std::move(top_gaps)},
          {"below_roof", std::move(top_below)}};
}

Json OccupancyJson(const KernelOccupancyRow& r) {
  return {{"name", r.name},
          {"backend", BackendName(r.backend)},
          {"arch", r.arch},
          {"count", r.count},
          {"total_ns", r.total_ns},
          {"block_size", r.block_size},
          // -1: not in the trace (rows from Nsight Compute's Occupancy section)
          {"registers_per_thread",
           r.registers_per_thread < 0 ? Json(nullptr) : Json(r.registers_per_thread)},
          {"shared_memory_bytes",
           r.shared_memory_bytes < 0 ? Json(nullptr) : Json(r.shared_memory_bytes)},
          {"theoretical", r.occupancy.occupancy},
          {"active_warps_per_sm", r.occupancy.active_warps_per_sm},
          {"max_warps_per_sm", r.occupancy.max_warps_per_sm},
          {"limiter", LimiterName(r.occupancy.limiter)},
          {"achieved", Opt(r.achieved)},
          {"achieved_source", r.achieved_source == AchievedSource::kNone
                                  ? Json(nullptr)
                                  : Json(AchievedSourceName(r.achieved_source))}};
}

Json RooflineJson(const RooflineRow& r) {
  return {{"name", r.name},
          {"backend", BackendName(r.backend)},
          {"device", r.device},
          {"precision", PrecisionName(r.precision)},
          {"count", r.count},
          {"total_ns", r.total_ns},
          {"flops", Opt(r.flops)},
          {"dram_bytes", Opt(r.dram_bytes)},
          {"arithmetic_intensity", r.arithmetic_intensity},
          {"achieved_flops_per_s", Opt(r.achieved_flops_per_s)},
          {"peak_flops_per_s", Opt(r.peak_flops_per_s)},
          {"peak_bytes_per_s", Opt(r.peak_bytes_per_s)},
          {"ceiling_flops_per_s", Opt(r.ceiling_flops_per_s)},
          {"percent_of_roof", Opt(r.percent_of_roof)},
          {"memory_bound", Opt(r.memory_bound)},
          {"source", r.source},
          {"no_ceiling_reason", r.no_ceiling_reason}};
}

Json Kernels(const ReportData& data) {
  std::map<NameKey, OccupancyJoin> occupancy;
  for (const KernelOccupancyRow& r : data.occupancy->rows) {
    OccupancyJoin& j = occupancy[{r.name, r.backend}];
    if (!j.largest || r.total_ns > j.largest->total_ns) j.largest = &r;
  }
  std::map<NameKey, const RooflineRow*> roofline;
  for (const RooflineRow& r : data.roofline->rows) {
    const RooflineRow*& slot = roofline[{r.name, r.backend}];
    if (!slot || r.total_ns > slot->total_ns) slot = &r;
  }
  Json rows = Json::array();
  for (const KernelRow& r : data.kernels->rows) {
    Json row = {{"name", r.name},           {"backend", BackendName(r.backend)},
                {"count", r.count},         {"total_ns", r.total_ns},
                {"mean_ns", r.mean_ns},     {"median_ns", r.median_ns},
                {"min_ns", r.min_ns},       {"max_ns", r.max_ns},
                {"stddev_ns", r.stddev_ns}, {"percent", r.percent}};
    auto occ = occupancy.find({r.name, r.backend});
    const KernelOccupancyRow* o = occ != occupancy.end() ? occ->second.largest : nullptr;
    row["occupancy"] = o ? Json(o->occupancy.occupancy) : Json(nullptr);
    row["achieved_occupancy"] = o ? Opt(o->achieved) : Json(nullptr);
    row["limiter"] = o ? Json(LimiterName(o->occupancy.limiter)) : Json(nullptr);
    auto roof = roofline.find({r.name, r.backend});
    const RooflineRow* f = roof != roofline.end() ? roof->second : nullptr;
    row["arithmetic_intensity"] = f ? Json(f->arithmetic_intensity) : Json(nullptr);
    row["achieved_flops_per_s"] = f ? Opt(f->achieved_flops_per_s) : Json(nullptr);
    row["percent_of_roof"] = f ? Opt(f->percent_of_roof) : Json(nullptr);
    row["memory_bound"] = f ? Opt(f->memory_bound) : Json(nullptr);
    rows.push_back(std::move(row));
  }
  return {{"kernel_count", data.kernels->kernel_count},
          {"total_ns", data.kernels->total_ns},
          {"rows", std::move(rows)}};
}

Json Ops(const OpSummary& ops) {
  Json rows = Json::array();
  for (const OpRow& r : ops.rows) {
    Json placements = OpPlacementsJson(r.placements);
    Json top = Json::array();
    for (const OpKernel& k : r.top_kernels) top.push_back({k.name, k.count, k.total_ns});
    rows.push_back({{"name", r.name},
                    {"origin", r.origin},
                    {"calls", r.calls},
                    {"host_ns", r.host_ns},
                    {"device_ns", r.device_ns},
                    {"device_inclusive_ns", r.device_inclusive_ns},
                    {"kernels", r.kernels},
                    {"placements", std::move(placements)},
                    {"top_kernels", std::move(top)}});
  }
  return {{"ops", ops.ops},
          {"kernels", ops.kernels},
          {"attributed_kernels", ops.attributed_kernels},
          {"host_only", ops.host_only},
          {"rows", std::move(rows)}};
}

Json Diff(const ReportDiff& diff) {
  Json rows = Json::array();
  for (const DiffRow& r : diff.result.rows) {
    const Comparison& c = r.comparison;
    rows.push_back({{"kind", ProfileRowKindName(r.kind)},
                    {"name", r.name},
                    {"backend", BackendName(r.backend)},
                    {"base_count", r.base_count},
                    {"new_count", r.new_count},
                    {"base_total_ns", c.base_total_ns},
                    {"new_total_ns", c.new_total_ns},
                    {"delta_ns", c.delta_ns},
                    {"delta_percent", Opt(c.delta_percent)},
                    {"status", DiffStatusName(c.status)}});
  }
  const DiffStatusCounts& n = diff.result.counts;
  return {{"base", diff.base_path},
          {"base_is_baseline", diff.base_is_baseline},
          {"threshold_percent", diff.options.threshold_percent},
          {"verdict", diff.result.regressed ? "fail" : "pass"},
          {"counts",
           {{"regressed", n.regressed},
            {"improved", n.improved},
            {"unchanged", n.unchanged},
            {"added", n.added},
            {"removed", n.removed}}},
          {"rows", std::move(rows)}};
}

// Idle gaps for the timeline, per device: start deltas (from t0, ns) and lengths. A million-kernel
// trace has hundreds of thousands of gaps, so only those where the raw boxes are (start before
// raw_until) and the kMaxLongGaps longest elsewhere are embedded; `gap_count` and
// `gaps_embedded` in the timeline say how many of each.
constexpr size_t kMaxLongGaps = 2000;
Json Gaps(const TimelineResult& result, int64_t t0, int64_t raw_until, Json* timeline) {
  std::vector<int64_t> lengths;
  for (const DeviceTimeline& d : result.devices) {
    for (const Gap& g : d.gaps) {
      if (g.start_ns - t0 >= raw_until) lengths.push_back(g.length_ns);
    }
  }
  int64_t min_long = 0;  // gaps past raw_until at least this long are kept
  if (lengths.size() > kMaxLongGaps) {
    std::nth_element(lengths.begin(), lengths.begin() + (kMaxLongGaps - 1), lengths.end(),
                     std::greater<>());
    min_long = lengths[kMaxLongGaps - 1];
  }
  Json out = Json::array();
  size_t total = 0, kept = 0;
  for (const DeviceTimeline& d : result.devices) {
    Json starts = Json::array(), lens = Json::array();
    int64_t previous = 0;
    for (const Gap& g : d.gaps) {  // by start
      ++total;
      const int64_t start = g.start_ns - t0;
      if (start >= raw_until && g.length_ns < min_long) continue;
      starts.push_back(start - previous);
      lens.push_back(g.length_ns);
      previous = start;
      ++kept;
    }
    out.push_back({{"input", d.input},
                   {"device_index", d.device == kNoDevice ? -1 : static_cast<int64_t>(d.device)},
                   {"s", std::move(starts)},
                   {"l", std::move(lens)}});
  }
  (*timeline)["gap_count"] = total;
  (*timeline)["gaps_embedded"] = kept;
  return out;
}

}  // namespace

Json BuildReportModel(const ReportData& data, const LaneOptions& lane_options) {
  Json doc;
  doc["schema"] = "tensormorph.report/1";
  doc["inputs"] = DescribeInputs(data.traces);
  doc["summary"] = Summary(data);
  doc["kernels"] = Kernels(data);
  doc["ops"] = Ops(*data.ops);
  Json occupancy_rows = Json::array();
  for (const KernelOccupancyRow& r : data.occupancy->rows)
    occupancy_rows.push_back(OccupancyJson(r));
  Json occupancy_skipped = Json::array();
  for (const auto& [reason, s] : data.occupancy->skipped) {
    occupancy_skipped.push_back(
        {{"reason", SkipReasonText(reason)}, {"count", s.count}, {"total_ns", s.total_ns}});
  }
  doc["occupancy"] = {{"kernel_count", data.occupancy->kernel_count},
                      {"computed_count", data.occupancy->computed_count},
                      {"rows", std::move(occupancy_rows)},
                      {"skipped", std::move(occupancy_skipped)}};
  Json roofline_rows = Json::array();
  for (const RooflineRow& r : data.roofline->rows) roofline_rows.push_back(RooflineJson(r));
  Json roofline_skipped = Json::array();
  for (const RooflineSkip& s : data.roofline->skipped) {
    roofline_skipped.push_back({{"reason", s.reason}, {"count", s.count}});
  }
  doc["roofline"] = {{"kernel_count", data.roofline->kernel_count},
                     {"rows", std::move(roofline_rows)},
                     {"skipped", std::move(roofline_skipped)}};
  Json timeline = BuildTimelineLanes(data.traces, data.links, *data.occupancy, lane_options);
  timeline["min_gap_ns"] = data.timeline_options.min_gap_ns;
  timeline["gaps"] = Gaps(*data.timeline, timeline["t0_ns"].get<int64_t>(),
                          timeline["raw_until_ns"].get<int64_t>(), &timeline);
  doc["timeline"] = std::move(timeline);
  doc["diff"] = data.diff ? Diff(*data.diff) : Json(nullptr);
  return doc;
}

}  // namespace tensormorph
