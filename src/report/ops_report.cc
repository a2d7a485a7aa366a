#include "report/ops_report.h"

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

constexpr size_t kNameWidth = 70;

// "cuda:0 NVIDIA H100 (100%)" or "cuda:0 ... 60% + rocm:1 ... 40%"; "host" without device work.
std::string PlacementText(const OpRow& row, bool with_device) {
  if (row.placements.empty()) return "host";
  int64_t total_ns = 0;
  for (const OpPlacement& p : row.placements) total_ns += p.device_ns;
  std::vector<std::string> parts;
  for (const OpPlacement& p : row.placements) {
    const std::string where = with_device ? p.device : BackendName(p.backend);
    if (row.placements.size() == 1) return where;
    parts.push_back(
        fmt::format("{} {:.0f}%", where, total_ns > 0 ? 100.0 * p.device_ns / total_ns : 0.0));
  }
  return fmt::format("{}", fmt::join(parts, " + "));
}

std::string DisplayName(const OpRow& row) {
  std::string name = row.stack.empty() ? row.name : row.stack + " > " + row.name;
  if (row.origin == "annotation") name += " [annotation]";
  return name;
}

std::string Rate(const std::optional<double>& flops_per_s) {
  return flops_per_s ? fmt::format("{:.3g}", *flops_per_s) : "-";
}

// "1.23 ms x0.81", with "(3 of 5 calls)" when calls nested in other ops are not predicted here;
// "-" without outermost calls, "none" when no call had a prediction.
std::string PredictionText(const OpRow& row, const OpPredictions& all, size_t row_index,
                           size_t target) {
  const std::vector<OpTargetPrediction>& predictions = all.rows[row_index];
  if (predictions.empty()) {
    return all.within[row_index].empty() ? "-" : "in " + all.within[row_index];
  }
  const OpTargetPrediction& p = predictions[target];
  if (!p.predicted_ns) return "none";
  const int64_t measured = p.measured_ns - p.unpredicted_measured_ns;
  std::string text = FormatDuration(*p.predicted_ns);
  if (measured > 0)
    text += fmt::format(" x{:.2f}", static_cast<double>(*p.predicted_ns) / measured);
  if (p.predicted_low_ns && p.predicted_high_ns) {
    text += fmt::format(" [{} - {}]", FormatDuration(*p.predicted_low_ns),
                        FormatDuration(*p.predicted_high_ns));
  }
  if (p.calls < row.calls) text += fmt::format(" ({} of {} calls)", p.calls, row.calls);
  return text;
}

// "roofline", ..., "mixed" when the calls' models differ, "none" without a prediction.
const char* ModelText(const OpTargetPrediction& p) {
  return p.model ? PredictModelName(*p.model) : p.mixed_models ? "mixed" : "none";
}

void RenderPredictNotes(std::ostream& out, const OpPredictions& predictions) {
  for (const PredictTargetInfo& t : predictions.targets) {
    out << fmt::format("on {}: {}\n", t.key,
                       t.unusable.empty() ? t.name : "cannot be predicted: " + t.unusable);
  }
  for (size_t i = 0; i < predictions.source_labels.size(); ++i) {
    const std::string& key = predictions.source_keys[i];
    out << fmt::format("input {} measured on {}{}\n", i, predictions.source_labels[i],
                       key.empty() ? " (not in the device database: no prediction)" : "");
  }
  out << "predicted: the op's outermost calls on the target; x = predicted / measured for those "
         "calls; calls nested in another op are predicted with it (\"in OP\": all of them are); "
         "models and per-shape rows: tensormorph predict TRACE --device KEY\n";
}

