// EvaluatePrediction (predict.h): the model against two baselines on a trace of the target.

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include "analysis/predict/roof_time.h"
#include "tensormorph/analysis/predict/predict.h"

namespace tensormorph {
namespace {

struct Errors {
  std::vector<double> model, no_change, peak_ratio;
  bool peak_known = true;
  EvaluationScore score;
};

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  return (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid)) +
          upper) /
         2;
}

double PercentError(double predicted, int64_t measured) {
  return 100.0 * std::fabs(predicted - static_cast<double>(measured)) /
         static_cast<double>(measured);
}

bool ComputeCategory(WorkCategory c) {
  return c == WorkCategory::kGemm || c == WorkCategory::kAttention ||
         c == WorkCategory::kConvolution;
}

// source peak / target peak for the row's bound (see EvaluationScore).
std::optional<double> PeakRatio(const PredictRow& row, Precision dominant, const DeviceSpec& source,
                                const DeviceSpec& target) {
  bool compute = ComputeCategory(row.category);
  Precision precision = dominant;
  if (row.flops && row.bytes) {
    precision = row.precision;
    if (std::optional<RoofTime> roof = RoofTimeOn(source, precision, *row.flops, *row.bytes)) {
      compute = roof->compute_bound();
    }
  }
  const std::optional<double> a = compute ? ComputePeakOf(source, precision) : BandwidthOf(source);
  const std::optional<double> b = compute ? ComputePeakOf(target, precision) : BandwidthOf(target);
  if (!a || !b) return std::nullopt;
  return *a / *b;
}

void Finish(Errors& e) {
  EvaluationScore& s = e.score;
  s.model_mdape = Median(e.model);
  s.no_change_mdape = Median(e.no_change);
  s.model_total_error = PercentError(static_cast<double>(s.predicted_ns), s.target_ns);
  s.no_change_total_error = PercentError(static_cast<double>(s.source_ns), s.target_ns);
  if (!e.peak_known) {
    s.peak_ratio_ns.reset();
    return;
  }
  s.peak_ratio_mdape = Median(e.peak_ratio);
  s.peak_ratio_total_error =
      PercentError(static_cast<double>(s.peak_ratio_ns.value_or(0)), s.target_ns);
}

}  // namespace

PredictEvaluation EvaluatePrediction(const CompareResult& pair, const PredictResult& predicted,
                                     const DeviceSpec& source, const DeviceSpec& target,
                                     const std::string& measured_path) {
  PredictEvaluation out;
  out.measured_path = measured_path;
  out.target_key = target.key;
  // The precision with the most FLOPs over the rows, for compute rows without work.
  std::array<double, kPrecisionCount> flops_by_precision{};
  for (const PredictRow& row : predicted.rows) {
    if (row.flops) flops_by_precision[static_cast<size_t>(row.precision)] += *row.flops;
  }
  const auto dominant = static_cast<Precision>(
      std::max_element(flops_by_precision.begin(), flops_by_precision.end()) -
      flops_by_precision.begin());

  std::unordered_map<std::string, const CompareRow*> by_key;
  for (const CompareRow& row : pair.rows) by_key.emplace(row.key, &row);
  Errors overall, small;
  std::array<Errors, kWorkCategoryCount> categories;
  out.target_ns.resize(predicted.rows.size());
  out.peak_ratio_ns.resize(predicted.rows.size());
  for (size_t r = 0; r < predicted.rows.size(); ++r) {
    const PredictRow& row = predicted.rows[r];
    auto it = by_key.find(row.key);
    if (it == by_key.end() || !it->second->matched || !it->second->sides[1]) continue;
    const int64_t measured = it->second->sides[1]->device_ns;
    out.target_ns[r] = measured;
    if (measured <= 0 || row.measured_ns <= 0) continue;
    const Prediction& p = row.predictions[0];
    if (!p.predicted_ns) {
      ++out.rows_without_prediction;
      out.target_ns_without_prediction += measured;
      continue;
    }
    const std::optional<double> peak = PeakRatio(row, dominant, source, target);
    if (peak) out.peak_ratio_ns[r] = std::llround(static_cast<double>(row.measured_ns) * *peak);
    if (p.predicted_low_ns && p.predicted_high_ns) {
      ++out.interval_rows;
      out.inside_interval += *p.predicted_low_ns <= measured && measured <= *p.predicted_high_ns;
    }
    std::vector<Errors*> scores = {&overall, &categories[static_cast<size_t>(row.category)]};
    if (IsSmallRow(row)) scores.push_back(&small);
    for (Errors* e : scores) {
      e->model.push_back(PercentError(static_cast<double>(*p.predicted_ns), measured));
      e->no_change.push_back(PercentError(static_cast<double>(row.measured_ns), measured));
      if (peak) {
        e->peak_ratio.push_back(PercentError(static_cast<double>(*out.peak_ratio_ns[r]), measured));
      }
      e->peak_known = e->peak_known && peak.has_value();
      ++e->score.rows;
      e->score.source_ns += row.measured_ns;
      e->score.target_ns += measured;
      e->score.predicted_ns += *p.predicted_ns;
      if (peak) e->score.peak_ratio_ns = e->score.peak_ratio_ns.value_or(0) + *out.peak_ratio_ns[r];
    }
  }
  Finish(overall);
  out.overall = overall.score;
  if (small.score.rows > 0) {
    Finish(small);
    out.small_rows = small.score;
  }
  Errors totals;  // one entry per category: its total's error
  for (size_t c = 0; c < kWorkCategoryCount; ++c) {
    if (categories[c].score.rows == 0) continue;
    Finish(categories[c]);
    const EvaluationScore& s = categories[c].score;
    out.categories[c] = s;
    totals.model.push_back(s.model_total_error);
    totals.no_change.push_back(s.no_change_total_error);
    if (s.peak_ratio_total_error) totals.peak_ratio.push_back(*s.peak_ratio_total_error);
    totals.peak_known = totals.peak_known && s.peak_ratio_total_error.has_value();
  }
  out.category_totals.categories = totals.model.size();
  out.category_totals.model_mdape = Median(totals.model);
  out.category_totals.no_change_mdape = Median(totals.no_change);
  if (totals.peak_known) out.category_totals.peak_ratio_mdape = Median(totals.peak_ratio);
  return out;
}

}  // namespace tensormorph
