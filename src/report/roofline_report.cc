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

const char* BoundOf(const RooflineRow& r) {
  return r.bound ? BoundName(*r.bound) : nullptr;
}

// "% roof" in the table: of the roof at the row's intensity, or "bw" for rows that have only
// DRAM bytes (of the bandwidth).
std::string RoofText(const RooflineRow& r) {
  if (r.percent_of_roof) return fmt::format("{:.1f}", *r.percent_of_roof);
  if (r.percent_of_bandwidth) return fmt::format("{:.1f} bw", *r.percent_of_bandwidth);
  return "-";
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
    const char* bound = BoundOf(r);
    table.AddRow(
        {FormatDuration(r.total_ns), std::to_string(r.count),
         r.precision == Precision::kUnknown ? "-" : PrecisionName(r.precision),
         r.flops || r.achieved_flops_per_s ? fmt::format("{:.3g}", r.arithmetic_intensity) : "-",
         Sci(r.achieved_flops_per_s), Sci(r.achieved_bytes_per_s), Sci(r.ceiling_flops_per_s),
         RoofText(r), bound ? bound : "-", r.peak_source.empty() ? "none" : r.peak_source, r.name});
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
  if (std::any_of(result.rows.begin(), result.rows.end(),
                  [](const RooflineRow& r) { return r.bound == Bound::kLatency; })) {
    out << fmt::format(
        "latency: Nsight Compute measured both SM and memory throughput below {:g} % of peak\n",
        kLatencyThroughputPercent);
  }
  if (std::any_of(result.rows.begin(), result.rows.end(),
                  [](const RooflineRow& r) { return r.percent_of_bandwidth.has_value(); })) {
    out << "bw: no FLOP counts were collected; the row is placed by DRAM bytes against the "
           "memory bandwidth\n";
  }
  for (const RooflineSkip& s : result.skipped) {
    out << fmt::format("skipped {} launches: {}\n", s.count, s.reason);
  }
}

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces,
                const RooflineResult& result) {
  Json rows = Json::array();
  for (const RooflineRow& r : result.rows) {
    const char* bound = BoundOf(r);
    rows.push_back(
        {{"name", r.name},
         {"backend", BackendName(r.backend)},
         {"device", r.device},
         {"precision",
          r.precision == Precision::kUnknown ? Json(nullptr) : Json(PrecisionName(r.precision))},
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
         {"source", r.source},
         {"bound_source", r.bound_source.empty() ? Json(nullptr) : Json(r.bound_source)},
         {"sm_throughput_percent", OrNull(r.sm_throughput_percent)},
         {"memory_throughput_percent", OrNull(r.memory_throughput_percent)},
         {"percent_of_bandwidth", OrNull(r.percent_of_bandwidth)}});
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
  WriteCsvRow(out, {"name",
                    "backend",
                    "device",
                    "precision",
                    "count",
                    "total_ns",
                    "flops",
                    "dram_bytes",
                    "arithmetic_intensity",
                    "achieved_flops_per_s",
                    "achieved_bytes_per_s",
                    "peak_flops_per_s",
                    "peak_bytes_per_s",
                    "ceiling_flops_per_s",
                    "percent_of_roof",
                    "bound",
                    "peak_source",
                    "no_ceiling_reason",
                    "source",
                    "bound_source",
                    "sm_throughput_percent",
                    "memory_throughput_percent",
                    "percent_of_bandwidth"});
  for (const RooflineRow& r : result.rows) {
    const char* bound = BoundOf(r);
    WriteCsvRow(out, {r.name,
                      BackendName(r.backend),
                      r.device,
                      PrecisionName(r.precision),
                      std::to_string(r.count),
                      std::to_string(r.total_ns),
                      Exact(r.flops),
                      Exact(r.dram_bytes),
                      Exact(r.arithmetic_intensity),
                      Exact(r.achieved_flops_per_s),
                      Exact(r.achieved_bytes_per_s),
                      Exact(r.peak_flops_per_s),
                      Exact(r.peak_bytes_per_s),
                      Exact(r.ceiling_flops_per_s),
                      Exact(r.percent_of_roof),
                      bound ? bound : "",
                      r.peak_source,
                      r.no_ceiling_reason,
                      r.source,
                      r.bound_source,
                      Exact(r.sm_throughput_percent),
                      Exact(r.memory_throughput_percent),
                      Exact(r.percent_of_bandwidth)});
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
