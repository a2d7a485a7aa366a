// Builds the report's JSON document (report_model.h). Every result row is written by the
// serializer of the command that shows it (RooflineRowJson for `roofline --format json`, ...), so
// the page reads the documented field names. The kernels table joins the occupancy and roofline
// rows of the same kernel name and backend by index; nothing here recomputes an analysis. The
// Ranks section (`job`) is `collectives --format json`'s and `critical-path --format json`'s
// members, with each step's pieces summed as `critical-path`'s table sums them (SumPathPieces).
#include "report/html/report_model.h"

#include <algorithm>
#include <functional>
#include <map>
#include <utility>

#include "analysis/job/path_sums.h"
#include "report/collectives_report.h"
#include "report/compare_report.h"
#include "report/critical_path_report.h"
#include "report/diff_report.h"
#include "report/findings_report.h"
#include "report/html/memory_lanes.h"
#include "report/json_output.h"
#include "report/kernel_occupancy_report.h"
#include "report/kernels_report.h"
#include "report/memory_report.h"
#include "report/ops_report.h"
#include "report/roofline_report.h"
#include "report/timeline_report.h"

namespace tensormorph {
namespace {

using NameKey = std::pair<std::string, Backend>;

// One input's figures for the summary: its devices' spans and busy time summed, its kernels, and
// the gains of its findings (stragglers left out, as in findings' total).
struct InputFigures {
  int64_t span_ns = 0, busy_ns = 0, kernel_total_ns = 0, gain_ns = 0;
  uint64_t kernel_count = 0;
};

Json PerInputJson(const InputFigures& f, size_t input) {
  return {
      {"input", input},
      {"span_ns", f.span_ns},
      {"busy_ns", f.busy_ns},
      {"busy_percent", f.span_ns > 0 ? 100.0 * static_cast<double>(f.busy_ns) / f.span_ns : 0.0},
      {"kernel_count", f.kernel_count},
      {"kernel_total_ns", f.kernel_total_ns},
      {"findings_gain_ns", f.gain_ns}};
}

Json Summary(const ReportData& data) {
  Json devices = Json::array();
  std::vector<InputFigures> per_input(data.inputs.size());
  std::map<int64_t, bool> ranks;
  for (const DeviceTimeline& d : data.timeline->devices) {
    devices.push_back(DeviceTimelineJson(d, /*gap_rows=*/false));  // the gaps are in `timeline`
    InputFigures& f = per_input.at(static_cast<size_t>(d.input));
    f.span_ns += d.span_ns;
    f.busy_ns += d.busy_ns;
    if (d.rank) ranks[*d.rank] = true;
  }
  for (size_t i = 0; i < data.inputs.size(); ++i) {
    for (const Kernel& k : data.inputs[i]->trace().kernels) {
      ++per_input[i].kernel_count;
      per_input[i].kernel_total_ns += k.duration_ns;
    }
  }
  // What to fix first: `findings --format json`'s findings, ranked by gain.
  Json findings = Json::array();
  for (const Finding& f : data.findings->findings) {
    findings.push_back(FindingJson(f));
    if (f.rule != "stragglers") {
      per_input.at(static_cast<size_t>(f.where.input)).gain_ns += f.estimated_gain_ns;
    }
  }
  Json ranks_json = Json::array();
  for (const auto& [rank, unused] : ranks) ranks_json.push_back(rank);
  Json inputs = Json::array();
  InputFigures all;
  for (size_t i = 0; i < per_input.size(); ++i) {
    inputs.push_back(PerInputJson(per_input[i], i));
    all.span_ns += per_input[i].span_ns;
    all.busy_ns += per_input[i].busy_ns;
  }
  // Inputs that are not one job (two unrelated traces, a CUDA and a ROCm run) are not added up:
  // a span or a gain summed over them describes no run. The figures are per input then.
  const bool one_job = data.inputs.size() <= 1 || data.timeline->is_job;
  const auto summed = [&](auto value) { return one_job ? Json(value) : Json(nullptr); };
  return {{"devices", std::move(devices)},
          {"ranks", std::move(ranks_json)},
          {"one_job", one_job},
          {"per_input", std::move(inputs)},
          {"span_ns", summed(all.span_ns)},
          {"busy_ns", summed(all.busy_ns)},
          {"busy_percent",
           summed(all.span_ns > 0 ? 100.0 * static_cast<double>(all.busy_ns) / all.span_ns : 0.0)},
          {"kernel_count", summed(data.kernels->kernel_count)},
          {"kernel_total_ns", summed(data.kernels->total_ns)},
          {"findings", std::move(findings)},
          {"findings_total_gain_ns", summed(data.findings->total_gain_ns)}};
}

// Index of the row with the most time per (name, backend): the launch shape (occupancy) or the
// device (roofline) that stands for a kernel name in the kernels table.
template <typename Row>
std::map<NameKey, size_t> LargestByName(const std::vector<Row>& rows) {
  std::map<NameKey, size_t> largest;
  for (size_t i = 0; i < rows.size(); ++i) {
    auto [at, added] = largest.try_emplace({rows[i].name, rows[i].backend}, i);
    if (!added && rows[i].total_ns > rows[at->second].total_ns) at->second = i;
  }
  return largest;
}

Json IndexOrNull(const std::map<NameKey, size_t>& index, const KernelRow& r) {
  auto at = index.find({r.name, r.backend});
  return at != index.end() ? Json(at->second) : Json(nullptr);
}

Json Kernels(const ReportData& data) {
  const std::map<NameKey, size_t> occupancy = LargestByName(data.occupancy->rows);
  const std::map<NameKey, size_t> roofline = LargestByName(data.roofline->rows);
  Json rows = Json::array(), joined = Json::array();
  for (const KernelRow& r : data.kernels->rows) {
    rows.push_back(KernelRowJson(r, /*by_input=*/false));
    joined.push_back(
        {{"occupancy", IndexOrNull(occupancy, r)}, {"roofline", IndexOrNull(roofline, r)}});
  }
  return {{"kernel_count", data.kernels->kernel_count},
          {"total_ns", data.kernels->total_ns},
          {"rows", std::move(rows)},
          {"joined", std::move(joined)}};
}

// `predictions` (--predict) adds each row's predictions and the "predict" member, as in
// `ops --predict --format json`.
Json Ops(const OpSummary& ops, const OpPredictions* predictions) {
  Json rows = Json::array();
  for (size_t i = 0; i < ops.rows.size(); ++i) {
    rows.push_back(OpRowJson(ops.rows[i], OpQuery{}, predictions, i));
  }
  return {{"ops", ops.ops},
          {"kernels", ops.kernels},
          {"attributed_kernels", ops.attributed_kernels},
          {"host_only", ops.host_only},
          {"predict", predictions ? OpPredictTargetsJson(*predictions) : Json(nullptr)},
          {"rows", std::move(rows)}};
}

Json Diff(const ReportDiff& diff) {
  Json rows = Json::array();
  for (const DiffRow& r : diff.result.rows) rows.push_back(DiffRowJson(r, diff.result));
  return {{"base", diff.base_path},
          {"base_is_baseline", diff.base_is_baseline},
          {"threshold_percent", diff.options.threshold_percent},
          {"verdict", diff.result.regressed ? "fail" : "pass"},
          {"counts", DiffCountsJson(diff.result.counts)},
          {"rows", std::move(rows)}};
}

// Idle gaps for the timeline, per device: start deltas (from t0, ns), lengths and causes (`c`:
// indices into the timeline's `gap_causes`, GapCauseName's names). A million-kernel
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
    Json starts = Json::array(), lens = Json::array(), causes = Json::array();
    int64_t previous = 0;
    for (const Gap& g : d.gaps) {  // by start
      ++total;
      const int64_t start = g.start_ns - t0;
      if (start >= raw_until && g.length_ns < min_long) continue;
      starts.push_back(start - previous);
      lens.push_back(g.length_ns);
      causes.push_back(static_cast<int>(g.cause));
      previous = start;
      ++kept;
    }
    out.push_back({{"input", d.input},
                   {"device_index", d.device == kNoDevice ? -1 : static_cast<int64_t>(d.device)},
                   {"s", std::move(starts)},
                   {"l", std::move(lens)},
                   {"c", std::move(causes)}});
  }
  Json cause_names = Json::array();
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    cause_names.push_back(GapCauseName(static_cast<GapCause>(c)));
  }
  (*timeline)["gap_causes"] = std::move(cause_names);
  (*timeline)["gap_count"] = total;
  (*timeline)["gaps_embedded"] = kept;
  return out;
}

