#include "report/roofline_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "model/time.h"
#include "report/columns.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

constexpr size_t kNameWidth = 80;

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
  // One footnote per reason a shown row was called latency-bound (its bound_source): a row
  // estimated from op shapes was never measured by Nsight Compute.
  auto latency_because = [&](std::string_view source) {
    return std::any_of(result.rows.begin(), result.rows.end(), [&](const RooflineRow& r) {
      return r.bound == Bound::kLatency && r.bound_source == source;
    });
  };
  if (latency_because("speed_of_light")) {
    out << fmt::format(
        "latency: Nsight Compute measured both SM and memory throughput below {:g} % of peak\n",
        kLatencyThroughputPercent);
  }
  if (latency_because("launch_duration")) {
    out << fmt::format(
        "latency: launches average under {} us, too short to reach either roof (launch ramp-up "
        "and tail dominate)\n",
        kLatencyFloorNs / 1000);
  }
  if (latency_because("below_both_roofs")) {
    out << fmt::format("latency: achieved FLOP/s and B/s both below {:g} % of the device's peaks\n",
                       kLatencyRoofPercent);
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

using R = RooflineRow;

// A full-precision number, "" when absent (CSV); JSON writes null.
template <auto Member>
constexpr Column<R> Number(const char* name) {
  return {name, [](const R& r) { return OrNull(r.*Member); },
          [](const R& r) { return Exact(r.*Member); }};
}

// The fields of a roofline row (docs/roofline.md), in the order JSON and CSV write
// them; from_rates is JSON only.
const Column<R> kColumns[] = {
    {"name", [](const R& r) { return Json(r.name); }, [](const R& r) { return r.name; }},
    {"backend", [](const R& r) { return Json(BackendName(r.backend)); },
     [](const R& r) { return std::string(BackendName(r.backend)); }},
    {"device", [](const R& r) { return Json(r.device); }, [](const R& r) { return r.device; }},
    {"precision",
     [](const R& r) {
       return r.precision == Precision::kUnknown ? Json(nullptr) : Json(PrecisionName(r.precision));
     },
     [](const R& r) { return std::string(PrecisionName(r.precision)); }},
    {"count", [](const R& r) { return Json(r.count); },
     [](const R& r) { return std::to_string(r.count); }},
    {"total_ns", [](const R& r) { return Json(r.total_ns); },
     [](const R& r) { return std::to_string(r.total_ns); }},
    Number<&R::flops>("flops"),
    Number<&R::dram_bytes>("dram_bytes"),
    {"arithmetic_intensity", [](const R& r) { return Json(r.arithmetic_intensity); },
     [](const R& r) { return Exact(r.arithmetic_intensity); }},
    Number<&R::achieved_flops_per_s>("achieved_flops_per_s"),
    Number<&R::achieved_bytes_per_s>("achieved_bytes_per_s"),
    Number<&R::peak_flops_per_s>("peak_flops_per_s"),
    Number<&R::peak_bytes_per_s>("peak_bytes_per_s"),
    Number<&R::ceiling_flops_per_s>("ceiling_flops_per_s"),
    Number<&R::percent_of_roof>("percent_of_roof"),
    {"bound", [](const R& r) { return OrNull(BoundOf(r)); },
     [](const R& r) {
       const char* bound = BoundOf(r);
       return std::string(bound ? bound : "");
     }},
    {"peak_source", [](const R& r) { return OrNull(r.peak_source); },
     [](const R& r) { return r.peak_source; }},
    {"no_ceiling_reason", [](const R& r) { return OrNull(r.no_ceiling_reason); },
     [](const R& r) { return r.no_ceiling_reason; }},
    {"from_rates", [](const R& r) { return Json(r.from_rates); }},
    {"source", [](const R& r) { return Json(r.source); }, [](const R& r) { return r.source; }},
    {"bound_source", [](const R& r) { return OrNull(r.bound_source); },
     [](const R& r) { return r.bound_source; }},
    Number<&R::sm_throughput_percent>("sm_throughput_percent"),
    Number<&R::memory_throughput_percent>("memory_throughput_percent"),
    Number<&R::percent_of_bandwidth>("percent_of_bandwidth"),
};

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces,
                const RooflineResult& result) {
  Json rows = Json::array();
  for (const RooflineRow& r : result.rows) rows.push_back(RooflineRowJson(r));
  WriteJson(out, {{"schema", "tensormorph.roofline/1"},
                  {"inputs", DescribeInputs(traces)},
                  {"kernel_count", result.kernel_count},
                  {"row_count", result.row_count_before_top},
                  {"rows", std::move(rows)},
                  {"skipped", RooflineSkippedJson(result.skipped)}});
}

void RenderCsv(std::ostream& out, const RooflineResult& result) {
  std::vector<std::string> header;
  AddCsvHeader<R>(kColumns, &header);
  WriteCsvRow(out, header);
  for (const RooflineRow& r : result.rows) {
    std::vector<std::string> cells;
    AddCsvCells<R>(kColumns, r, &cells);
    WriteCsvRow(out, cells);
  }
}

}  // namespace

Json RooflineRowJson(const RooflineRow& row) {
  return ColumnsJson<R>(kColumns, row);
}

Json RooflineSkippedJson(const std::vector<RooflineSkip>& skipped) {
  Json out = Json::array();
  for (const RooflineSkip& s : skipped) out.push_back({{"reason", s.reason}, {"count", s.count}});
  return out;
}

void RenderRoofline(std::ostream& out, const std::vector<const Trace*>& traces,
                    const RooflineResult& result, OutputFormat format) {
  RenderAs(
      format, [&] { RenderTable(out, result); }, [&] { RenderJson(out, traces, result); },
      [&] { RenderCsv(out, result); });
}

}  // namespace tensormorph
