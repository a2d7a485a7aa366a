#include "report/timeline_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <tuple>

#include "analysis/timeline/gaps.h"
#include "model/time.h"
#include "report/columns.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"
#include "tensormorph/model/copy_kinds.h"

namespace tensormorph {
namespace {

constexpr size_t kNameWidth = 60;

double Percent(int64_t part, int64_t whole) {
  return whole > 0 ? 100.0 * part / whole : 0.0;
}

std::string Cut(const std::string& name) {
  return TruncateToWidth(name, kNameWidth);
}

// {"count", "total_ns", "by_cause"}; DeviceTimelineJson adds the "rows".
Json CausesJson(const std::array<CauseTotal, kGapCauseCount>& causes);

Json GapsJson(const DeviceTimeline& d) {
  return {{"count", d.gaps.size()},
          {"total_ns", d.gap_total_ns},
          {"by_cause", CausesJson(d.gap_causes)}};
}

Json CausesJson(const std::array<CauseTotal, kGapCauseCount>& causes) {
  Json by_cause = Json::object();
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    by_cause[GapCauseName(static_cast<GapCause>(c))] = {{"count", causes[c].count},
                                                        {"total_ns", causes[c].total_ns}};
  }
  return by_cause;
}

Json StreamsJson(const DeviceTimeline& d) {
  Json streams = Json::array();
  for (const StreamBusy& s : d.streams) {
    const QueueLength& q = s.queue;
    streams.push_back({{"stream", s.stream},
                       {"busy_ns", s.busy_ns},
                       {"work_count", s.work_count},
                       {"start_ns", s.start_ns},
                       {"end_ns", s.end_ns},
                       {"idle_ns", s.idle_ns},
                       {"idle_by_cause", CausesJson(s.idle_causes)},
                       {"queue_length",
                        {{"launches", q.launches},
                         {"mean", q.mean},
                         {"time_mean", q.time_mean},
                         {"max", q.max},
                         {"time_at_limit_ns", q.time_at_limit_ns}}}});
  }
  return streams;
}

Json CopiesJson(const DeviceTimeline& d) {
  Json copies = Json::array();
  for (const CopyBandwidth& c : d.copies) {
    copies.push_back({{"kind", c.kind == TransferKind::kMemset ? "memset" : "memcpy"},
                      {"direction", CopyDirectionName(c.direction)},
                      {"src_memory", MemoryKindName(c.src_memory)},
                      {"dst_memory", MemoryKindName(c.dst_memory)},
                      {"count", c.count},
                      {"bytes", c.bytes},
                      {"duration_ns", c.duration_ns},
                      {"bytes_per_s", OrNull(c.bytes_per_s)},
                      {"peak_bytes_per_s", OrNull(c.peak_bytes_per_s)},
                      {"percent_of_peak", OrNull(c.percent_of_peak)},
                      {"peak_source", OrNull(c.peak_source)},
                      {"no_peak_reason", OrNull(c.no_peak_reason)}});
  }
  return copies;
}

// The stream with the longest time at the queue limit, else the longest queue (for CSV).
const StreamBusy* FullestQueue(const DeviceTimeline& d) {
  const StreamBusy* fullest = nullptr;
  for (const StreamBusy& s : d.streams) {
    if (fullest == nullptr || std::tie(s.queue.time_at_limit_ns, s.queue.max) >
                                  std::tie(fullest->queue.time_at_limit_ns, fullest->queue.max)) {
      fullest = &s;
    }
  }
  return fullest;
}

Json ConcurrencyJson(const DeviceTimeline& d) {
  Json concurrency = Json::array();
  for (size_t k = 0; k < d.concurrency_ns.size(); ++k) {
    concurrency.push_back({{"kernels", k}, {"time_ns", d.concurrency_ns[k]}});
  }
  return concurrency;
}

Json TemporalJson(const DeviceTimeline& d) {
  const TemporalBreakdown& t = d.temporal;
  return {{"kernel_time_ns", t.kernel_time_ns},
          {"idle_ns", t.idle_ns},
          {"compute_ns", t.compute_ns},
          {"non_compute_ns", t.non_compute_ns},
          {"idle_percent", Percent(t.idle_ns, t.kernel_time_ns)},
          {"compute_percent", Percent(t.compute_ns, t.kernel_time_ns)},
          {"non_compute_percent", Percent(t.non_compute_ns, t.kernel_time_ns)}};
}

Json LaunchJson(const DeviceTimeline& d) {
  Json top = Json::array();
  for (const NameCount& n : d.launch.launch_bound) {
    top.push_back({{"name", n.name}, {"count", n.count}, {"total_ns", n.total_ns}});
  }
  const LaunchLatency& l = d.launch;
  auto percentiles = [](const LatencyPercentiles& p) {
    return Json{
        {"p50_ns", p.p50_ns}, {"p90_ns", p.p90_ns}, {"p99_ns", p.p99_ns}, {"max_ns", p.max_ns}};
  };
  Json graphs = Json::array();
  for (const GraphLaunch& g : l.graph_launches) {
    graphs.push_back({{"call_start_ns", g.call_start_ns},
                      {"call_ns", g.call_ns},
                      {"kernels", g.kernels},
                      {"kernel_ns", g.kernel_ns},
                      {"first_kernel_start_ns", g.first_start_ns},
                      {"span_ns", g.span_ns}});
  }
  return {{"count", l.count},
          {"p50_ns", l.p50_ns},
          {"p90_ns", l.p90_ns},
          {"p99_ns", l.p99_ns},
          {"max_ns", l.max_ns},
          {"overhead", percentiles(l.overhead)},
          {"queue", percentiles(l.queue)},
          {"launch_bound",
           {{"count", l.launch_bound_count},
            {"total_ns", l.launch_bound_ns},
            {"call_ns", l.launch_bound_call_ns},
            {"top", std::move(top)}}},
          {"graph_kernels", l.graph_kernels},
          {"graph_call", percentiles(l.graph_call)},
          {"graph_span", percentiles(l.graph_span)},
          {"graph_launches", std::move(graphs)}};
}

Json StepsJson(const DeviceTimeline& d) {
  Json steps = Json::array();
  for (const StepTimeline& s : d.steps) {
    steps.push_back({{"step", s.number},
                     {"host_ns", s.host_ns},
                     {"work_count", s.work_count},
                     {"device_busy_ns", s.device_busy_ns},
                     {"device_start_ns", s.device_start_ns},
                     {"device_end_ns", s.device_end_ns},
                     {"device_span_ns", s.device_end_ns - s.device_start_ns}});
  }
  return steps;
}

using D = DeviceTimeline;

std::string Int(int64_t v) {
  return std::to_string(v);
}

// The fields of a device (docs/timeline.md), in the order JSON and CSV write them:
// JSON nests the streams, gaps, launch latency and steps; CSV has one row per device with the
// gap and launch figures flattened into columns.
const Column<D> kColumns[] = {
    {"input", [](const D& d) { return Json(d.input); }, [](const D& d) { return Int(d.input); }},
    {"rank", [](const D& d) { return OrNull(d.rank); },
     [](const D& d) { return d.rank ? std::to_string(*d.rank) : ""; }},
    {"label", [](const D& d) { return Json(d.label); }, [](const D& d) { return d.label; },
     "device"},
    {"start_ns", [](const D& d) { return Json(d.start_ns); },
     [](const D& d) { return Int(d.start_ns); }},
    {"end_ns", [](const D& d) { return Json(d.end_ns); }, [](const D& d) { return Int(d.end_ns); }},
    {"span_ns", [](const D& d) { return Json(d.span_ns); },
     [](const D& d) { return Int(d.span_ns); }},
    {"busy_ns", [](const D& d) { return Json(d.busy_ns); },
     [](const D& d) { return Int(d.busy_ns); }},
    {"idle_ns", [](const D& d) { return Json(d.span_ns - d.busy_ns); }},
    {"utilization_percent", [](const D& d) { return Json(d.utilization_percent); },
     [](const D& d) { return fmt::format("{:.4f}", d.utilization_percent); }},
    {"kernel_count", [](const D& d) { return Json(d.kernel_count); }},
    {"memcpy_count", [](const D& d) { return Json(d.memcpy_count); }},
    {"memset_count", [](const D& d) { return Json(d.memset_count); }},
    {"kernel_ns", [](const D& d) { return Json(d.kernel_ns); },
     [](const D& d) { return Int(d.kernel_ns); }},
    {"memcpy_ns", [](const D& d) { return Json(d.memcpy_ns); },
     [](const D& d) { return Int(d.memcpy_ns); }},
    {"memset_ns", [](const D& d) { return Json(d.memset_ns); },
     [](const D& d) { return Int(d.memset_ns); }},
    {"streams", StreamsJson},
    {"queue_max", nullptr,
     [](const D& d) { return d.streams.empty() ? "" : Int(FullestQueue(d)->queue.max); }},
    {"queue_time_at_limit_ns", nullptr,
     [](const D& d) {
       return d.streams.empty() ? "" : Int(FullestQueue(d)->queue.time_at_limit_ns);
     }},
    {"copies", CopiesJson},
    {"concurrency", ConcurrencyJson},
    {"communication_ns", [](const D& d) { return Json(d.communication_ns); },
     [](const D& d) { return Int(d.communication_ns); }},
    {"computation_ns", [](const D& d) { return Json(d.computation_ns); },
     [](const D& d) { return Int(d.computation_ns); }},
    {"memory_ns", [](const D& d) { return Json(d.memory_ns); }},
    {"comm_comp_overlap_ns", [](const D& d) { return Json(d.comm_comp_overlap_ns); },
     [](const D& d) { return Int(d.comm_comp_overlap_ns); }},
    {"comm_comp_overlap_percent", [](const D& d) { return OrNull(d.comm_comp_overlap_percent); }},
    {"temporal_breakdown", TemporalJson},
    {"gaps", GapsJson},
    {"gap_count", nullptr, [](const D& d) { return std::to_string(d.gaps.size()); }},
    {"gap_total_ns", nullptr, [](const D& d) { return Int(d.gap_total_ns); }},
    {"launch_latency", LaunchJson},
    {"launch_count", nullptr, [](const D& d) { return std::to_string(d.launch.count); }},
    {"launch_p50_ns", nullptr, [](const D& d) { return Int(d.launch.p50_ns); }},
    {"launch_p90_ns", nullptr, [](const D& d) { return Int(d.launch.p90_ns); }},
    {"launch_p99_ns", nullptr, [](const D& d) { return Int(d.launch.p99_ns); }},
    {"launch_max_ns", nullptr, [](const D& d) { return Int(d.launch.max_ns); }},
    {"launch_overhead_p50_ns", nullptr, [](const D& d) { return Int(d.launch.overhead.p50_ns); }},
    {"launch_queue_p50_ns", nullptr, [](const D& d) { return Int(d.launch.queue.p50_ns); }},
    {"graph_launches", nullptr,
     [](const D& d) { return std::to_string(d.launch.graph_launches.size()); }},
    {"graph_kernels", nullptr, [](const D& d) { return std::to_string(d.launch.graph_kernels); }},
    {"launch_bound_count", nullptr,
     [](const D& d) { return std::to_string(d.launch.launch_bound_count); }},
    {"steps", StepsJson},
};

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces,
                const TimelineOptions& analysis, const TimelineResult& result) {
  // Gap rows can be hundreds of thousands (a 1 GB trace has 133,327): they are written one at a
  // time, never held as one Json.
  Json devices = Json::array();
  std::vector<StreamedArray> gap_rows;
  for (const DeviceTimeline& d : result.devices) {
    Json device = DeviceTimelineJson(d, false);
    device["gaps"]["rows"] = StreamedArrayPlaceholder(gap_rows.size());
    gap_rows.push_back(
        {d.gaps.size(), [&d](size_t i) { return GapJson(d.gaps[i]); }, analysis.concurrent});
    devices.push_back(std::move(device));
  }
  Json ranks = nullptr;
  if (!result.ranks.empty()) {
    Json rows = Json::array();
    for (const RankSteps& r : result.ranks) {
      rows.push_back({{"input", r.input},
                      {"rank", OrNull(r.rank)},
                      {"step_count", r.step_count},
                      {"median_step_ns", OrNull(r.median_step_ns)},
                      {"wait_suffered_ns", r.wait_suffered_ns},
                      {"wait_caused_ns", r.wait_caused_ns},
                      {"profiled_ns", r.profiled_ns},
                      {"others_profiled_ns", r.others_profiled_ns},
                      {"wait_caused_percent", OrNull(r.wait_caused_percent)},
                      {"times_last", r.times_last},
                      {"late_cause", r.late_cause.empty() ? Json(nullptr) : Json(r.late_cause)},
                      {"straggler", r.straggler}});
    }
    ranks = {{"is_job", result.is_job},
             {"complete_job", result.complete_job},
             {"verdict", result.job_verdict},
             {"median_step_ns", OrNull(result.median_rank_step_ns)},
             {"straggler_threshold_percent", analysis.straggler_threshold_percent},
             {"straggler_basis_ns", OrNull(result.straggler_basis_ns)},
             {"rows", std::move(rows)}};
  }
  Json doc = {{"schema", "tensormorph.timeline/1"},
              {"inputs", DescribeInputs(traces)},
              {"gap_threshold_ns", analysis.min_gap_ns},
              {"devices", std::move(devices)},
              {"ranks", std::move(ranks)}};
  if (result.devices.empty()) doc["note"] = ExplainNoDeviceWork(traces);
  WriteJson(out, doc, gap_rows);
}

