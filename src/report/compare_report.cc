#include "report/compare_report.h"

#include <fmt/format.h>

#include <span>

#include "model/time.h"
#include "report/columns.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/memory_report.h"
#include "report/table.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/roofline.h"

namespace tensormorph {
namespace {

constexpr size_t kNameWidth = 90;

using C = CompareCell;

// A side's figures for a row: the objects of a row's "sides" in JSON, and in CSV each side's
// group of columns, named "<label>:<field>".
const Column<C> kCellColumns[] = {
    {"calls", [](const C& c) { return Json(c.calls); },
     [](const C& c) { return std::to_string(c.calls); }},
    {"device_ns", [](const C& c) { return Json(c.device_ns); },
     [](const C& c) { return std::to_string(c.device_ns); }},
    {"self_ns", [](const C& c) { return Json(c.self_ns); },
     [](const C& c) { return std::to_string(c.self_ns); }},
    {"kernels", [](const C& c) { return Json(c.kernels); },
     [](const C& c) { return std::to_string(c.kernels); }},
    {"transfer_ns", [](const C& c) { return Json(c.transfer_ns); },
     [](const C& c) { return std::to_string(c.transfer_ns); }},
    {"backend",
     [](const C& c) { return c.device.empty() ? Json(nullptr) : Json(BackendName(c.backend)); },
     [](const C& c) {
       return c.device.empty() ? std::string() : std::string(BackendName(c.backend));
     }},
    {"device", [](const C& c) { return OrNull(c.device); }, [](const C& c) { return c.device; }},
    {"flops", [](const C& c) { return OrNull(c.flops); },
     [](const C& c) { return CsvNumber(c.flops); }},
    {"bytes", [](const C& c) { return OrNull(c.bytes); },
     [](const C& c) { return CsvNumber(c.bytes); }},
    {"calls_with_flops", [](const C& c) { return Json(c.calls_with_flops); },
     [](const C& c) { return std::to_string(c.calls_with_flops); }},
    {"achieved_flops_per_s", [](const C& c) { return OrNull(c.achieved_flops_per_s); },
     [](const C& c) { return CsvNumber(c.achieved_flops_per_s); }},
    {"achieved_bytes_per_s", [](const C& c) { return OrNull(c.achieved_bytes_per_s); },
     [](const C& c) { return CsvNumber(c.achieved_bytes_per_s); }},
    {"percent_of_roof", [](const C& c) { return OrNull(c.percent_of_roof); },
     [](const C& c) { return CsvNumber(c.percent_of_roof); }},
    {"bound", [](const C& c) { return c.bound ? Json(BoundName(*c.bound)) : Json(nullptr); },
     [](const C& c) { return std::string(c.bound ? BoundName(*c.bound) : ""); }},
};

using R = CompareRow;

const char* StatusName(const CompareRow& row) {
  return row.matched ? "matched" : "only_in";
}

// A row's own fields, before its sides.
const Column<R> kRowColumns[] = {
    {"key", [](const R& r) { return Json(r.key); }, [](const R& r) { return r.key; }},
    {"name", [](const R& r) { return Json(r.name); }, [](const R& r) { return r.name; }},
    {"category", [](const R& r) { return Json(WorkCategoryName(r.category)); },
     [](const R& r) { return std::string(WorkCategoryName(r.category)); }},
    {"shapes", [](const R& r) { return OrNull(r.shapes); }, [](const R& r) { return r.shapes; }},
    {"dtypes", [](const R& r) { return OrNull(r.dtypes); }, [](const R& r) { return r.dtypes; }},
    {"stack", [](const R& r) { return OrNull(r.stack); }, [](const R& r) { return r.stack; }},
    {"origin", [](const R& r) { return Json(r.origin); }, [](const R& r) { return r.origin; }},
    {"status", [](const R& r) { return Json(StatusName(r)); },
     [](const R& r) { return std::string(StatusName(r)); }},
};

Json OptionalDouble(const std::optional<double>& v) {
  return OrNull(v);
}

Json ChildJson(const CompareChild& child) {
  Json sides = Json::array();
  for (const std::optional<CompareChildCell>& cell : child.sides) {
    if (!cell) {
      sides.push_back(nullptr);
      continue;
    }
    sides.push_back({{"calls", cell->calls},
                     {"device_ns", cell->device_ns},
                     {"self_ns", cell->self_ns},
                     {"kernels", cell->kernels},
                     {"transfer_ns", cell->transfer_ns}});
  }
  return {{"name", child.name},
          {"shapes", OrNull(child.shapes)},
          {"dtypes", OrNull(child.dtypes)},
          {"sides", std::move(sides)}};
}

Json RowJson(const CompareRow& row, const std::vector<CompareSide>& sides) {
  Json object = ColumnsJson<R>(kRowColumns, row);
  Json cells = Json::array();
  for (const std::optional<CompareCell>& cell : row.sides) {
    cells.push_back(cell ? ColumnsJson<C>(kCellColumns, *cell) : Json(nullptr));
  }
  object["sides"] = std::move(cells);
  Json ratio = Json::array();
  for (const std::optional<double>& r : row.ratio) ratio.push_back(OptionalDouble(r));
  object["ratio"] = std::move(ratio);
  object["faster"] = row.faster ? Json(sides[*row.faster].label) : Json(nullptr);
  Json children = Json::array();
  for (const CompareChild& child : row.children) children.push_back(ChildJson(child));
  object["children"] = std::move(children);
  return object;
}

Json SideJson(const CompareSide& side) {
  Json idle = Json::object();
  for (size_t c = 0; c < kGapCauseCount; ++c) {
    idle[GapCauseName(static_cast<GapCause>(c))] = {{"count", side.idle_by_cause[c].count},
                                                    {"total_ns", side.idle_by_cause[c].total_ns}};
  }
  return {
      {"input", side.input},
      {"label", side.label},
      {"device", OrNull(side.device)},
      {"kernels", side.kernels},
      {"kernel_ns", side.kernel_ns},
      {"transfer_ns", side.transfer_ns},
      {"busy_ns", side.busy_ns},
      {"span_ns", side.span_ns},
      {"steps", side.steps},
      {"host_step_ns", OrNull(side.host_step_ns)},
      {"launch_p50_ns", OrNull(side.launch_p50_ns)},
      {"idle_ns", side.idle_ns},
      {"idle_by_cause", std::move(idle)},
      {"matched_kernel_ns", side.matched_kernel_ns},
      {"unmatched_kernel_ns", side.unmatched_kernel_ns},
      {"capacity_bytes", OrNull(side.capacity_bytes)},
      {"memory", side.memory ? WorkloadMemoryJson(*side.memory, side.memory_fits) : Json(nullptr)}};
}

std::string Percent(int64_t part, int64_t whole) {
  return whole > 0 ? fmt::format("{:.1f} %", 100.0 * part / whole) : "-";
}

std::string RatioText(const std::optional<double>& ratio) {
  return ratio ? fmt::format("{:.2f}×", *ratio) : "-";
}

std::string RowName(const CompareRow& row) {
  std::string name = row.stack.empty() ? row.name : row.stack + " > " + row.name;
  if (!row.shapes.empty()) name += " " + row.shapes;
  if (!row.dtypes.empty()) name += " " + row.dtypes;
  return name;
}

// "MI300X/H100"; side numbers when the labels are long.
std::string RatioHeader(const std::vector<CompareSide>& sides, size_t side) {
  std::string header = sides[side].label + "/" + sides[0].label;
  return DisplayWidth(header) <= 24 ? header : fmt::format("{}/1", side + 1);
}

void RenderTable(std::ostream& out, const CompareResult& result) {
  using A = TextTable::Align;
  const std::vector<CompareSide>& sides = result.sides;
  TextTable header;
  header.AddColumn("Side", A::kLeft, 32);
  header.AddColumn("Device", A::kLeft, 40);
  for (const char* h : {"Kernels", "Kernel time", "Transfers", "GPU busy", "Span", "Step",
                        "Launch→start p50", "Idle", "Matched"}) {
    header.AddColumn(h, A::kRight);
  }
  for (const CompareSide& side : sides) {
    header.AddRow({side.label, side.device, std::to_string(side.kernels),
                   FormatDuration(side.kernel_ns), FormatDuration(side.transfer_ns),
                   FormatDuration(side.busy_ns), FormatDuration(side.span_ns),
                   side.host_step_ns ? FormatDuration(*side.host_step_ns) : "-",
                   side.launch_p50_ns ? FormatDuration(*side.launch_p50_ns) : "-",
                   FormatDuration(side.idle_ns), Percent(side.matched_kernel_ns, side.kernel_ns)});
  }
  header.Print(out);
  out << '\n';
  if (!result.verdict.empty()) out << result.verdict << '\n';
  for (const CompareSide& side : sides) {
    if (side.memory) {
      out << "Memory: " << side.label << ' ' << DescribeMemoryFits(*side.memory, side.memory_fits)
          << '\n';
    }
  }
  for (const std::string& warning : result.warnings) out << "No verdict: " << warning << '\n';
  out << '\n';

  TextTable categories;
  categories.AddColumn("Category", A::kLeft);
  for (const CompareSide& side : sides) categories.AddColumn(side.label, A::kRight, 24);
  for (size_t s = 1; s < sides.size(); ++s) categories.AddColumn(RatioHeader(sides, s), A::kRight);
  for (size_t c = 0; c < kWorkCategoryCount; ++c) {
    bool any = false;
    for (const CompareSide& side : sides) any = any || side.category_kernels[c] > 0;
    if (!any) continue;
    std::vector<std::string> cells = {WorkCategoryName(static_cast<WorkCategory>(c))};
    for (const CompareSide& side : sides) {
      cells.push_back(fmt::format("{} ({})", FormatDuration(side.category_ns[c]),
                                  Percent(side.category_ns[c], side.kernel_ns)));
    }
    for (size_t s = 1; s < sides.size(); ++s) {
      cells.push_back(
          sides[0].category_ns[c] > 0
              ? RatioText(static_cast<double>(sides[s].category_ns[c]) / sides[0].category_ns[c])
              : "-");
    }
    categories.AddRow(std::move(cells));
  }
  categories.Print(out);
  out << '\n';

  TextTable rows;
  for (const CompareSide& side : sides) rows.AddColumn(side.label, A::kRight, 24);
  for (size_t s = 1; s < sides.size(); ++s) rows.AddColumn(RatioHeader(sides, s), A::kRight);
  rows.AddColumn("Calls", A::kRight);
  rows.AddColumn("Status", A::kLeft);
  rows.AddColumn("Category", A::kLeft);
  rows.AddColumn(fmt::format("Op (by {})", CompareByName(result.by)), A::kLeft, kNameWidth);
  for (const CompareRow& row : result.rows) {
    std::vector<std::string> cells;
    std::string calls;
    for (size_t s = 0; s < sides.size(); ++s) {
      const std::optional<CompareCell>& cell = row.sides[s];
      cells.push_back(cell ? FormatDuration(cell->device_ns) : "-");
      if (s > 0) calls += '/';
      calls += cell ? std::to_string(cell->calls) : "-";
    }
    for (size_t s = 1; s < sides.size(); ++s) cells.push_back(RatioText(row.ratio[s]));
    cells.push_back(std::move(calls));
    cells.emplace_back(StatusName(row));
    cells.emplace_back(WorkCategoryName(row.category));
    cells.push_back(RowName(row));
    rows.AddRow(std::move(cells));
  }
  rows.Print(out);
  out << fmt::format("\n{} rows", result.row_count_before_top);
  if (result.rows.size() < result.row_count_before_top) {
    out << fmt::format(", showing the top {}", result.rows.size());
  }
  out << "; on each side the rows add up to its kernel time; ";
  if (result.keys_are_nodes) {
    out << "ONNX Runtime nodes matched by node and op name, in call order (input shapes as the "
           "first side reports them; --by stack: one row per node)\n";
  } else {
    out << "ops matched by name, input dims and dtypes"
        << (result.keys_include_stack ? " and module path" : "") << ", in call order\n";
  }
}

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces,
                const CompareResult& result) {
  WriteJson(out, CompareJson(traces, result));
}

void RenderCsv(std::ostream& out, const CompareResult& result) {
  std::vector<std::string> header;
  AddCsvHeader<R>(kRowColumns, &header);
  for (const CompareSide& side : result.sides) {
    std::vector<std::string> names;
    AddCsvHeader<C>(kCellColumns, &names);
    for (const std::string& name : names) header.push_back(side.label + ":" + name);
    header.push_back(side.label + ":ratio");
  }
  header.emplace_back("faster");
  WriteCsvRow(out, header);
  const size_t cell_fields = std::size(kCellColumns);
  for (const CompareRow& row : result.rows) {
    std::vector<std::string> cells;
    AddCsvCells<R>(kRowColumns, row, &cells);
    for (size_t s = 0; s < row.sides.size(); ++s) {
      if (row.sides[s]) {
        AddCsvCells<C>(kCellColumns, *row.sides[s], &cells);
      } else {
        cells.insert(cells.end(), cell_fields, "");
      }
      cells.push_back(CsvNumber(row.ratio[s]));
    }
    cells.push_back(row.faster ? result.sides[*row.faster].label : "");
    WriteCsvRow(out, cells);
  }
}

}  // namespace

