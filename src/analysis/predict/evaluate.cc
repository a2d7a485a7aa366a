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
  e.score.model_mdape = Median(e.model);
  e.score.no_change_mdape = Median(e.no_change);
  if (e.peak_known) e.score.peak_ratio_mdape = Median(e.peak_ratio);
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
  Errors overall;
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
    for (Errors* e : {&overall, &categories[static_cast<size_t>(row.category)]}) {
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
    }
  }
  Finish(overall);
  out.overall = overall.score;
  for (size_t c = 0; c < kWorkCategoryCount; ++c) {
    if (categories[c].score.rows == 0) continue;
    Finish(categories[c]);
    out.categories[c] = categories[c].score;
  }
  return out;
}

}  // namespace tensormorph