void RenderCsv(std::ostream& out, const TimelineResult& result, bool gaps_only) {
  if (gaps_only) {
    WriteCsvRow(out,
                {"input", "device", "start_ns", "end_ns", "length_ns", "cause", "before", "after"});
    for (const DeviceTimeline& d : result.devices) {
      for (const Gap& g : d.gaps) {
        WriteCsvRow(out, {std::to_string(d.input), d.label, std::to_string(g.start_ns),
                          std::to_string(g.start_ns + g.length_ns), std::to_string(g.length_ns),
                          GapCauseName(g.cause), std::string(g.before), std::string(g.after)});
      }
    }
    return;
  }
  std::vector<std::string> header;
  AddCsvHeader<D>(kColumns, &header);
  WriteCsvRow(out, header);
  for (const DeviceTimeline& d : result.devices) {
    std::vector<std::string> cells;
    AddCsvCells<D>(kColumns, d, &cells);
    WriteCsvRow(out, cells);
  }
}

void PrintGapTable(std::ostream& out, const DeviceTimeline& d, size_t limit) {
  std::vector<const Gap*> shown;
  for (const Gap& g : d.gaps) shown.push_back(&g);
  std::stable_sort(shown.begin(), shown.end(),
                   [](const Gap* a, const Gap* b) { return a->length_ns > b->length_ns; });
  if (limit > 0 && shown.size() > limit) shown.resize(limit);
  TextTable table;
  using A = TextTable::Align;
  table.AddColumn("At", A::kRight);
  table.AddColumn("Length", A::kRight);
  table.AddColumn("Cause", A::kLeft);
  table.AddColumn("Before", A::kLeft, kNameWidth);
  table.AddColumn("After", A::kLeft, kNameWidth);
  for (const Gap* g : shown) {
    table.AddRow({fmt::format("+{}", FormatDuration(static_cast<double>(g->start_ns - d.start_ns))),
                  FormatDuration(static_cast<double>(g->length_ns)), GapCauseName(g->cause),
                  std::string(g->before), std::string(g->after)});
  }
  std::ostringstream text;
  table.Print(text);
  std::string line;
  std::istringstream lines(text.str());
  while (std::getline(lines, line)) out << "    " << line << '\n';
  if (shown.size() < d.gaps.size()) {
    out << fmt::format("    (the {} longest of {} gaps; --gaps lists all)\n", shown.size(),
                       d.gaps.size());
  }
}

