#include "report/collectives_report.h"

#include <fmt/format.h>

#include "model/time.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

std::string Duration(int64_t ns) {
  return FormatDuration(static_cast<double>(ns));
}

std::string Rate(const std::optional<double>& bytes_per_s) {
  return bytes_per_s ? fmt::format("{:.2f}", *bytes_per_s / 1e9) : std::string("-");
}

std::string Bytes(const std::optional<int64_t>& bytes) {
  return bytes ? std::to_string(*bytes) : std::string("-");
}

}  // namespace

std::string InputPathOf(const std::vector<const Trace*>& traces, int input) {
  return input >= 0 && static_cast<size_t>(input) < traces.size() ? traces[input]->path : "";
}

Json JobJson(const JobLayout& job) {
  return {{"is_job", job.is_job},           {"forced", job.forced},
          {"complete", job.complete},       {"world_size", OrNull(job.world_size)},
          {"backend", OrNull(job.backend)}, {"verdict", job.verdict}};
}

Json RankClocksJson(const std::vector<const Trace*>& traces, const JobLayout& job,
                    const std::vector<RankClock>& clocks) {
  Json ranks = Json::array();
  for (const RankClock& c : clocks) {
    const JobRank* jr = nullptr;
    for (const JobRank& r : job.ranks) {
      if (r.rank == c.rank) jr = &r;
    }
    ranks.push_back({{"input", InputPathOf(traces, c.input)},
                     {"rank", c.rank},
                     {"pid", jr != nullptr ? OrNull(jr->pid) : Json(nullptr)},
                     {"clock_offset_ns", c.offset_ns},
                     {"offset_uncertainty_ns", OrNull(c.uncertainty_ns)},
                     {"offset_samples", c.samples}});
  }
  return ranks;
}

Json CollectivesJson(const std::vector<const Trace*>& traces, const CollectivesResult& result) {
  Json collectives = Json::array();
  for (const CollectiveInstance& c : result.collectives) {
    Json per_rank = Json::array();
    for (const CollectiveRankTiming& t : c.ranks) {
      per_rank.push_back({{"rank", t.rank},
                          {"start_ns", t.start_ns},
                          {"end_ns", t.end_ns},
                          {"wait_ns", t.wait_ns},
                          {"bytes", OrNull(t.bytes)}});
    }
    collectives.push_back({{"index", c.index},
                           {"name", c.name},
                           {"type", c.type},
                           {"process_group", OrNull(c.process_group)},
                           {"seq", OrNull(c.seq)},
                           {"bytes", OrNull(c.bytes)},
                           {"group_size", c.group_size},
                           {"ranks", std::move(per_rank)},
                           {"skew_ns", c.skew_ns},
                           {"transfer_ns", c.transfer_ns},
                           {"algo_bytes_per_s", OrNull(c.algo_bytes_per_s)},
                           {"bus_bytes_per_s", OrNull(c.bus_bytes_per_s)},
                           {"last_rank", c.last_rank}});
  }
  Json by_type = Json::array();
  for (const CollectiveTypeSummary& g : result.by_type) {
    by_type.push_back({{"type", g.type},
                       {"size_bucket", g.size_bucket},
                       {"count", g.count},
                       {"bytes", OrNull(g.bytes)},
                       {"skew_ns", g.skew_ns},
                       {"max_skew_ns", g.max_skew_ns},
                       {"wait_ns", g.wait_ns},
                       {"transfer_ns", g.transfer_ns},
                       {"algo_bytes_per_s", OrNull(g.algo_bytes_per_s)},
                       {"bus_bytes_per_s", OrNull(g.bus_bytes_per_s)}});
  }
  Json per_rank = Json::array();
  for (const RankWaits& w : result.per_rank) {
    per_rank.push_back({{"rank", w.rank},
                        {"input", InputPathOf(traces, w.input)},
                        {"wait_suffered_ns", w.wait_suffered_ns},
                        {"wait_caused_ns", w.wait_caused_ns},
                        {"times_last", w.times_last},
                        {"late_cause", OrNull(w.late.cause)},
                        {"late_computation_ns", w.late.computation_ns},
                        {"late_communication_ns", w.late.communication_ns},
                        {"late_idle_ns", w.late.idle_ns}});
  }
  Json warnings = Json::array();
  for (const std::string& w : result.warnings) warnings.push_back(w);
  return {{"schema", "tensormorph.collectives/1"},
          {"inputs", DescribeInputs(traces)},
          {"job", JobJson(result.job)},
          {"matched_by", OrNull(result.matched_by)},
          {"ranks", RankClocksJson(traces, result.job, result.clocks)},
          {"collectives", std::move(collectives)},
          {"by_type", std::move(by_type)},
          {"per_rank", std::move(per_rank)},
          {"warnings", std::move(warnings)}};
}

