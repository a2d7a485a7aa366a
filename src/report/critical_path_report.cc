#include "report/critical_path_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/job/path_sums.h"
#include "model/time.h"
#include "report/collectives_report.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

std::string Duration(int64_t ns) {
  return FormatDuration(static_cast<double>(ns));
}

std::string Percent(int64_t part, int64_t whole) {
  return whole > 0
             ? fmt::format("{:.1f}", 100.0 * static_cast<double>(part) / static_cast<double>(whole))
             : std::string("-");
}

std::string RankText(const std::optional<int64_t>& rank) {
  return rank ? std::to_string(*rank) : std::string("-");
}

std::string StepTitle(const CriticalPathStep& s) {
  std::string title = s.step ? fmt::format("ProfilerStep#{}", *s.step) : "the whole trace";
  if (s.input) title = fmt::format("input {} {}", *s.input, title);
  return title;
}

Json CompositionJson(const PathComposition& c) {
  return {{"compute_ns", c.compute_ns},
          {"comm_transfer_ns", c.comm_transfer_ns},
          {"comm_wait_ns", c.comm_wait_ns},
          {"host_ns", c.host_ns},
          {"idle_ns", c.idle_ns}};
}

void RenderCsv(std::ostream& out, const std::vector<const Trace*>& traces,
               const CriticalPathResult& result) {
  WriteCsvRow(out, {"step", "input", "rank", "kind", "category", "name", "start_ns", "end_ns",
                    "duration_ns"});
  for (const CriticalPathStep& s : result.steps) {
    for (const PathPiece& p : s.path) {
      WriteCsvRow(out, {s.step ? std::to_string(*s.step) : "", InputPathOf(traces, p.input),
                        p.rank ? std::to_string(*p.rank) : "", PathKindName(p.kind),
                        PathCategoryName(p.kind), p.name, std::to_string(p.start_ns),
                        std::to_string(p.end_ns), std::to_string(p.end_ns - p.start_ns)});
    }
  }
}

void PrintComposition(std::ostream& out, const CriticalPathStep& s) {
  const PathComposition& c = s.composition;
  TextTable table;
  table.AddColumn("  Composition", TextTable::Align::kLeft);
  table.AddColumn("Time", TextTable::Align::kRight);
  table.AddColumn("%", TextTable::Align::kRight);
  for (const auto& [name, ns] : std::vector<std::pair<const char*, int64_t>>{
           {"  compute", c.compute_ns},
           {"  communication transfer", c.comm_transfer_ns},
           {"  communication wait", c.comm_wait_ns},
           {"  host (CPU work, launches)", c.host_ns},
           {"  idle", c.idle_ns}}) {
    table.AddRow({name, Duration(ns), Percent(ns, s.length_ns())});
  }
  table.Print(out);
}

// The pieces summed by (rank, kind, name), the most time first (SumPathPieces).
void PrintTopPieces(std::ostream& out, const CriticalPathStep& s, size_t top) {
  const std::vector<PathPieceSum> rows = SumPathPieces(s);
  out << fmt::format("  on the path, by rank, kind and name (the top {} of {}):\n",
                     std::min(top, rows.size()), rows.size());
  TextTable table;
  table.AddColumn("  Rank", TextTable::Align::kRight);
  table.AddColumn("Kind", TextTable::Align::kLeft);
  table.AddColumn("Time", TextTable::Align::kRight);
  table.AddColumn("%", TextTable::Align::kRight);
  table.AddColumn("Pieces", TextTable::Align::kRight);
  table.AddColumn("Name", TextTable::Align::kLeft, 80);
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    const PathPieceSum& row = rows[i];
    table.AddRow({RankText(row.rank), PathKindName(row.kind), Duration(row.time_ns),
                  Percent(row.time_ns, s.length_ns()), std::to_string(row.pieces), row.name});
  }
  table.Print(out);
}

