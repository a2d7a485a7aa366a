#include "report/diff_report.h"

#include <fmt/format.h>

#include <cstdlib>

#include "model/time.h"
#include "report/columns.h"
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

// A comparison's fields are read from the comparison, the result (its basis) and, for a row, the
// row itself.
struct DiffCell {
  const Comparison& c;
  const DiffResult& result;
  const DiffRow* row;  // null for the totals
};
using C = DiffCell;

// The row's own fields, before the comparison's (docs/diff.md).
const Column<C> kRowColumns[] = {
    {"kind", [](const C& d) { return Json(ProfileRowKindName(d.row->kind)); },
     [](const C& d) { return std::string(ProfileRowKindName(d.row->kind)); }},
    {"name", [](const C& d) { return Json(d.row->name); }, [](const C& d) { return d.row->name; }},
    {"backend", [](const C& d) { return Json(BackendName(d.row->backend)); },
     [](const C& d) { return std::string(BackendName(d.row->backend)); }},
    {"base_count", [](const C& d) { return Json(d.row->base_count); },
     [](const C& d) { return std::to_string(d.row->base_count); }},
    {"new_count", [](const C& d) { return Json(d.row->new_count); },
     [](const C& d) { return std::to_string(d.row->new_count); }},
    {"base_total_ns", [](const C& d) { return Json(d.c.base_total_ns); },
     [](const C& d) { return std::to_string(d.c.base_total_ns); }},
    {"new_total_ns", [](const C& d) { return Json(d.c.new_total_ns); },
     [](const C& d) { return std::to_string(d.c.new_total_ns); }},
};

bool PerStep(const C& d) {
  return d.c.basis == DiffBasis::kPerStepMean;
}

bool PerCall(const C& d) {
  return d.c.basis == DiffBasis::kPerCall;
}

// The fields every comparison has, rows and totals alike.
const Column<C> kComparisonColumns[] = {
    {"delta_ns", [](const C& d) { return Json(d.c.delta_ns); },
     [](const C& d) { return std::to_string(d.c.delta_ns); }},
    {"delta_percent", [](const C& d) { return OrNull(d.c.delta_percent); },
     [](const C& d) { return d.c.delta_percent ? fmt::format("{:.4f}", *d.c.delta_percent) : ""; }},
    {"base_per_step_ns", [](const C& d) { return PerStep(d) ? Json(d.c.base_value) : Omit(); }},
    {"new_per_step_ns", [](const C& d) { return PerStep(d) ? Json(d.c.new_value) : Omit(); }},
    {"status", [](const C& d) { return Json(DiffStatusName(d.c.status)); },
     [](const C& d) { return std::string(DiffStatusName(d.c.status)); }},
    {"decided_by", [](const C& d) { return Json(DecidedByName(d.c.decided_by)); },
     [](const C& d) { return std::string(DecidedByName(d.c.decided_by)); }},
    {"p_value", [](const C& d) { return d.c.test ? Json(d.c.test->p_value) : Json(nullptr); },
     [](const C& d) { return d.c.test ? fmt::format("{:.6g}", d.c.test->p_value) : ""; }},
    {"test",
     [](const C& d) {
       return d.c.test ? Json(MannWhitneyMethodName(d.c.test->method)) : Json(nullptr);
     },
     [](const C& d) {
       return std::string(d.c.test ? MannWhitneyMethodName(d.c.test->method) : "");
     }},
    // JSON: only on a row compared per call (its totals are still base/new_total_ns).
    {"basis", [](const C& d) { return PerCall(d) ? Json(DiffBasisName(d.c.basis)) : Omit(); },
     [](const C& d) { return std::string(DiffBasisName(d.c.basis)); }},
    {"base_per_call_ns", [](const C& d) { return PerCall(d) ? Json(d.c.base_value) : Omit(); }},
    {"new_per_call_ns", [](const C& d) { return PerCall(d) ? Json(d.c.new_value) : Omit(); }},
};

// Op rows only (CSV: empty for kernel rows).
const Column<C> kOpColumns[] = {
    {"base_device_ns",
     [](const C& d) {
       return d.row->kind == ProfileRowKind::kOp ? Json(d.row->base_device_ns) : Omit();
     },
     [](const C& d) {
       return d.row->kind == ProfileRowKind::kOp ? std::to_string(d.row->base_device_ns) : "";
     }},
    {"new_device_ns",
     [](const C& d) {
       return d.row->kind == ProfileRowKind::kOp ? Json(d.row->new_device_ns) : Omit();
     },
     [](const C& d) {
       return d.row->kind == ProfileRowKind::kOp ? std::to_string(d.row->new_device_ns) : "";
     }},
};