// The ProfilerStep#N steps of each input (FindSteps: host annotations), as the timeline's step
// boundaries: {input, number, s, e} with s and e relative to t0 (ns). Several inputs keep their
// own clocks, as their lanes do.
Json Steps(const std::vector<const LinkedTrace*>& inputs, int64_t t0) {
  Json out = Json::array();
  for (size_t i = 0; i < inputs.size(); ++i) {
    for (const Step& s : inputs[i]->steps()) {
      out.push_back(
          {{"input", i}, {"number", s.number}, {"s", s.start_ns - t0}, {"e", s.end_ns - t0}});
    }
  }
  return out;
}

// One rank of the Ranks section: its row of `collectives --format json`'s "ranks" (input, rank,
// clock) with the keys of its "per_rank" row (waits, late cause), and its step figures and
// straggler mark as `timeline --format json`'s ranks rows write them.
Json RankRow(Json row, const Json& per_rank, const TimelineResult& timeline) {
  for (const Json& waits : per_rank) {
    if (waits["rank"] != row["rank"]) continue;
    for (auto it = waits.begin(); it != waits.end(); ++it) row[it.key()] = it.value();
  }
  const RankSteps* steps = nullptr;
  for (const RankSteps& r : timeline.ranks) {
    if (r.rank && Json(*r.rank) == row["rank"]) steps = &r;
  }
  row["step_count"] = steps ? steps->step_count : 0;
  row["median_step_ns"] = steps ? OrNull(steps->median_step_ns) : Json(nullptr);
  row["straggler"] = steps != nullptr && steps->straggler;
  row["wait_caused_percent"] = steps ? OrNull(steps->wait_caused_percent) : Json(nullptr);
  return row;
}