void RenderTable(std::ostream& out, const std::vector<const Trace*>& traces, const OpQuery& query,
                 const OpSummary& summary, const OpPredictions* predictions) {
  TextTable table;
  using A = TextTable::Align;
  const bool instances = query.by_instance;
  if (instances) table.AddColumn("Start", A::kRight);
  for (const char* h : {"Device(self)", "Device(incl)", "Host", "Calls", "Kernels", "FLOP/s"}) {
    table.AddColumn(h, A::kRight);
  }
  // The roof columns only where some row has shapes to compute it from.
  const bool roofs = std::any_of(summary.rows.begin(), summary.rows.end(),
                                 [](const OpRow& r) { return r.bound.has_value(); });
  if (roofs) {
    table.AddColumn("% of roof", A::kRight);
    table.AddColumn("Bound", A::kLeft);
  }
  table.AddColumn("Served by", A::kLeft, 40);
  if (predictions) {
    for (const PredictTargetInfo& t : predictions->targets) {
      table.AddColumn("On " + t.key, A::kRight);
    }
  }
  if (query.by_input || instances) table.AddColumn("Input", A::kRight);
  table.AddColumn(query.by_stack ? "Module path > op" : "Op", A::kLeft, kNameWidth);
  for (size_t row = 0; row < summary.rows.size(); ++row) {
    const OpRow& r = summary.rows[row];
    std::vector<std::string> cells;
    if (instances)
      cells.push_back(r.start_ns >= 0 ? FormatDuration(r.start_ns - traces[r.input]->span_start_ns)
                                      : "-");
    cells.push_back(FormatDuration(r.device_ns));
    cells.push_back(FormatDuration(r.device_inclusive_ns));
    cells.push_back(r.calls > 0 ? FormatDuration(r.host_ns) : "-");
    cells.push_back(std::to_string(r.calls));
    cells.push_back(r.graph_kernels > 0 ? fmt::format("{} ({} graph)", r.kernels, r.graph_kernels)
                                        : std::to_string(r.kernels));
    cells.push_back(Rate(r.achieved_flops_per_s));
    if (roofs) {
      cells.push_back(r.percent_of_roof ? fmt::format("{:.1f}", *r.percent_of_roof) : "-");
      cells.emplace_back(r.bound ? BoundName(*r.bound) : "-");
    }
    cells.push_back(PlacementText(r, true));
    if (predictions) {
      for (size_t t = 0; t < predictions->targets.size(); ++t) {
        cells.push_back(PredictionText(r, *predictions, row, t));
      }
    }
    if (query.by_input || instances) cells.push_back(std::to_string(r.input));
    cells.push_back(DisplayName(r));
    table.AddRow(std::move(cells));
  }
  if (!summary.rows.empty()) table.Print(out);
  out << fmt::format("\n{} op calls; {} kernels, {} of device time", summary.ops, summary.kernels,
                     FormatDuration(summary.kernel_ns));
  if (summary.kernels > 0) {
    out << fmt::format(
        "; {} kernels ({:.1f}% of the time) attributed to an op or annotation",
        summary.attributed_kernels,
        summary.kernel_ns > 0 ? 100.0 * summary.attributed_ns / summary.kernel_ns : 0.0);
  }
  if (summary.graph_kernels > 0) {
    out << fmt::format("; {} kernels of graph replays", summary.graph_kernels);
  }
  if (summary.rows.size() < summary.row_count_before_top) {
    out << fmt::format("; showing the top {} of {} rows", summary.rows.size(),
                       summary.row_count_before_top);
  }
  out << '\n';
  if (summary.host_only && summary.ops > 0) {
    out << "no device work in the input: ops ranked by host time\n";
  }
  if (query.by_input || instances) {
    for (size_t i = 0; i < traces.size(); ++i)
      out << fmt::format("input {}: {}\n", i, traces[i]->path);
  }
  if (predictions) RenderPredictNotes(out, *predictions);
}

}  // namespace

Json OpPlacementsJson(const std::vector<OpPlacement>& placements) {
  Json out = Json::array();
  for (const OpPlacement& p : placements) {
    out.push_back({{"backend", BackendName(p.backend)},
                   {"device", p.device},
                   {"device_ns", p.device_ns},
                   {"kernels", p.kernels}});
  }
  return out;
}

