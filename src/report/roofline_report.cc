#include "report/roofline_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/time.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

constexpr size_t kNameWidth = 80;

Json OrNull(const std::optional<double>& v) {
  return v ? Json(*v) : Json(nullptr);
}

const char* BoundName(const RooflineRow& r) {
  if (!r.memory_bound) return nullptr;
  return *r.memory_bound ? "memory" : "compute";
}

// 1.23e+12 style for rates and counts: they span many orders of magnitude.
std::string Sci(const std::optional<double>& v) {
  return v ? fmt::format("{:.4g}", *v) : "-";
}
// Full precision for CSV, so the numbers can be checked.
std::string Exact(const std::optional<double>& v) {
  return v ? fmt::format("{}", *v) : "";
}

void RenderTable(std::ostream& out, const RooflineResult& result) {
  TextTable table;
  using A = TextTable::Align;
  for (const char* h : {"Total", "Count", "Prec", "FLOP/B", "FLOP/s", "B/s", "Ceiling", "% roof"}) {
    table.AddColumn(h, A::kRight);
  }
  table.AddColumn("Bound", A::kLeft);
  table.AddColumn("Peaks", A::kLeft, 40);
  table.AddColumn("Name", A::kLeft, kNameWidth);
  for (const RooflineRow& r : result.rows) {
    const char* bound = BoundName(r);
    table.AddRow({FormatDuration(r.total_ns), std::to_string(r.count), PrecisionName(r.precision),
                  fmt::format("{:.3g}", r.arithmetic_intensity), Sci(r.achieved_flops_per_s),
                  Sci(r.achieved_bytes_per_s), Sci(r.ceiling_flops_per_s),
                  r.percent_of_roof ? fmt::format("{:.1f}", *r.percent_of_roof) : "-",
                  bound ? bound : "-", r.peak_source.empty() ? "none" : r.peak_source, r.name});
  }
  if (!result.rows.empty()) table.Print(out);
  out << fmt::format("\n{} kernel launches, {} roofline rows", result.kernel_count,
                     result.row_count_before_top);
  if (result.rows.size() < result.row_count_before_top) {
    out << fmt::format("; showing the top {}", result.rows.size());
  }
  out << '\n';
  for (const RooflineRow& r : result.rows) {
    if (!r.no_ceiling_reason.empty()) {
      out << fmt::format("no ceiling for {}: {}\n", r.name.substr(0, kNameWidth),
                         r.no_ceiling_reason);
    }
  }
  if (std::any_of(result.rows.begin(), result.rows.end(),
                  [](const RooflineRow& r) { return r.source == "op shapes"; })) {
    out << "FLOPs and bytes of op rows are estimated from recorded op shapes; bytes are a lower "
           "bound (each operand read once), so FLOP/B is an upper bound\n";
  }
  for (const RooflineSkip& s : result.skipped) {
    out << fmt::format("skipped {} launches: {}\n", s.count, s.reason);
  }
}

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces,
                const RooflineResult& result) {
  Json rows = Json::array();
  for (const RooflineRow& r : result.rows) {
    const char* bound = BoundName(r);
    rows.push_back({{"name", r.name},
                    {"backend", BackendName(r.backend)},
                    {"device", r.device},
                    {"precision", PrecisionName(r.precision)},
                    {"count", r.count},
                    {"total_ns", r.total_ns},
                    {"flops", OrNull(r.flops)},
                    {"dram_bytes", OrNull(r.dram_bytes)},
                    {"arithmetic_intensity", r.arithmetic_intensity},
                    {"achieved_flops_per_s", OrNull(r.achieved_flops_per_s)},
                    {"achieved_bytes_per_s", OrNull(r.achieved_bytes_per_s)},
                    {"peak_flops_per_s", OrNull(r.peak_flops_per_s)},
                    {"peak_bytes_per_s", OrNull(r.peak_bytes_per_s)},
                    {"ceiling_flops_per_s", OrNull(r.ceiling_flops_per_s)},
                    {"percent_of_roof", OrNull(r.percent_of_roof)},
                    {"bound", bound ? Json(bound) : Json(nullptr)},
                    {"peak_source", r.peak_source.empty() ? Json(nullptr) : Json(r.peak_source)},
                    {"no_ceiling_reason",
                     r.no_ceiling_reason.empty() ? Json(nullptr) : Json(r.no_ceiling_reason)},
                    {"from_rates", r.from_rates},
                    {"source", r.source}});
  }
  Json skipped = Json::array();
  for (const RooflineSkip& s : result.skipped) {
    skipped.push_back({{"reason", s.reason}, {"count", s.count}});
  }
  WriteJson(out, {{"schema", "tensormorph.roofline/1"},
                  {"inputs", DescribeInputs(traces)},
                  {"kernel_count", result.kernel_count},
                  {"row_count", result.row_count_before_top},
                  {"rows", std::move(rows)},
                  {"skipped", std::move(skipped)}});
}

void RenderCsv(std::ostream& out, const RooflineResult& result) {
  WriteCsvRow(out,
              {"name", "backend", "device", "precision", "count", "total_ns", "flops", "dram_bytes",
               "arithmetic_intensity", "achieved_flops_per_s", "achieved_bytes_per_s",
               "peak_flops_per_s", "peak_bytes_per_s", "ceiling_flops_per_s", "percent_of_roof",
               "bound", "peak_source", "no_ceiling_reason", "source"});
  for (const RooflineRow& r : result.rows) {
    const char* bound = BoundName(r);
    WriteCsvRow(
        out, {r.name, BackendName(r.backend), r.device, PrecisionName(r.precision),
              std::to_string(r.count), std::to_string(r.total_ns), Exact(r.flops),
              Exact(r.dram_bytes), Exact(r.arithmetic_intensity), Exact(r.achieved_flops_per_s),
              Exact(r.achieved_bytes_per_s), Exact(r.peak_flops_per_s), Exact(r.peak_bytes_per_s),
              Exact(r.ceiling_flops_per_s), Exact(r.percent_of_roof), bound ? bound : "",
              r.peak_source, r.no_ceiling_reason, r.source});
  }
}

}  // namespace

void RenderRoofline(std::ostream& out, const std::vector<const Trace*>& traces,
                    const RooflineResult& result, OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson:
      RenderJson(out, traces, result);
      return;
    case OutputFormat::kCsv:
      RenderCsv(out, result);
      return;
    case OutputFormat::kTable:
      RenderTable(out, result);
      return;
  }
}

}  // namespace tensormorph
