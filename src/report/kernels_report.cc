#include "report/kernels_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "model/time.h"
#include "report/columns.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

constexpr size_t kNameWidth = 100;

const char* GroupName(KernelGrouping g) {
  switch (g) {
    case KernelGrouping::kName:
      return "name";
    case KernelGrouping::kDevice:
      return "device";
    case KernelGrouping::kStream:
      return "stream";
  }
  return "name";
}

void RenderTable(std::ostream& out, const std::vector<const Trace*>& traces,
                 const KernelQuery& query, const KernelSummary& summary) {
  TextTable table;
  using A = TextTable::Align;
  for (const char* h : {"Time(%)", "Total", "Count", "Avg", "Med", "Min", "Max", "StdDev"}) {
    table.AddColumn(h, A::kRight);
  }
  table.AddColumn("Backend", A::kLeft);
  if (query.by_input) table.AddColumn("Input", A::kRight);
  table.AddColumn(query.group_by == KernelGrouping::kName ? "Name" : "Device", A::kLeft,
                  kNameWidth);
  for (const KernelRow& r : summary.rows) {
    std::vector<std::string> cells = {
        fmt::format("{:.1f}", r.percent), FormatDuration(r.total_ns),  std::to_string(r.count),
        FormatDuration(r.mean_ns),        FormatDuration(r.median_ns), FormatDuration(r.min_ns),
        FormatDuration(r.max_ns),         FormatDuration(r.stddev_ns), BackendName(r.backend)};
    if (query.by_input) cells.push_back(std::to_string(r.input));
    cells.push_back(r.name);
    table.AddRow(std::move(cells));
  }
  table.Print(out);
  out << fmt::format("\n{} kernel launches, {} of kernel time", summary.kernel_count,
                     FormatDuration(summary.total_ns));
  if (summary.rows.size() < summary.row_count_before_top) {
    out << fmt::format("; showing the top {} of {} rows", summary.rows.size(),
                       summary.row_count_before_top);
  }
  out << '\n';
  if (query.by_input) {
    for (size_t i = 0; i < traces.size(); ++i)
      out << fmt::format("input {}: {}\n", i, traces[i]->path);
  }
}

using K = KernelRow;

// The fields of a kernel row (docs/kernels.md), in the order JSON and CSV write them.
const Column<K> kColumns[] = {
    {"name", [](const K& r) { return Json(r.name); }, [](const K& r) { return r.name; }},
    {"backend", [](const K& r) { return Json(BackendName(r.backend)); },
     [](const K& r) { return std::string(BackendName(r.backend)); }},
    {"count", [](const K& r) { return Json(r.count); },
     [](const K& r) { return std::to_string(r.count); }},
    {"total_ns", [](const K& r) { return Json(r.total_ns); },
     [](const K& r) { return std::to_string(r.total_ns); }},
    {"mean_ns", [](const K& r) { return Json(r.mean_ns); },
     [](const K& r) { return fmt::format("{:.3f}", r.mean_ns); }},
    {"median_ns", [](const K& r) { return Json(r.median_ns); },
     [](const K& r) { return fmt::format("{:.1f}", r.median_ns); }},
    {"min_ns", [](const K& r) { return Json(r.min_ns); },
     [](const K& r) { return std::to_string(r.min_ns); }},
    {"max_ns", [](const K& r) { return Json(r.max_ns); },
     [](const K& r) { return std::to_string(r.max_ns); }},
    {"stddev_ns", [](const K& r) { return Json(r.stddev_ns); },
     [](const K& r) { return fmt::format("{:.3f}", r.stddev_ns); }},
    {"percent", [](const K& r) { return Json(r.percent); },
     [](const K& r) { return fmt::format("{:.4f}", r.percent); }},
    {"mangled_name", [](const K& r) { return OrNull(r.mangled_name); },
     [](const K& r) { return r.mangled_name; }},
};
// With --by-input only.
const Column<K> kInputColumns[] = {
    {"input", [](const K& r) { return Json(r.input); },
     [](const K& r) { return std::to_string(r.input); }},
};

// Those of the query: with --by-input, the input's column too.
std::span<const Column<K>> InputColumns(bool by_input) {
  return by_input ? std::span<const Column<K>>(kInputColumns) : std::span<const Column<K>>();
}

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces,
                const KernelQuery& query, const KernelSummary& summary) {
  Json rows = Json::array();
  for (const KernelRow& r : summary.rows) rows.push_back(KernelRowJson(r, query.by_input));
  Json doc = {{"schema", "tensormorph.kernels/1"},     {"inputs", DescribeInputs(traces)},
              {"group_by", GroupName(query.group_by)}, {"total_ns", summary.total_ns},
              {"kernel_count", summary.kernel_count},  {"rows", std::move(rows)}};
  if (summary.rows.empty()) doc["note"] = ExplainNoKernels(traces, query);
  WriteJson(out, doc);
}

void RenderCsv(std::ostream& out, const KernelQuery& query, const KernelSummary& summary) {
  std::vector<std::string> header;
  AddCsvHeader<K>(kColumns, &header);
  AddCsvHeader(InputColumns(query.by_input), &header);
  WriteCsvRow(out, header);
  for (const KernelRow& r : summary.rows) {
    std::vector<std::string> cells;
    AddCsvCells<K>(kColumns, r, &cells);
    AddCsvCells(InputColumns(query.by_input), r, &cells);
    WriteCsvRow(out, cells);
  }
}

}  // namespace

Json KernelRowJson(const KernelRow& row, bool by_input) {
  Json object = ColumnsJson<K>(kColumns, row);
  AddJsonFields(InputColumns(by_input), row, &object);
  return object;
}

std::string ExplainNoKernels(const std::vector<const Trace*>& traces, const KernelQuery& query) {
  uint64_t kernels = 0, ranges = 0, ops = 0;
  for (const Trace* t : traces) {
    kernels += t->counts.kernels;
    ranges += t->counts.counter_ranges;
    ops += t->counts.ops;
  }
  if (kernels > 0) {
    std::vector<std::string> filters;
    if (query.backend) filters.push_back(fmt::format("--backend {}", BackendName(*query.backend)));
    if (!query.device.empty()) filters.push_back(fmt::format("--device '{}'", query.device));
    return fmt::format("none of the {} kernels matches {}", kernels, fmt::join(filters, " and "));
  }
  if (ranges > 0) {
    return fmt::format(
        "no kernel activity: the trace holds {} CUPTI profiler ranges (counter collection replays "
        "kernels, so their times are not kernel durations)",
        ranges);
  }
  if (ops > 0) return "no kernels: this is a CPU-only trace (framework ops only)";
  const bool all_on_request = std::all_of(
      traces.begin(), traces.end(), [](const Trace* t) { return t->kernels_traced_on_request; });
  if (all_on_request)
    return "no CUDA kernel data in this export (CUDA was not traced, or nothing ran)";
  return "no kernels in this trace";
}

void RenderKernels(std::ostream& out, const std::vector<const Trace*>& traces,
                   const KernelQuery& query, const KernelSummary& summary, OutputFormat format) {
  RenderAs(
      format,
      [&] {
        if (summary.rows.empty()) {
          out << ExplainNoKernels(traces, query) << '\n';
          return;
        }
        RenderTable(out, traces, query, summary);
      },
      [&] { RenderJson(out, traces, query, summary); }, [&] { RenderCsv(out, query, summary); });
}

}  // namespace tensormorph