namespace {

using O = OpRow;

// The fields of an op row (docs/ops.md), in the order JSON and CSV write them: JSON
// has the placements and top kernels, CSV them in one "served_by" cell.
const Column<O> kColumns[] = {
    {"name", [](const O& r) { return Json(r.name); }, [](const O& r) { return r.name; }},
    {"origin", [](const O& r) { return Json(r.origin); }, [](const O& r) { return r.origin; }},
    {"stack", [](const O& r) { return Json(r.stack); }, [](const O& r) { return r.stack; }},
    {"calls", [](const O& r) { return Json(r.calls); },
     [](const O& r) { return std::to_string(r.calls); }},
    {"host_ns", [](const O& r) { return Json(r.host_ns); },
     [](const O& r) { return std::to_string(r.host_ns); }},
    {"device_ns", [](const O& r) { return Json(r.device_ns); },
     [](const O& r) { return std::to_string(r.device_ns); }},
    {"device_inclusive_ns", [](const O& r) { return Json(r.device_inclusive_ns); },
     [](const O& r) { return std::to_string(r.device_inclusive_ns); }},
    {"kernels", [](const O& r) { return Json(r.kernels); },
     [](const O& r) { return std::to_string(r.kernels); }},
    {"graph_kernels", [](const O& r) { return Json(r.graph_kernels); },
     [](const O& r) { return std::to_string(r.graph_kernels); }},
    {"transfer_ns", [](const O& r) { return Json(r.transfer_ns); },
     [](const O& r) { return std::to_string(r.transfer_ns); }},
    {"placements", [](const O& r) { return OpPlacementsJson(r.placements); }},
    {"top_kernels",
     [](const O& r) {
       Json kernels = Json::array();
       for (const OpKernel& k : r.top_kernels) {
         kernels.push_back({{"name", k.name}, {"count", k.count}, {"total_ns", k.total_ns}});
       }
       return kernels;
     }},
    {"served_by", nullptr, [](const O& r) { return PlacementText(r, true); }},
    {"flops", [](const O& r) { return OrNull(r.flops); },
     [](const O& r) { return CsvNumber(r.flops); }},
    {"bytes", [](const O& r) { return OrNull(r.bytes); }},
    {"calls_with_flops", [](const O& r) { return Json(r.calls_with_flops); }},
    {"achieved_flops_per_s", [](const O& r) { return OrNull(r.achieved_flops_per_s); },
     [](const O& r) { return CsvNumber(r.achieved_flops_per_s); }},
    {"percent_of_roof", [](const O& r) { return OrNull(r.percent_of_roof); },
     [](const O& r) { return CsvNumber(r.percent_of_roof); }},
    {"bound", [](const O& r) { return r.bound ? Json(BoundName(*r.bound)) : Json(nullptr); },
     [](const O& r) { return std::string(r.bound ? BoundName(*r.bound) : ""); }},
    {"bound_source", [](const O& r) { return OrNull(r.bound_source); },
     [](const O& r) { return r.bound_source; }},
};
// With --by-input or --by-instance.
const Column<O> kInputColumns[] = {
    {"input", [](const O& r) { return Json(r.input); },
     [](const O& r) { return std::to_string(r.input); }},
};
// With --by-instance.
const Column<O> kInstanceColumns[] = {
    {"start_ns", [](const O& r) { return Json(r.start_ns); },
     [](const O& r) { return std::to_string(r.start_ns); }},
};

// The columns the query adds after kColumns, in order.
std::vector<std::span<const Column<O>>> QueryColumns(const OpQuery& query) {
  std::vector<std::span<const Column<O>>> extra;
  if (query.by_input || query.by_instance) extra.emplace_back(kInputColumns);
  if (query.by_instance) extra.emplace_back(kInstanceColumns);
  return extra;
}

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces, const OpQuery& query,
                const OpSummary& summary, const OpPredictions* predictions) {
  Json rows = Json::array();
  for (size_t i = 0; i < summary.rows.size(); ++i) {
    rows.push_back(OpRowJson(summary.rows[i], query, predictions, i));
  }
  Json doc = {{"schema", "tensormorph.ops/1"},
              {"inputs", DescribeInputs(traces)},
              {"op_calls", summary.ops},
              {"kernels", summary.kernels},
              {"kernel_ns", summary.kernel_ns},
              {"attributed_kernels", summary.attributed_kernels},
              {"attributed_ns", summary.attributed_ns},
              {"graph_kernels", summary.graph_kernels},
              {"ranked_by", summary.host_only ? "host_ns" : "device_ns"},
              {"rows", std::move(rows)}};
  if (predictions) doc["predict"] = OpPredictTargetsJson(*predictions);
  if (summary.rows.empty()) doc["note"] = "no framework ops and no device work in the input";
  WriteJson(out, doc);
}

// --predict in CSV: per target, KEY:predicted_calls, KEY:predicted_measured_ns, KEY:predicted_ns,
// KEY:predicted_low_ns, KEY:predicted_high_ns and KEY:model, as `predict --format csv` names its
// columns (empty cells for a row without a
// prediction).
void AddPredictCsvHeader(const OpPredictions& predictions, std::vector<std::string>* header) {
  for (const PredictTargetInfo& t : predictions.targets) {
    for (const char* field : {"predicted_calls", "predicted_measured_ns", "predicted_ns",
                              "predicted_low_ns", "predicted_high_ns", "model"}) {
      header->push_back(fmt::format("{}:{}", t.key, field));
    }
  }
}