const std::span<const Column<C>> kRowParts[] = {kRowColumns, kComparisonColumns, kOpColumns};

Json TotalJson(const Comparison& c, const DiffResult& result, const char* measure) {
  Json total = {{"measure", measure}, {"base_ns", c.base_total_ns}, {"new_ns", c.new_total_ns}};
  AddJsonFields<C>(kComparisonColumns, C{c, result, nullptr}, &total);
  return total;
}

Json SourceJson(const DiffSource& s, size_t steps, int64_t span_ns) {
  return {{"path", s.path},
          {"type", s.is_baseline ? "baseline" : "trace"},
          {"steps", steps},
          {"kernel_span_ns", span_ns > 0 ? Json(span_ns) : Json(nullptr)}};
}

void RenderJson(std::ostream& out, const DiffSource& base, const DiffSource& next,
                const DiffOptions& options, const DiffResult& result) {
  Json rows = Json::array();
  for (const DiffRow& r : result.rows) rows.push_back(DiffRowJson(r, result));
  Json doc = {{"schema", "tensormorph.diff/1"},
              {"base", SourceJson(base, result.base_steps, result.base_span_ns)},
              {"new", SourceJson(next, result.new_steps, result.new_span_ns)},
              {"kind", KindOption(options)},
              {"threshold_percent", options.threshold_percent},
              {"alpha", options.alpha},
              {"basis", DiffBasisName(result.basis)},
              {"noise_test", result.noise_test},
              {"per_call_rows", result.per_call_rows},
              {"capture_lengths_differ", OrNull(result.capture_lengths_differ)},
              {"total", TotalJson(result.kernel_total, result, "kernel_time")}};
  if (options.ops) doc["op_total"] = TotalJson(result.op_total, result, "op_host_time");
  doc["counts"] = DiffCountsJson(result.counts);
  doc["row_count"] = result.row_count_before_top;
  doc["rows"] = std::move(rows);
  doc["verdict"] = result.regressed ? "fail" : "pass";
  WriteJson(out, doc);
}

void RenderCsv(std::ostream& out, const DiffResult& result) {
  std::vector<std::string> header;
  for (auto columns : kRowParts) AddCsvHeader(columns, &header);
  WriteCsvRow(out, header);
  for (const DiffRow& r : result.rows) {
    std::vector<std::string> cells;
    for (auto columns : kRowParts) AddCsvCells(columns, C{r.comparison, result, &r}, &cells);
    WriteCsvRow(out, cells);
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
    const char* unit = c.basis == DiffBasis::kPerCall ? "/call" : "";
    table.AddRow({DiffStatusName(c.status), ProfileRowKindName(r.kind),
                  FormatDuration(c.base_value) + unit, FormatDuration(c.new_value) + unit,
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
  if (result.per_call_rows > 0) {
    out << fmt::format(
        "{} rows launch a different number of times and the profiles have no steps to compare "
        "per step: those rows compare the mean per call (\"/call\")\n",
        result.per_call_rows);
  }
  if (result.capture_lengths_differ.value_or(false)) {
    out << fmt::format(
        "the captures differ in length: kernels span {} in the base, {} in the new; compare "
        "totals with care\n",
        FormatDuration(result.base_span_ns), FormatDuration(result.new_span_ns));
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

Json DiffRowJson(const DiffRow& row, const DiffResult& result) {
  Json object = Json::object();
  for (auto columns : kRowParts) AddJsonFields(columns, C{row.comparison, result, &row}, &object);
  return object;
}

Json DiffCountsJson(const DiffStatusCounts& n) {
  return {{"regressed", n.regressed},
          {"improved", n.improved},
          {"unchanged", n.unchanged},
          {"added", n.added},
          {"removed", n.removed}};
}

void RenderDiff(std::ostream& out, const DiffSource& base, const DiffSource& next,
                const DiffOptions& options, const DiffResult& result, OutputFormat format) {
  RenderAs(
      format, [&] { RenderTable(out, base, next, options, result); },
      [&] { RenderJson(out, base, next, options, result); }, [&] { RenderCsv(out, result); });
}

}  // namespace tensormorph