// A step of `critical-path --format json` without its path: the piece count, and the first
// kTopPieces of the pieces summed by (rank, kind, name) with how many such sums there are.
constexpr size_t kTopPieces = 10;
// The path itself, for the timeline to draw across the rank lanes: {input, rank, category, name,
// s, e} with s and e in the rank's own clock relative to the timeline's t0 (the path's times are
// aligned, rank time - offset, so the offset is added back), as the lanes are drawn. At most
// kMaxPathPieces pieces over all steps, whole steps first to last; `path_embedded` says whether
// a step's are.
constexpr size_t kMaxPathPieces = 20'000;
struct PathFrame {
  int64_t t0 = 0;
  std::map<int, int64_t> offset_by_input;
  size_t budget = kMaxPathPieces;
};
Json StepWithTopPieces(const std::vector<const Trace*>& traces, const CriticalPathStep& step,
                       PathFrame* frame) {
  const std::vector<PathPieceSum> sums = SumPathPieces(step);
  Json top = Json::array();
  for (size_t i = 0; i < sums.size() && i < kTopPieces; ++i) {
    const PathPieceSum& sum = sums[i];
    top.push_back({{"rank", OrNull(sum.rank)},
                   {"kind", PathKindName(sum.kind)},
                   {"category", PathCategoryName(sum.kind)},
                   {"name", sum.name},
                   {"time_ns", sum.time_ns},
                   {"pieces", sum.pieces}});
  }
  Json out = CriticalPathStepJson(traces, step);
  out["piece_count"] = step.path.size();
  out["path_embedded"] = step.path.size() <= frame->budget;
  if (step.path.size() <= frame->budget) {
    frame->budget -= step.path.size();
    Json path = Json::array();
    for (const PathPiece& p : step.path) {
      auto offset = frame->offset_by_input.find(p.input);
      const int64_t shift =
          (offset != frame->offset_by_input.end() ? offset->second : 0) - frame->t0;
      path.push_back({{"input", p.input},
                      {"rank", OrNull(p.rank)},
                      {"category", PathCategoryName(p.kind)},
                      {"name", p.name},
                      {"s", p.start_ns + shift},
                      {"e", p.end_ns + shift}});
    }
    out["path"] = std::move(path);
  }
  out["group_count"] = sums.size();
  out["top"] = std::move(top);
  return out;
}

// The collectives table: `collectives --format json`'s rows without their per-rank timings (a
// 256-rank job would repeat 256 of them per row), the kMaxCollectiveRows with the most skew when
// there are more, by index.
constexpr size_t kMaxCollectiveRows = 2000;
Json CollectiveRows(Json rows) {
  if (rows.size() > kMaxCollectiveRows) {
    std::vector<Json> all(std::make_move_iterator(rows.begin()),
                          std::make_move_iterator(rows.end()));
    std::stable_sort(all.begin(), all.end(), [](const Json& a, const Json& b) {
      return a["skew_ns"].get<int64_t>() > b["skew_ns"].get<int64_t>();
    });
    all.resize(kMaxCollectiveRows);
    std::stable_sort(all.begin(), all.end(), [](const Json& a, const Json& b) {
      return a["index"].get<int64_t>() < b["index"].get<int64_t>();
    });
    rows = Json(std::move(all));
  }
  for (Json& row : rows) row.erase("ranks");
  return rows;
}