void PrintDevice(std::ostream& out, const DeviceTimeline& d, const TimelineOptions& analysis,
                 const TimelineRenderOptions& render) {
  auto dur = [](int64_t ns) { return FormatDuration(static_cast<double>(ns)); };
  out << fmt::format("{} (input {})\n", d.label, d.input);
  out << fmt::format("  span          {}\n", dur(d.span_ns));
  out << fmt::format("  busy          {}  ({:.1f} % utilization; idle {})\n", dur(d.busy_ns),
                     d.utilization_percent, dur(d.span_ns - d.busy_ns));
  out << fmt::format("  work          kernels {} ({}), memcpy {} ({}), memset {} ({})\n",
                     d.kernel_count, dur(d.kernel_ns), d.memcpy_count, dur(d.memcpy_ns),
                     d.memset_count, dur(d.memset_ns));
  std::string streams;
  for (const StreamBusy& s : d.streams) {
    streams += fmt::format("{}{}: {}", streams.empty() ? "" : ", ", s.stream, dur(s.busy_ns));
  }
  out << fmt::format("  streams       {}\n", streams);
  for (const StreamBusy& s : d.streams) {
    if (s.queue.launches == 0 && s.idle_ns == 0) continue;
    std::string idle;
    for (size_t c = 0; c < kGapCauseCount; ++c) {
      if (s.idle_causes[c].count == 0) continue;
      idle += fmt::format("{}{} {}", idle.empty() ? "" : ", ",
                          GapCauseName(static_cast<GapCause>(c)), dur(s.idle_causes[c].total_ns));
    }
    out << fmt::format("    stream {:<6} idle {}{}", s.stream, dur(s.idle_ns),
                       idle.empty() ? std::string() : fmt::format(" ({})", idle));
    if (s.queue.launches > 0) {
      out << fmt::format("; queue mean {:.1f}, max {}", s.queue.time_mean, s.queue.max);
      if (s.queue.time_at_limit_ns > 0) {
        out << fmt::format(", {} at the limit of {}", dur(s.queue.time_at_limit_ns),
                           analysis.queue_limit);
      }
    }
    out << '\n';
  }
  for (const CopyBandwidth& c : d.copies) {
    const std::string what =
        c.kind == TransferKind::kMemset
            ? std::string("memset")
            : fmt::format("memcpy {} ({} -> {})", CopyDirectionName(c.direction),
                          MemoryKindName(c.src_memory), MemoryKindName(c.dst_memory));
    out << fmt::format("  copies        {}: {} x, {:.3f} MB, {}", what, c.count,
                       static_cast<double>(c.bytes) / 1e6, dur(c.duration_ns));
    if (c.bytes_per_s) out << fmt::format(", {:.2f} GB/s", *c.bytes_per_s / 1e9);
    if (c.percent_of_peak) {
      out << fmt::format(" ({:.1f} % of {:.1f} GB/s)", *c.percent_of_peak,
                         *c.peak_bytes_per_s / 1e9);
    }
    out << '\n';
  }
  std::string concurrency;
  for (size_t k = 0; k < d.concurrency_ns.size(); ++k) {
    concurrency += fmt::format("{}{}: {:.1f} %", k == 0 ? "" : ", ", k,
                               Percent(d.concurrency_ns[k], d.span_ns));
  }
  out << fmt::format("  concurrency   {}  (share of the span with N kernels running)\n",
                     concurrency);
  out << fmt::format("  classes       computation {}, communication {}, memory {}",
                     dur(d.computation_ns), dur(d.communication_ns), dur(d.memory_ns));
  if (d.comm_comp_overlap_percent) {
    out << fmt::format("; overlap {} ({:.1f} % of communication)", dur(d.comm_comp_overlap_ns),
                       *d.comm_comp_overlap_percent);
  }
  out << '\n';
  const TemporalBreakdown& t = d.temporal;
  out << fmt::format("  HTA breakdown idle {:.1f} %, compute {:.1f} %, non-compute {:.1f} %\n",
                     Percent(t.idle_ns, t.kernel_time_ns), Percent(t.compute_ns, t.kernel_time_ns),
                     Percent(t.non_compute_ns, t.kernel_time_ns));
  const LaunchLatency& l = d.launch;
  if (l.count > 0) {
    out << fmt::format(
        "  launch        {} kernels by their own call: start - call start p50 {}, p90 {}, p99 {}, "
        "max {}; call p50 {}, p99 {}; queue (start - call end) p50 {}, p99 {}\n",
        l.count, dur(l.p50_ns), dur(l.p90_ns), dur(l.p99_ns), dur(l.max_ns), dur(l.overhead.p50_ns),
        dur(l.overhead.p99_ns), dur(l.queue.p50_ns), dur(l.queue.p99_ns));
    out << fmt::format("  launch-bound  {} kernels ({}) ran shorter than their launch call",
                       l.launch_bound_count, dur(l.launch_bound_ns));
    if (!l.launch_bound.empty()) {
      out << fmt::format("; most: {} x{}", Cut(l.launch_bound.front().name),
                         l.launch_bound.front().count);
    }
    out << '\n';
  } else if (l.graph_launches.empty()) {
    out << "  launch        no kernel with a launch call in the trace\n";
  }
  if (!l.graph_launches.empty()) {
    out << fmt::format(
        "  graphs        {} graph launches of {} kernels (not counted above): call p50 {}; span "
        "of a replay's kernels p50 {}, max {}\n",
        l.graph_launches.size(), l.graph_kernels, dur(l.graph_call.p50_ns),
        dur(l.graph_span.p50_ns), dur(l.graph_span.max_ns));
  }
  std::string causes;
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    if (d.gap_causes[c].count == 0) continue;
    causes += fmt::format("{}{} {} ({})", causes.empty() ? "" : ", ",
                          GapCauseName(static_cast<GapCause>(c)), d.gap_causes[c].count,
                          dur(d.gap_causes[c].total_ns));
  }
  out << fmt::format("  gaps > {}  {}, {}{}\n", dur(analysis.min_gap_ns), d.gaps.size(),
                     dur(d.gap_total_ns),
                     causes.empty() ? std::string() : fmt::format(": {}", causes));
  if (!d.gaps.empty()) PrintGapTable(out, d, render.gaps_only ? 0 : render.table_gaps);
  if (!d.steps.empty()) {
    TextTable table;
    using A = TextTable::Align;
    for (const char* h : {"Step", "Host", "Device busy", "Device span", "Work"}) {
      table.AddColumn(h, A::kRight);
    }
    for (const StepTimeline& s : d.steps) {
      table.AddRow({std::to_string(s.number), dur(s.host_ns), dur(s.device_busy_ns),
                    dur(s.device_end_ns - s.device_start_ns), std::to_string(s.work_count)});
    }
    std::ostringstream text;
    table.Print(text);
    std::string line;
    std::istringstream lines(text.str());
    out << "  steps\n";
    while (std::getline(lines, line)) out << "    " << line << '\n';
  }
}