Json CompareJson(const std::vector<const Trace*>& traces, const CompareResult& result) {
  Json inputs = DescribeInputs(traces);
  for (size_t i = 0; i < inputs.size() && i < result.sides.size(); ++i) {
    inputs[i]["label"] = result.sides[i].label;
    Json devices = Json::array();
    for (uint32_t d = 0; d < traces[i]->devices.size(); ++d) {
      devices.push_back(DeviceLabel(*traces[i], d, false));
    }
    inputs[i]["devices"] = std::move(devices);
  }
  Json sides = Json::array();
  for (const CompareSide& side : result.sides) sides.push_back(SideJson(side));
  Json categories = Json::array();
  for (size_t c = 0; c < kWorkCategoryCount; ++c) {
    Json per_side = Json::array();
    bool any = false;
    for (const CompareSide& side : result.sides) {
      any = any || side.category_kernels[c] > 0;
      per_side.push_back(
          {{"device_ns", side.category_ns[c]}, {"kernels", side.category_kernels[c]}});
    }
    if (!any) continue;
    categories.push_back({{"category", WorkCategoryName(static_cast<WorkCategory>(c))},
                          {"sides", std::move(per_side)}});
  }
  Json rows = Json::array();
  for (const CompareRow& row : result.rows) rows.push_back(RowJson(row, result.sides));
  return {{"schema", "tensormorph.compare/1"},
          {"by", CompareByName(result.by)},
          {"keys_include_stack", result.keys_include_stack},
          {"keys_are_nodes", result.keys_are_nodes},
          {"inputs", std::move(inputs)},
          {"sides", std::move(sides)},
          {"verdict", result.verdict},
          {"warnings", result.warnings},
          {"categories", std::move(categories)},
          {"row_count", result.row_count_before_top},
          {"rows", std::move(rows)}};
}

void RenderCompare(std::ostream& out, const std::vector<const Trace*>& traces,
                   const CompareResult& result, OutputFormat format) {
  RenderAs(
      format, [&] { RenderTable(out, result); }, [&] { RenderJson(out, traces, result); },
      [&] { RenderCsv(out, result); });
}

}  // namespace tensormorph