namespace {

void RenderCsv(std::ostream& out, const CollectivesResult& result) {
  WriteCsvRow(out, {"index", "name", "type", "process_group", "seq", "bytes", "skew_ns",
                    "transfer_ns", "algo_bytes_per_s", "bus_bytes_per_s", "last_rank", "rank",
                    "start_ns", "end_ns", "wait_ns"});
  for (const CollectiveInstance& c : result.collectives) {
    for (const CollectiveRankTiming& t : c.ranks) {
      WriteCsvRow(
          out,
          {std::to_string(c.index), c.name, c.type, c.process_group,
           c.seq ? std::to_string(*c.seq) : "", c.bytes ? std::to_string(*c.bytes) : "",
           std::to_string(c.skew_ns), std::to_string(c.transfer_ns), CsvNumber(c.algo_bytes_per_s),
           CsvNumber(c.bus_bytes_per_s), std::to_string(c.last_rank), std::to_string(t.rank),
           std::to_string(t.start_ns), std::to_string(t.end_ns), std::to_string(t.wait_ns)});
    }
  }
}

void RenderTable(std::ostream& out, const std::vector<const Trace*>& traces,
                 const CollectivesResult& result, size_t limit) {
  out << fmt::format("job: {}\n", result.job.verdict);
  if (!result.job.is_job) return;
  if (result.clocks.size() == 1) {
    out << fmt::format("{} collectives on this rank\n", result.collectives.size());
  } else {
    out << fmt::format("{} collectives matched on every rank (by {})\n", result.collectives.size(),
                       result.matched_by);
  }
  out << "\nranks (clock offset from the lowest rank, from the collectives' ends)\n";
  TextTable ranks;
  ranks.AddColumn("Rank", TextTable::Align::kRight);
  ranks.AddColumn("Offset", TextTable::Align::kRight);
  ranks.AddColumn("± (MAD)", TextTable::Align::kRight);
  ranks.AddColumn("Wait suffered", TextTable::Align::kRight);
  ranks.AddColumn("Wait caused", TextTable::Align::kRight);
  ranks.AddColumn("Last at", TextTable::Align::kRight);
  ranks.AddColumn("Late for", TextTable::Align::kLeft);
  ranks.AddColumn("Input", TextTable::Align::kLeft, 60);
  for (size_t r = 0; r < result.clocks.size(); ++r) {
    const RankClock& c = result.clocks[r];
    const RankWaits* w = r < result.per_rank.size() ? &result.per_rank[r] : nullptr;
    ranks.AddRow({std::to_string(c.rank), Duration(c.offset_ns),
                  c.uncertainty_ns ? Duration(*c.uncertainty_ns) : "-",
                  w ? Duration(w->wait_suffered_ns) : "-", w ? Duration(w->wait_caused_ns) : "-",
                  w ? std::to_string(w->times_last) : "-",
                  w && !w->late.cause.empty() ? w->late.cause : "-", InputPathOf(traces, c.input)});
  }
  ranks.Print(out);
  if (!result.by_type.empty()) {
    out << "\nby type and message size (bandwidth in GB/s: summed bytes / summed transfer)\n";
    TextTable types;
    for (const char* h : {"Type", "Size"}) types.AddColumn(h, TextTable::Align::kLeft);
    for (const char* h : {"Count", "Skew", "Max skew", "Wait", "Transfer", "Algo BW", "Bus BW"}) {
      types.AddColumn(h, TextTable::Align::kRight);
    }
    for (const CollectiveTypeSummary& g : result.by_type) {
      types.AddRow({g.type, g.size_bucket, std::to_string(g.count), Duration(g.skew_ns),
                    Duration(g.max_skew_ns), Duration(g.wait_ns), Duration(g.transfer_ns),
                    Rate(g.algo_bytes_per_s), Rate(g.bus_bytes_per_s)});
    }
    types.Print(out);
  }
  if (!result.collectives.empty()) {
    out << fmt::format("\ncollectives (the first {} of {}; --limit N for more)\n",
                       std::min(limit, result.collectives.size()), result.collectives.size());
    TextTable rows;
    rows.AddColumn("#", TextTable::Align::kRight);
    rows.AddColumn("Type", TextTable::Align::kLeft);
    for (const char* h : {"Bytes", "Skew", "Transfer", "Algo BW", "Bus BW", "Last"}) {
      rows.AddColumn(h, TextTable::Align::kRight);
    }
    rows.AddColumn("Kernel", TextTable::Align::kLeft, 50);
    for (size_t i = 0; i < result.collectives.size() && i < limit; ++i) {
      const CollectiveInstance& c = result.collectives[i];
      rows.AddRow({std::to_string(c.index), c.type, Bytes(c.bytes), Duration(c.skew_ns),
                   Duration(c.transfer_ns), Rate(c.algo_bytes_per_s), Rate(c.bus_bytes_per_s),
                   std::to_string(c.last_rank), c.name});
    }
    rows.Print(out);
  }
}

}  // namespace

void RenderCollectives(std::ostream& out, const std::vector<const Trace*>& traces,
                       const CollectivesResult& result, OutputFormat format, size_t limit) {
  switch (format) {
    case OutputFormat::kJson:
      WriteJson(out, CollectivesJson(traces, result));
      return;
    case OutputFormat::kCsv:
      RenderCsv(out, result);
      return;
    case OutputFormat::kTable:
      RenderTable(out, traces, result, limit);
      return;
  }
}

}  // namespace tensormorph