// The ranks of a job with the waits they caused, or the inputs that are not one job.
void PrintRanks(std::ostream& out, const TimelineResult& result, const TimelineOptions& analysis) {
  const auto duration = [](std::optional<int64_t> ns) {
    return ns ? FormatDuration(static_cast<double>(*ns)) : std::string("-");
  };
  out << fmt::format("\n{}: {}\n", result.is_job ? "ranks" : "inputs", result.job_verdict);
  if (result.is_job) {
    out << fmt::format(
        "  straggler: a rank whose late arrival at collectives made the others wait more than "
        "{:g} % of {} ({})\n",
        analysis.straggler_threshold_percent,
        result.median_rank_step_ns ? "the median step" : "the median device span",
        duration(result.straggler_basis_ns));
  }
  for (const RankSteps& r : result.ranks) {
    std::string line = r.rank ? fmt::format("  rank {} (input {})", *r.rank, r.input)
                              : fmt::format("  input {}", r.input);
    line += fmt::format(": {} steps, median {}", r.step_count, duration(r.median_step_ns));
    if (result.is_job) {
      line += fmt::format(
          "; waited {}, caused {} (last at {}{})", duration(r.wait_suffered_ns),
          duration(r.wait_caused_ns), r.times_last,
          r.wait_caused_percent && r.wait_caused_ns > 0
              ? fmt::format("; {:.1f} % of the other ranks' profiled time", *r.wait_caused_percent)
              : "");
      if (!r.late_cause.empty()) line += fmt::format(", late for {}", r.late_cause);
    }
    out << line << (r.straggler ? "  STRAGGLER\n" : "\n");
  }
}