// The Ranks section: the job (`collectives --format json`'s "job" members), a row per rank, the
// collectives by type and size, the critical path per step, and both analyses' warnings once each.
Json Job(const ReportData& data, int64_t t0) {
  const std::vector<const Trace*> traces = TracesOf(data.inputs);
  Json collectives = CollectivesJson(traces, *data.collectives);
  Json job = std::move(collectives["job"]);
  job["matched_by"] = std::move(collectives["matched_by"]);
  job["collective_count"] = data.collectives->collectives.size();
  job["straggler_threshold_percent"] = data.timeline_options.straggler_threshold_percent;
  job["straggler_basis_ns"] = OrNull(data.timeline->straggler_basis_ns);
  const Json& per_rank = collectives["per_rank"];
  Json ranks = Json::array();
  for (Json& row : collectives["ranks"]) {
    ranks.push_back(RankRow(std::move(row), per_rank, *data.timeline));
  }
  job["ranks"] = std::move(ranks);
  job["by_type"] = std::move(collectives["by_type"]);
  job["collectives"] = CollectiveRows(std::move(collectives["collectives"]));
  Json steps = Json::array();
  PathFrame frame;
  frame.t0 = t0;
  for (const RankClock& c : data.critical_path->clocks)
    frame.offset_by_input[c.input] = c.offset_ns;
  for (const CriticalPathStep& s : data.critical_path->steps) {
    steps.push_back(StepWithTopPieces(traces, s, &frame));
  }
  job["critical_path"] = std::move(steps);
  Json warnings = std::move(collectives["warnings"]);
  for (const std::string& w : data.critical_path->warnings) {
    if (std::find(warnings.begin(), warnings.end(), Json(w)) == warnings.end()) {
      warnings.push_back(w);
    }
  }
  job["warnings"] = std::move(warnings);
  return job;
}

}  // namespace

Json BuildReportModel(const ReportData& data, Json timeline_lanes) {
  Json doc;
  doc["schema"] = "tensormorph.report/1";
  doc["inputs"] = DescribeInputs(TracesOf(data.inputs));
  doc["summary"] = Summary(data);
  doc["kernels"] = Kernels(data);
  doc["ops"] = Ops(*data.ops, data.op_predictions);
  Json occupancy_rows = Json::array();
  for (const KernelOccupancyRow& r : data.occupancy->rows)
    occupancy_rows.push_back(KernelOccupancyRowJson(r));
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
  for (const RooflineRow& r : data.roofline->rows) roofline_rows.push_back(RooflineRowJson(r));
  doc["roofline"] = {{"kernel_count", data.roofline->kernel_count},
                     {"rows", std::move(roofline_rows)},
                     {"skipped", RooflineSkippedJson(data.roofline->skipped)}};
  Json timeline = std::move(timeline_lanes);
  timeline["min_gap_ns"] = data.timeline_options.min_gap_ns;
  timeline["gaps"] = Gaps(*data.timeline, timeline["t0_ns"].get<int64_t>(),
                          timeline["raw_until_ns"].get<int64_t>(), &timeline);
  timeline["steps"] = Steps(data.inputs, timeline["t0_ns"].get<int64_t>());
  doc["timeline"] = std::move(timeline);
  doc["diff"] = data.diff ? Diff(*data.diff) : Json(nullptr);
  // The document of `tensormorph compare --format json`, as it is.
  doc["compare"] = data.compare ? CompareJson(TracesOf(data.inputs), *data.compare) : Json(nullptr);
  // The document of `tensormorph memory --format json`, with each device's series for its lane.
  if (data.memory) {
    doc["memory"] = MemoryDocument(TracesOf(data.inputs), *data.memory);
    doc["memory"]["lanes"] = MemoryLanes(*data.memory, doc["timeline"]["t0_ns"].get<int64_t>());
  } else {
    doc["memory"] = nullptr;
  }
  doc["job"] = data.collectives && data.critical_path
                   ? Job(data, doc["timeline"]["t0_ns"].get<int64_t>())
                   : Json(nullptr);
  return doc;
}

}  // namespace tensormorph
