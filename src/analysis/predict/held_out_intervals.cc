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

double Percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  return values[static_cast<size_t>(q * static_cast<double>(values.size() - 1))];
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
    out.push_back(
        {key.first, key.second, Percentile(values, 0.1), Percentile(values, 0.9), values.size()});
  }
  return out;
}

}  // namespace tensormorph