void AddPredictCsvCells(const std::vector<OpTargetPrediction>& row, size_t targets,
                        std::vector<std::string>* cells) {
  for (size_t t = 0; t < targets; ++t) {
    if (row.empty()) {
      cells->insert(cells->end(), 6, "");
      continue;
    }
    const OpTargetPrediction& p = row[t];
    cells->push_back(std::to_string(p.calls));
    cells->push_back(std::to_string(p.measured_ns));
    for (const std::optional<int64_t>& ns :
         {p.predicted_ns, p.predicted_low_ns, p.predicted_high_ns}) {
      cells->push_back(ns ? std::to_string(*ns) : "");
    }
    cells->push_back(ModelText(p));
  }
}

void RenderCsv(std::ostream& out, const OpQuery& query, const OpSummary& summary,
               const OpPredictions* predictions) {
  const std::vector<std::span<const Column<O>>> extra = QueryColumns(query);
  std::vector<std::string> header;
  AddCsvHeader<O>(kColumns, &header);
  for (auto columns : extra) AddCsvHeader(columns, &header);
  if (predictions) AddPredictCsvHeader(*predictions, &header);
  WriteCsvRow(out, header);
  for (size_t i = 0; i < summary.rows.size(); ++i) {
    const OpRow& r = summary.rows[i];
    std::vector<std::string> cells;
    AddCsvCells<O>(kColumns, r, &cells);
    for (auto columns : extra) AddCsvCells(columns, r, &cells);
    if (predictions) AddPredictCsvCells(predictions->rows[i], predictions->targets.size(), &cells);
    WriteCsvRow(out, cells);
  }
}

}  // namespace

Json OpRowJson(const OpRow& row, const OpQuery& query, const OpPredictions* predictions,
               size_t index) {
  Json object = ColumnsJson<O>(kColumns, row);
  for (auto columns : QueryColumns(query)) AddJsonFields(columns, row, &object);
  if (predictions != nullptr) {
    object["predicted_within"] = OrNull(predictions->within[index]);
    Json list = Json::array();
    const std::vector<OpTargetPrediction>& row_predictions = predictions->rows[index];
    for (size_t t = 0; t < row_predictions.size(); ++t) {
      const OpTargetPrediction& p = row_predictions[t];
      list.push_back({{"target", predictions->targets[t].key},
                      {"calls", p.calls},
                      {"measured_ns", p.measured_ns},
                      {"predicted_ns", OrNull(p.predicted_ns)},
                      {"predicted_low_ns", OrNull(p.predicted_low_ns)},
                      {"predicted_high_ns", OrNull(p.predicted_high_ns)},
                      {"unpredicted_measured_ns", p.unpredicted_measured_ns},
                      {"model", ModelText(p)}});
    }
    object["predictions"] = std::move(list);
  }
  return object;
}

Json OpPredictTargetsJson(const OpPredictions& predictions) {
  Json targets = Json::array(), sources = Json::array();
  for (const PredictTargetInfo& t : predictions.targets) {
    targets.push_back({{"key", t.key}, {"name", t.name}, {"unusable", OrNull(t.unusable)}});
  }
  for (size_t i = 0; i < predictions.source_labels.size(); ++i) {
    sources.push_back({{"input", i},
                       {"label", predictions.source_labels[i]},
                       {"database_key", OrNull(predictions.source_keys[i])}});
  }
  return {{"targets", std::move(targets)}, {"sources", std::move(sources)}};
}

void RenderOps(std::ostream& out, const std::vector<const Trace*>& traces, const OpQuery& query,
               const OpSummary& summary, OutputFormat format, const OpPredictions* predictions) {
  RenderAs(
      format,
      [&] {
        if (summary.rows.empty()) {
          out << "no framework ops and no device work in the input\n";
          return;
        }
        RenderTable(out, traces, query, summary, predictions);
      },
      [&] { RenderJson(out, traces, query, summary, predictions); },
      [&] { RenderCsv(out, query, summary, predictions); });
}

}  // namespace tensormorph
