// Predictions beside the Compute panel's rows (`ops --predict KEY`, `report --predict KEY`):
// what each op would have taken on another device, from `tensormorph predict` (predict.h).
//
// Predictions are made for outermost ops by name, input dims and dtypes (PredictTrace on each
// input); an ops row (analysis/ops, by op name at every depth) gets the sum of the predict rows of
// its name (and input, by input):
//  - `calls` of them are the op's calls that are outermost, with `measured_ns` the device time of
//    their subtrees, as predict measured it. For an op that is always outermost, calls equals the
//    row's calls and measured_ns its device_inclusive_ns.
//  - Calls nested inside another op are predicted within that op's row (its subtree), so they are
//    not predicted again here: calls < the row's calls says so, and an op that is never outermost
//    (aten::mm inside aten::linear) has no prediction of its own; `within` then names the
//    outermost op around most of its calls, whose row holds the prediction.
//  - Rows of kernels under no op and annotation rows get none: predict splits kernels under no op
//    by category, not as ops does (`tensormorph predict` shows those rows).
// Rows by instance or by module path are not predicted (predict has no such rows): callers refuse
// those queries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/ops/ops.h"
#include "tensormorph/analysis/predict/predict.h"

namespace tensormorph {

struct OpTargetPrediction {
  uint64_t calls = 0;       // the op's outermost calls
  int64_t measured_ns = 0;  // the device time of their subtrees
  // Summed over the calls with a prediction; absent when none had one (model none).
  std::optional<int64_t> predicted_ns;
  // The predict rows' intervals (Prediction::predicted_low_ns, _high_ns) summed: as wide as
  // when every row's error went the same way. Absent when a predicted row had none.
  std::optional<int64_t> predicted_low_ns, predicted_high_ns;
  int64_t unpredicted_measured_ns = 0;  // of measured_ns, the calls without a prediction
  // The model of every predicted call when they share one; absent when they differ ("mixed").
  std::optional<PredictModel> model;
  bool mixed_models = false;
};

struct OpPredictions {
  std::vector<PredictTargetInfo> targets;  // as PredictResult::targets (of the first input)
  // Per input: its source device's label and how it matched the database.
  std::vector<std::string> source_labels, source_keys;
  // Parallel to the summary's rows; each parallel to targets, or empty for a row without
  // outermost calls (or of kernels under no op, or of an annotation).
  std::vector<std::vector<OpTargetPrediction>> rows;
  // Parallel to the summary's rows: for an op row without outermost calls, the outermost op
  // around most of its calls ("aten::linear"); "" otherwise.
  std::vector<std::string> within;
};

// `summary` = SummarizeOps(traces, ops_query) with neither by_instance nor by_stack.
OpPredictions PredictOps(const OpSummary& summary, const OpQuery& ops_query,
                         const std::vector<const LinkedTrace*>& traces,
                         const PredictQuery& predict_query);

}  // namespace tensormorph