void PrintEveryPiece(std::ostream& out, const CriticalPathStep& s) {
  out << "  the path (start from the step's start):\n";
  TextTable table;
  table.AddColumn("  Start", TextTable::Align::kRight);
  table.AddColumn("Time", TextTable::Align::kRight);
  table.AddColumn("Rank", TextTable::Align::kRight);
  table.AddColumn("Kind", TextTable::Align::kLeft);
  table.AddColumn("Name", TextTable::Align::kLeft, 80);
  for (const PathPiece& p : s.path) {
    table.AddRow({Duration(p.start_ns - s.start_ns), Duration(p.end_ns - p.start_ns),
                  RankText(p.rank), PathKindName(p.kind), p.name});
  }
  table.Print(out);
}

void RenderTable(std::ostream& out, const std::vector<const Trace*>& traces,
                 const CriticalPathResult& result, const CriticalPathRenderOptions& render) {
  out << fmt::format("job: {}\n", result.job.verdict);
  if (result.steps.empty()) out << "no step to walk\n";
  for (const CriticalPathStep& s : result.steps) {
    std::string ranks;
    for (int64_t r : s.ranks) ranks += (ranks.empty() ? "" : ", ") + std::to_string(r);
    out << fmt::format("\n{}: {}", StepTitle(s), Duration(s.length_ns()));
    if (s.end_rank) {
      out << fmt::format(" (ended on rank {}; the path passes through rank{} {})", *s.end_rank,
                         s.ranks.size() == 1 ? "" : "s", ranks);
    }
    out << fmt::format(", {} pieces\n", s.path.size());
    PrintComposition(out, s);
    PrintTopPieces(out, s, render.top);
    if (render.every_piece) PrintEveryPiece(out, s);
  }
  for (size_t i = 0; i < traces.size(); ++i) {
    out << fmt::format("{}input {}: {}\n", i == 0 ? "\n" : "", i, traces[i]->path);
  }
}

}  // namespace

Json CriticalPathStepJson(const std::vector<const Trace*>& traces, const CriticalPathStep& s) {
  return {{"step", OrNull(s.step)},
          {"input", s.input ? Json(InputPathOf(traces, *s.input)) : Json(nullptr)},
          {"start_ns", s.start_ns},
          {"end_ns", s.end_ns},
          {"length_ns", s.length_ns()},
          {"end_rank", OrNull(s.end_rank)},
          {"ranks", s.ranks},
          {"composition", CompositionJson(s.composition)}};
}

Json CriticalPathJson(const std::vector<const Trace*>& traces, const CriticalPathResult& result) {
  Json steps = Json::array();
  for (const CriticalPathStep& s : result.steps) {
    Json path = Json::array();
    for (const PathPiece& p : s.path) {
      path.push_back({{"input", InputPathOf(traces, p.input)},
                      {"rank", OrNull(p.rank)},
                      {"kind", PathKindName(p.kind)},
                      {"category", PathCategoryName(p.kind)},
                      {"name", p.name},
                      {"start_ns", p.start_ns},
                      {"end_ns", p.end_ns}});
    }
    Json step = CriticalPathStepJson(traces, s);
    step["path"] = std::move(path);
    steps.push_back(std::move(step));
  }
  Json warnings = Json::array();
  for (const std::string& w : result.warnings) warnings.push_back(w);
  return {{"schema", "tensormorph.critical_path/1"},
          {"inputs", DescribeInputs(traces)},
          {"job", JobJson(result.job)},
          {"ranks", RankClocksJson(traces, result.job, result.clocks)},
          {"steps", std::move(steps)},
          {"warnings", std::move(warnings)}};
}

void RenderCriticalPath(std::ostream& out, const std::vector<const Trace*>& traces,
                        const CriticalPathResult& result, const CriticalPathRenderOptions& render) {
  switch (render.format) {
    case OutputFormat::kJson:
      WriteJson(out, CriticalPathJson(traces, result));
      return;
    case OutputFormat::kCsv:
      RenderCsv(out, traces, result);
      return;
    case OutputFormat::kTable:
      RenderTable(out, traces, result, render);
      return;
  }
}

}  // namespace tensormorph
