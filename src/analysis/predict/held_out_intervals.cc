// HeldOutIntervals (calibrate_internal.h): how far each workload's rows were from their
// prediction by a calibration that never saw the workload.
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "analysis/predict/calibrate_internal.h"
#include "tensormorph/analysis/predict/predict.h"

namespace tensormorph {
namespace {

// The workloads of the calibration: sources joined by the pairs (connected components).
std::vector<size_t> WorkloadOf(size_t sources, const std::vector<CalibrationPair>& pairs) {
  std::vector<size_t> of(sources);
  for (size_t i = 0; i < sources; ++i) of[i] = i;
  auto root = [&](size_t i) {
    while (of[i] != i) i = of[i] = of[of[i]];
    return i;
  };
  for (const CalibrationPair& p : pairs) of[root(p.first)] = root(p.second);
  for (size_t i = 0; i < sources; ++i) of[i] = root(i);
  return of;
}

// The bounds of the two-sided interval between the `percent`th and (100 - `percent`)th
// percentiles of n held-out ratios: the order statistics at ranks floor(percent (n + 1) / 100)
// and ceil((100 - percent) (n + 1) / 100), clamped to [1, n] (1-based; integer arithmetic, so
// that 10 % of 120 is rank 12 exactly). These are the percentiles at the plotting positions
// k / (n + 1) (Hyndman and Fan's type 6) rounded outward: a new row exchangeable with the n
// falls below the k-th smallest with probability k / (n + 1), so the interval holds at least
// (100 - 2 percent) % of new rows (split conformal prediction). The ranks floor(q (n - 1)) + 1
// used before put each bound up to two ranks inside and held 76.7 % of held-out rows, not 80 %.
std::pair<double, double> CoveringBounds(std::vector<double> values, size_t percent) {
  std::sort(values.begin(), values.end());
  const size_t n1 = values.size() + 1;
  const auto at = [&](size_t rank) { return values[std::clamp<size_t>(rank, 1, n1 - 1) - 1]; };
  return {at(percent * n1 / 100), at(((100 - percent) * n1 + 99) / 100)};
}

}  // namespace

StatusOr<std::vector<PredictionInterval>> HeldOutIntervals(
    const std::vector<const LinkedTrace*>& traces, const std::vector<DeviceSpec>& devices,
    const Calibration& calibration) {
  const std::vector<size_t> workload = WorkloadOf(traces.size(), calibration.pairs);
  std::vector<size_t> workloads;
  for (const CalibrationPair& p : calibration.pairs) workloads.push_back(workload[p.first]);
  std::sort(workloads.begin(), workloads.end());
  workloads.erase(std::unique(workloads.begin(), workloads.end()), workloads.end());
  if (workloads.size() < 2) return std::vector<PredictionInterval>{};
  std::map<std::pair<std::string, std::string>, std::vector<double>> ratios;
  for (size_t held_out : workloads) {
    std::vector<const LinkedTrace*> rest;
    for (size_t i = 0; i < traces.size(); ++i) {
      if (workload[i] != held_out) rest.push_back(traces[i]);
    }
    TM_ASSIGN_OR_RETURN(const Calibration without, CalibrateOn(rest, devices, false));
    for (const CalibrationPair& p : calibration.pairs) {
      if (workload[p.first] != held_out) continue;
      for (const auto& [from, to] : {std::pair(p.first, p.second), std::pair(p.second, p.first)}) {
        PredictQuery query;
        query.devices = &devices;
        query.calibration = &without;
        TM_ASSIGN_OR_RETURN(const MeasuredPrediction m,
                            PredictAgainstMeasured(*traces[from], *traces[to], query, 0));
        for (size_t r = 0; r < m.result.rows.size(); ++r) {
          const PredictRow& row = m.result.rows[r];
          const std::optional<int64_t>& predicted = row.predictions[0].predicted_ns;
          const std::optional<int64_t>& there = m.evaluation.target_ns[r];
          if (!predicted || !there || *predicted <= 0 || *there <= 0) continue;
          const double ratio = static_cast<double>(*there) / static_cast<double>(*predicted);
          const std::string size = IsSmallRow(row) ? "small" : "large";
          ratios[{WorkCategoryName(row.category), size}].push_back(ratio);
          ratios[{"all", size}].push_back(ratio);
        }
      }
    }
  }
  std::vector<PredictionInterval> out;
  for (const auto& [key, values] : ratios) {
    if (values.size() < kMinIntervalRows) continue;
    const auto [low, high] = CoveringBounds(values, 10);
    out.push_back({key.first, key.second, low, high, values.size()});
  }
  return out;
}

}  // namespace tensormorph