void RenderTable(std::ostream& out, const std::vector<const Trace*>& traces,
                 const TimelineOptions& analysis, const TimelineResult& result,
                 const TimelineRenderOptions& render) {
  if (result.devices.empty()) {
    out << ExplainNoDeviceWork(traces) << '\n';
    return;
  }
  for (size_t i = 0; i < result.devices.size(); ++i) {
    if (i > 0) out << '\n';
    PrintDevice(out, result.devices[i], analysis, render);
  }
  if (!result.ranks.empty()) PrintRanks(out, result, analysis);
  for (size_t i = 0; i < traces.size(); ++i) {
    out << fmt::format("{}input {}: {}\n", i == 0 ? "\n" : "", i, traces[i]->path);
  }
}

}  // namespace

Json GapJson(const Gap& g) {
  // Field by field rather than from an initializer list, which nlohmann copies through temporary
  // arrays: a timeline writes hundreds of thousands of these.
  Json row = Json::object();
  row["start_ns"] = g.start_ns;
  row["end_ns"] = g.start_ns + g.length_ns;
  row["length_ns"] = g.length_ns;
  row["before"] = g.before;
  row["after"] = g.after;
  row["cause"] = GapCauseName(g.cause);
  return row;
}

Json DeviceTimelineJson(const DeviceTimeline& device, bool gap_rows) {
  Json object = ColumnsJson<D>(kColumns, device);
  if (gap_rows) {
    Json rows = Json::array();
    for (const Gap& g : device.gaps) rows.push_back(GapJson(g));
    object["gaps"]["rows"] = std::move(rows);
  }
  return object;
}

std::string ExplainNoDeviceWork(const std::vector<const Trace*>& traces) {
  uint64_t ranges = 0, ops = 0;
  for (const Trace* t : traces) {
    ranges += t->counts.counter_ranges;
    ops += t->counts.ops;
  }
  if (ranges > 0) {
    return fmt::format(
        "no device work: the trace holds {} CUPTI profiler ranges only (counter collection "
        "replays kernels, so they are no timeline)",
        ranges);
  }
  if (ops > 0) return "no device work: this is a CPU-only trace (framework ops only)";
  return "no device work (kernels, memcpys or memsets) in this trace";
}

void RenderTimeline(std::ostream& out, const std::vector<const Trace*>& traces,
                    const TimelineOptions& analysis, const TimelineResult& result,
                    const TimelineRenderOptions& render) {
  RenderAs(
      render.format, [&] { RenderTable(out, traces, analysis, result, render); },
      [&] { RenderJson(out, traces, analysis, result); },
      [&] { RenderCsv(out, result, render.gaps_only); });
}

}  // namespace tensormorph
