#include "report/predict_report.h"

#include <fmt/format.h>

#include "model/time.h"
#include "report/columns.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/memory_report.h"
#include "report/table.h"

namespace tensormorph {
namespace {

constexpr size_t kNameWidth = 80;

using R = PredictRow;
const Column<R> kRowColumns[] = {
    {"key", [](const R& r) { return Json(r.key); }, [](const R& r) { return r.key; }},
    {"name", [](const R& r) { return Json(r.name); }, [](const R& r) { return r.name; }},
    {"category", [](const R& r) { return Json(WorkCategoryName(r.category)); },
     [](const R& r) { return std::string(WorkCategoryName(r.category)); }},
    {"origin", [](const R& r) { return Json(r.origin); }, [](const R& r) { return r.origin; }},
    {"shapes", [](const R& r) { return OrNull(r.shapes); }, [](const R& r) { return r.shapes; }},
    {"dtypes", [](const R& r) { return OrNull(r.dtypes); }, [](const R& r) { return r.dtypes; }},
    {"calls", [](const R& r) { return Json(r.calls); },
     [](const R& r) { return std::to_string(r.calls); }},
    {"kernels", [](const R& r) { return Json(r.kernels); },
     [](const R& r) { return std::to_string(r.kernels); }},
    {"measured_ns", [](const R& r) { return Json(r.measured_ns); },
     [](const R& r) { return std::to_string(r.measured_ns); }},
    {"counted_ns", [](const R& r) { return Json(r.counted_ns); },
     [](const R& r) { return std::to_string(r.counted_ns); }},
    {"flops", [](const R& r) { return OrNull(r.flops); },
     [](const R& r) { return CsvNumber(r.flops); }},
    {"bytes", [](const R& r) { return OrNull(r.bytes); },
     [](const R& r) { return CsvNumber(r.bytes); }},
    {"precision",
     [](const R& r) { return r.flops ? Json(PrecisionName(r.precision)) : Json(nullptr); },
     [](const R& r) { return r.flops ? std::string(PrecisionName(r.precision)) : std::string(); }},
};

const char* BoundText(const std::optional<Bound>& bound) {
  return bound ? BoundName(*bound) : nullptr;
}

Json PredictionJson(const PredictTargetInfo& target, const Prediction& p) {
  return {{"target", target.key},
          {"predicted_ns", OrNull(p.predicted_ns)},
          {"predicted_low_ns", OrNull(p.predicted_low_ns)},
          {"predicted_high_ns", OrNull(p.predicted_high_ns)},
          {"model", PredictModelName(p.model)},
          {"bound", OrNull(BoundText(p.bound))},
          {"calibration", OrNull(p.calibration)},
          {"why_none", OrNull(p.why_none)}};
}

Json TotalJson(const PredictTargetInfo& target, const PredictTargetTotal& t) {
  return {{"target", target.key},
          {"measured_ns", t.measured_ns},
          {"predicted_ns", t.predicted_ns},
          {"unpredicted_measured_ns", t.unpredicted_measured_ns}};
}

std::string RowName(const PredictRow& row) {
  std::string name = row.name;
  if (!row.shapes.empty()) name += " " + row.shapes;
  if (!row.dtypes.empty()) name += " " + row.dtypes;
  return name;
}

// "1.234 ms (0.81×)": the prediction and its ratio to the measured time; "-" for none.
std::string PredictedText(const std::optional<int64_t>& predicted, int64_t measured) {
  if (!predicted) return "-";
  if (measured <= 0) return FormatDuration(static_cast<double>(*predicted));
  return fmt::format("{} ({:.2f}×)", FormatDuration(static_cast<double>(*predicted)),
                     static_cast<double>(*predicted) / static_cast<double>(measured));
}

std::string TotalText(const PredictTargetTotal& t) {
  if (t.measured_ns > 0 && t.unpredicted_measured_ns == t.measured_ns) return "- (none predicted)";
  std::string text = PredictedText(t.predicted_ns, t.measured_ns - t.unpredicted_measured_ns);
  if (t.unpredicted_measured_ns > 0) {
    text += fmt::format(" + {} unpredicted",
                        FormatDuration(static_cast<double>(t.unpredicted_measured_ns)));
  }
  return text;
}

Json ScoreJson(const EvaluationScore& score) {
  return {{"rows", score.rows},
          {"source_ns", score.source_ns},
          {"target_ns", score.target_ns},
          {"predicted_ns", score.predicted_ns},
          {"peak_ratio_ns", OrNull(score.peak_ratio_ns)},
          {"model_mdape", score.model_mdape},
          {"no_change_mdape", score.no_change_mdape},
          {"peak_ratio_mdape", OrNull(score.peak_ratio_mdape)},
          {"model_total_error", score.model_total_error},
          {"no_change_total_error", score.no_change_total_error},
          {"peak_ratio_total_error", OrNull(score.peak_ratio_total_error)}};
}

Json EvaluationJson(const PredictEvaluation& e) {
  Json categories = Json::array();
  for (size_t c = 0; c < kWorkCategoryCount && e.no_basis.empty(); ++c) {
    if (!e.categories[c]) continue;
    Json score = ScoreJson(*e.categories[c]);
    score["category"] = WorkCategoryName(static_cast<WorkCategory>(c));
    categories.push_back(std::move(score));
  }
  return {
      {"measured_path", e.measured_path},
      {"target", e.target_key},
      {"no_basis", OrNull(e.no_basis)},
      {"overall", e.no_basis.empty() ? ScoreJson(e.overall) : Json(nullptr)},
      {"categories", std::move(categories)},
      {"small_rows", e.no_basis.empty() && e.small_rows ? ScoreJson(*e.small_rows) : Json(nullptr)},
      {"category_totals",
       e.no_basis.empty() ? Json{{"categories", e.category_totals.categories},
                                 {"model_mdape", e.category_totals.model_mdape},
                                 {"no_change_mdape", e.category_totals.no_change_mdape},
                                 {"peak_ratio_mdape", OrNull(e.category_totals.peak_ratio_mdape)}}
                          : Json(nullptr)},
      {"interval_rows", e.interval_rows},
      {"inside_interval", e.inside_interval},
      {"rows_without_prediction", e.rows_without_prediction},
      {"target_ns_without_prediction", e.target_ns_without_prediction}};
}

std::string Mdape(double value) {
  return fmt::format("{:.1f} %", value);
}

void RenderEvaluation(std::ostream& out, const PredictEvaluation& e) {
  using A = TextTable::Align;
  if (!e.no_basis.empty()) {
    out << fmt::format("Not evaluated on {} ({}): {}\n\n", e.measured_path, e.target_key,
                       e.no_basis);
    return;
  }
  out << fmt::format(
      "Evaluated on {} ({}): median absolute error per row, over the rows "
      "matched on both traces\n",
      e.measured_path, e.target_key);
  TextTable table;
  table.AddColumn("Category", A::kLeft);
  for (const char* h :
       {"Rows", "Measured there", "Predicted", "Model", "No change", "Peak ratio"}) {
    table.AddColumn(h, A::kRight);
  }
  auto add = [&](const std::string& name, const EvaluationScore& s) {
    table.AddRow({name, std::to_string(s.rows), FormatDuration(static_cast<double>(s.target_ns)),
                  FormatDuration(static_cast<double>(s.predicted_ns)), Mdape(s.model_mdape),
                  Mdape(s.no_change_mdape), s.peak_ratio_mdape ? Mdape(*s.peak_ratio_mdape) : "-"});
  };
  for (size_t c = 0; c < kWorkCategoryCount; ++c) {
    if (e.categories[c]) add(WorkCategoryName(static_cast<WorkCategory>(c)), *e.categories[c]);
  }
  add("all", e.overall);
  if (e.small_rows)
    add(fmt::format("under {} per call", FormatDuration(kSmallRowNs)), *e.small_rows);
  table.Print(out);
  const CategoryTotalsScore& t = e.category_totals;
  out << fmt::format(
      "Per category total (median over {} categories of the error of their summed time): model "
      "{}, no change {}, peak ratio {}\n",
      t.categories, Mdape(t.model_mdape), Mdape(t.no_change_mdape),
      t.peak_ratio_mdape ? Mdape(*t.peak_ratio_mdape) : "-");
  if (e.interval_rows > 0) {
    out << fmt::format(
        "Measured time inside the predicted interval on {} of {} rows ({:.1f} %)\n",
        e.inside_interval, e.interval_rows,
        100.0 * static_cast<double>(e.inside_interval) / static_cast<double>(e.interval_rows));
  }
  if (e.rows_without_prediction > 0) {
    out << fmt::format("{} matched rows ({} there) have no prediction\n", e.rows_without_prediction,
                       FormatDuration(static_cast<double>(e.target_ns_without_prediction)));
  }
  out << '\n';
}

void RenderTable(std::ostream& out, const PredictResult& result,
                 const PredictEvaluation* evaluation) {
  using A = TextTable::Align;
  out << "Measured on " << (result.source_label.empty() ? "-" : result.source_label);
  if (!result.source_key.empty()) {
    out << fmt::format(" ({}, family {})", result.source_key, result.source_family);
  } else {
    out << " (not in the device database: " << result.source_match << ")";
  }
  out << '\n';
  const WorkCoverage& c = result.coverage;
  out << fmt::format(
      "Work estimated from shapes for {:.1f} % of the kernel time ({:.1f} % of the "
      "computation under ops; {} under no op, {} of communication)\n",
      100 * c.share(), 100 * c.share_under_ops(),
      FormatDuration(static_cast<double>(c.under_no_op_ns)),
      FormatDuration(static_cast<double>(c.communication_ns)));
  for (const PredictTargetInfo& t : result.targets) {
    out << fmt::format("Target {}: {} (family {})", t.key, t.name, t.family);
    if (!t.unusable.empty()) out << ": " << t.unusable;
    out << '\n';
  }
  if (result.memory) {
    std::vector<MemoryFit> fits;
    for (const PredictTargetInfo& t : result.targets) fits.push_back(t.memory);
    out << "Memory: " << DescribeMemoryFits(*result.memory, fits) << '\n';
  }
  out << '\n';

  TextTable totals;
  totals.AddColumn("Category", A::kLeft);
  totals.AddColumn("Measured", A::kRight);
  for (const PredictTargetInfo& t : result.targets) totals.AddColumn(t.key, A::kRight, 44);
  for (const PredictCategory& c : result.categories) {
    std::vector<std::string> cells = {WorkCategoryName(c.category),
                                      FormatDuration(static_cast<double>(c.measured_ns))};
    for (const PredictTargetTotal& t : c.targets) cells.push_back(TotalText(t));
    totals.AddRow(std::move(cells));
  }
  if (!result.totals.empty()) {
    std::vector<std::string> cells = {
        "total", FormatDuration(static_cast<double>(result.totals[0].measured_ns))};
    for (const PredictTargetTotal& t : result.totals) cells.push_back(TotalText(t));
    totals.AddRow(std::move(cells));
  }
  totals.Print(out);
  out << '\n';
  if (evaluation != nullptr) RenderEvaluation(out, *evaluation);

  TextTable rows;
  rows.AddColumn("Measured", A::kRight);
  if (evaluation != nullptr) rows.AddColumn("There", A::kRight);
  for (const PredictTargetInfo& t : result.targets) {
    rows.AddColumn(t.key, A::kRight, 28);
    rows.AddColumn("10-90 %", A::kRight);
    rows.AddColumn("Model", A::kLeft);
    rows.AddColumn("Bound", A::kLeft);
  }
  rows.AddColumn("Calls", A::kRight);
  rows.AddColumn("Category", A::kLeft);
  rows.AddColumn("Op (by shape)", A::kLeft, kNameWidth);
  for (size_t r = 0; r < result.rows.size(); ++r) {
    const PredictRow& row = result.rows[r];
    std::vector<std::string> cells = {FormatDuration(static_cast<double>(row.measured_ns))};
    if (evaluation != nullptr) {
      const std::optional<int64_t>& there = evaluation->target_ns[r];
      cells.push_back(there ? FormatDuration(static_cast<double>(*there)) : "-");
    }
    for (const Prediction& p : row.predictions) {
      cells.push_back(PredictedText(p.predicted_ns, row.measured_ns));
      cells.push_back(p.predicted_low_ns && p.predicted_high_ns
                          ? FormatDuration(static_cast<double>(*p.predicted_low_ns)) + " - " +
                                FormatDuration(static_cast<double>(*p.predicted_high_ns))
                          : "-");
      cells.emplace_back(PredictModelName(p.model));
      cells.emplace_back(p.bound ? BoundName(*p.bound) : "-");
    }
    cells.push_back(std::to_string(row.calls));
    cells.emplace_back(WorkCategoryName(row.category));
    cells.push_back(RowName(row));
    rows.AddRow(std::move(cells));
  }
  rows.Print(out);
  out << fmt::format("\n{} rows", result.row_count_before_top);
  if (result.rows.size() < result.row_count_before_top) {
    out << fmt::format(", showing the top {}", result.rows.size());
  }
  out << "; (×) = predicted / measured; 10-90 %: the range held-out rows of the category and size "
         "fell in; models: docs/predict.md\n";
}

void RenderCsv(std::ostream& out, const PredictResult& result) {
  std::vector<std::string> header;
  AddCsvHeader<R>(kRowColumns, &header);
  for (const PredictTargetInfo& t : result.targets) {
    for (const char* field :
         {"predicted_ns", "predicted_low_ns", "predicted_high_ns", "model", "bound"}) {
      header.push_back(t.key + ":" + field);
    }
  }
  WriteCsvRow(out, header);
  for (const PredictRow& row : result.rows) {
    std::vector<std::string> cells;
    AddCsvCells<R>(kRowColumns, row, &cells);
    for (const Prediction& p : row.predictions) {
      for (const std::optional<int64_t>& ns :
           {p.predicted_ns, p.predicted_low_ns, p.predicted_high_ns}) {
        cells.push_back(ns ? std::to_string(*ns) : "");
      }
      cells.emplace_back(PredictModelName(p.model));
      cells.emplace_back(p.bound ? BoundName(*p.bound) : "");
    }
    WriteCsvRow(out, cells);
  }
}

}  // namespace

Json PredictJson(const Trace& trace, const PredictResult& result,
                 const PredictEvaluation* evaluation) {
  Json targets = Json::array();
  for (const PredictTargetInfo& t : result.targets) {
    targets.push_back(
        {{"key", t.key}, {"name", t.name}, {"family", t.family}, {"unusable", OrNull(t.unusable)}});
  }
  Json rows = Json::array();
  for (size_t r = 0; r < result.rows.size(); ++r) {
    const PredictRow& row = result.rows[r];
    Json object = ColumnsJson<R>(kRowColumns, row);
    if (evaluation != nullptr) {
      object["measured_on_target_ns"] = OrNull(evaluation->target_ns[r]);
      object["peak_ratio_ns"] = OrNull(evaluation->peak_ratio_ns[r]);
    }
    Json predictions = Json::array();
    for (size_t t = 0; t < row.predictions.size(); ++t) {
      predictions.push_back(PredictionJson(result.targets[t], row.predictions[t]));
    }
    object["predictions"] = std::move(predictions);
    rows.push_back(std::move(object));
  }
  Json categories = Json::array();
  for (const PredictCategory& c : result.categories) {
    Json predictions = Json::array();
    for (size_t t = 0; t < c.targets.size(); ++t) {
      predictions.push_back(TotalJson(result.targets[t], c.targets[t]));
    }
    categories.push_back({{"category", WorkCategoryName(c.category)},
                          {"measured_ns", c.measured_ns},
                          {"predictions", std::move(predictions)}});
  }
  Json totals = Json::array();
  for (size_t t = 0; t < result.totals.size(); ++t) {
    totals.push_back(TotalJson(result.targets[t], result.totals[t]));
  }
  Json memory = nullptr;
  if (result.memory) {
    std::vector<MemoryFit> fits;
    for (const PredictTargetInfo& t : result.targets) fits.push_back(t.memory);
    memory = WorkloadMemoryJson(*result.memory, fits);
  }
  return {{"schema", "tensormorph.predict/1"},
          {"inputs", DescribeInputs({&trace})},
          {"source_device",
           {{"label", OrNull(result.source_label)},
            {"database_key", OrNull(result.source_key)},
            {"family", OrNull(result.source_family)},
            {"match", OrNull(result.source_match)}}},
          {"targets", std::move(targets)},
          {"row_count", result.row_count_before_top},
          {"work_coverage",
           {{"kernel_ns", result.coverage.kernel_ns},
            {"counted_ns", result.coverage.counted_ns},
            {"under_no_op_ns", result.coverage.under_no_op_ns},
            {"communication_ns", result.coverage.communication_ns},
            {"share", result.coverage.share()},
            {"share_under_ops", result.coverage.share_under_ops()}}},
          {"rows", std::move(rows)},
          {"categories", std::move(categories)},
          {"totals", std::move(totals)},
          {"evaluation", evaluation ? EvaluationJson(*evaluation) : Json(nullptr)},
          {"memory", std::move(memory)}};
}

void RenderPredict(std::ostream& out, const Trace& trace, const PredictResult& result,
                   const PredictEvaluation* evaluation, OutputFormat format) {
  RenderAs(
      format, [&] { RenderTable(out, result, evaluation); },
      [&] { WriteJson(out, PredictJson(trace, result, evaluation)); },
      [&] { RenderCsv(out, result); });
}

}  // namespace tensormorph
