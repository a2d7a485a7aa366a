#include "report/diff_report.h"

#include <fmt/format.h>

#include <cstdlib>

#include "model/time.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

constexpr size_t kNameWidth = 90;

const char* KindOption(const DiffOptions& o) {
  return o.kernels && o.ops ? "all" : o.kernels ? "kernel" : "op";
}

std::string SignedDuration(int64_t ns) {
  if (ns == 0) return "0 ns";
  // fmt rather than "+" + string: GCC 12 warns about the latter (-Wrestrict, a false positive).
  return fmt::format("{}{}", ns > 0 ? '+' : '-',
                     FormatDuration(static_cast<double>(std::llabs(ns))));
}

std::string Percent(const std::optional<double>& p) {
  return p ? fmt::format("{:+.1f}", *p) : std::string("new");
}

std::string PValue(const Comparison& c) {
  return c.test ? fmt::format("{:.3g}", c.test->p_value) : std::string("-");
}

Json OptionalNumber(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

// The fields every comparison has, rows and totals alike.
void AddComparison(const Comparison& c, const DiffResult& result, Json* out) {
  Json& o = *out;
  o["delta_ns"] = c.delta_ns;
  o["delta_percent"] = OptionalNumber(c.delta_percent);
  if (result.basis == DiffBasis::kPerStepMean) {
    o["base_per_step_ns"] = c.base_value;
    o["new_per_step_ns"] = c.new_value;
  }
  o["status"] = DiffStatusName(c.status);
  o["decided_by"] = DecidedByName(c.decided_by);
  o["p_value"] = c.test ? Json(c.test->p_value) : Json(nullptr);
  o["test"] = c.test ? Json(MannWhitneyMethodName(c.test->method)) : Json(nullptr);
}

Json TotalJson(const Comparison& c, const DiffResult& result, const char* measure) {
  Json total = {{"measure", measure}, {"base_ns", c.base_total_ns}, {"new_ns", c.new_total_ns}};
  AddComparison(c, result, &total);
  return total;
}

Json SourceJson(const DiffSource& s, size_t steps) {
  return {{"path", s.path}, {"type", s.is_baseline ? "baseline" : "trace"}, {"steps", steps}};
}

void RenderJson(std::ostream& out, const DiffSource& base, const DiffSource& next,
                const DiffOptions& options, const DiffResult& result) {
  Json rows = Json::array();
  for (const DiffRow& r : result.rows) {
    const Comparison& c = r.comparison;
    Json row = {{"kind", ProfileRowKindName(r.kind)}, {"name", r.name},
                {"backend", BackendName(r.backend)},  {"base_count", r.base_count},
                {"new_count", r.new_count},           {"base_total_ns", c.base_total_ns},
                {"new_total_ns", c.new_total_ns}};
    AddComparison(c, result, &row);
    if (r.kind == ProfileRowKind::kOp) {
      row["base_device_ns"] = r.base_device_ns;
      row["new_device_ns"] = r.new_device_ns;
    }
    rows.push_back(std::move(row));
  }
  const DiffStatusCounts& n = result.counts;
  Json doc = {{"schema", "tensormorph.diff/1"},
              {"base", SourceJson(base, result.base_steps)},
              {"new", SourceJson(next, result.new_steps)},
              {"kind", KindOption(options)},
              {"threshold_percent", options.threshold_percent},
              {"alpha", options.alpha},
              {"basis", DiffBasisName(result.basis)},
              {"noise_test", result.noise_test},
              {"total", TotalJson(result.kernel_total, result, "kernel_time")}};
  if (options.ops) doc["op_total"] = TotalJson(result.op_total, result, "op_host_time");
  doc["counts"] = {{"regressed", n.regressed},
                   {"improved", n.improved},
                   {"unchanged", n.unchanged},
                   {"added", n.added},
                   {"removed", n.removed}};
  doc["row_count"] = result.row_count_before_top;
  doc["rows"] = std::move(rows);
  doc["verdict"] = result.regressed ? "fail" : "pass";
  WriteJson(out, doc);
}

void RenderCsv(std::ostream& out, const DiffResult& result) {
  WriteCsvRow(out, {"kind", "name", "backend", "base_count", "new_count", "base_total_ns",
                    "new_total_ns", "delta_ns", "delta_percent", "status", "decided_by", "p_value",
                    "test", "base_device_ns", "new_device_ns"});
  for (const DiffRow& r : result.rows) {
    const Comparison& c = r.comparison;
    const bool op = r.kind == ProfileRowKind::kOp;
    WriteCsvRow(
        out,
        {ProfileRowKindName(r.kind), r.name, BackendName(r.backend), std::to_string(r.base_count),
         std::to_string(r.new_count), std::to_string(c.base_total_ns),
         std::to_string(c.new_total_ns), std::to_string(c.delta_ns),
         c.delta_percent ? fmt::format("{:.4f}", *c.delta_percent) : "", DiffStatusName(c.status),
         DecidedByName(c.decided_by), c.test ? fmt::format("{:.6g}", c.test->p_value) : "",
         c.test ? MannWhitneyMethodName(c.test->method) : "",
         op ? std::to_string(r.base_device_ns) : "", op ? std::to_string(r.new_device_ns) : ""});
  }
}

std::string TotalLine(const char* label, const Comparison& c) {
  return fmt::format("{}: {} -> {} ({}, {}), {}{}", label, FormatDuration(c.base_total_ns),
                     FormatDuration(c.new_total_ns), SignedDuration(c.delta_ns),
                     c.delta_percent ? fmt::format("{:+.1f}%", *c.delta_percent) : "n/a",
                     DiffStatusName(c.status),
                     c.test ? fmt::format(" (Mann-Whitney p = {:.3g})", c.test->p_value) : "");
}

void RenderTable(std::ostream& out, const DiffSource& base, const DiffSource& next,
                 const DiffOptions& options, const DiffResult& result) {
  TextTable table;
  using A = TextTable::Align;
  table.AddColumn("Status", A::kLeft);
  table.AddColumn("Kind", A::kLeft);
  for (const char* h : {"Base", "New", "Delta", "Delta%", "p", "Count"}) {
    table.AddColumn(h, A::kRight);
  }
  table.AddColumn("Backend", A::kLeft);
  table.AddColumn("Name", A::kLeft, kNameWidth);
  for (const DiffRow& r : result.rows) {
    const Comparison& c = r.comparison;
    table.AddRow({DiffStatusName(c.status), ProfileRowKindName(r.kind),
                  FormatDuration(c.base_value), FormatDuration(c.new_value),
                  SignedDuration(c.delta_ns), Percent(c.delta_percent), PValue(c),
                  fmt::format("{}->{}", r.base_count, r.new_count), BackendName(r.backend),
                  r.name});
  }
  table.Print(out);
  out << fmt::format("\nbase {} ({}, {} steps), new {} ({}, {} steps)\n", base.path,
                     base.is_baseline ? "baseline" : "trace", result.base_steps, next.path,
                     next.is_baseline ? "baseline" : "trace", result.new_steps);
  if (result.basis == DiffBasis::kPerStepMean) {
    out << "step counts differ: times are per-step means (total / steps)\n";
  }
  out << TotalLine("kernel time", result.kernel_total) << '\n';
  if (options.ops) out << TotalLine("op host time", result.op_total) << '\n';
  const DiffStatusCounts& n = result.counts;
  out << fmt::format(
      "{} regressed, {} improved, {} unchanged, {} added, {} removed (threshold {}%{})",
      n.regressed, n.improved, n.unchanged, n.added, n.removed, options.threshold_percent,
      result.noise_test ? fmt::format(", Mann-Whitney alpha {}", options.alpha)
                        : ", no noise test: fewer than 3 steps on a side");
  if (result.rows.size() < result.row_count_before_top) {
    out << fmt::format("; showing the top {} of {} rows", result.rows.size(),
                       result.row_count_before_top);
  }
  out << fmt::format("\nverdict: {}\n", result.regressed ? "fail" : "pass");
}

}  // namespace

void RenderDiff(std::ostream& out, const DiffSource& base, const DiffSource& next,
                const DiffOptions& options, const DiffResult& result, OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson:
      RenderJson(out, base, next, options, result);
      return;
    case OutputFormat::kCsv:
      RenderCsv(out, result);
      return;
    case OutputFormat::kTable:
      RenderTable(out, base, next, options, result);
      return;
  }
}

}  // namespace tensormorph
