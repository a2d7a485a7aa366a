// What another device would have done with a trace's ops (`tensormorph predict`,
// docs/predict.md).
//
// Rows are the trace's outermost ops by name, input dims and dtypes, plus kernels under no op per
// category, as `tensormorph compare` makes them (so they add up to the trace's kernel time). For
// each row and target device the model is stated:
//  - roofline: the row's work (FLOPs of its precision, bytes; link/op_work.h) against the target's
//    roof, at the fraction of roof the row's category reaches on the target's family, plus the
//    category's fixed cost per kernel there: kernels * kernel_ns + max(FLOPs / peak, bytes /
//    bandwidth) / fraction. The kernels are the row's times the category's kernel_ratio between
//    the two families (calibration.h). `bound` is compute or memory by which term of the max is
//    larger, latency when the fixed costs are more than half of the prediction. The part of the
//    row's device time that its counted work does not cover is added by its category ratio
//    (below), the model then being roofline+category_ratio.
//  - category_ratio: kernels * the target family's floor + the row's time past the source
//    family's floors (measured - kernels * floor) * the category's ratio between the families
//    (calibration.h), measured on pairs of traces of the same workload.
//  - same_device: the target is the source's own database entry; the measured time.
//  - roof_ratio: another device of the source's family: the row's fixed costs (the family's
//    kernel_ns) kept, the rest of the counted time scaled by the two devices' roof times, the
//    uncounted time by their bandwidths.
//  - source_fraction: a target family without calibration: rows that are roofline-bound on the
//    source (their fixed costs under half their time) at the source family's fraction of roof on
//    the target's peaks; the others get none.
//  - none: none of the above is known. No prediction: never a copy of the measured time.
// Calibrations come from calibration.h (the built-in one, or the user's).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/compare/compare.h"
#include "tensormorph/analysis/memory/memory_fit.h"
#include "tensormorph/analysis/predict/calibration.h"
#include "tensormorph/analysis/roofline.h"
#include "tensormorph/model/status.h"

namespace tensormorph {

enum class PredictModel : uint8_t {
  kRoofline,
  kRooflineAndRatio,
  kCategoryRatio,
  kSameDevice,
  kRoofRatio,       // a target of the source's own family: the row's time times the roofs' ratio
  kSourceFraction,  // a target family without calibration: roof time at the source's fraction
  kNone
};
// "roofline", "roofline+category_ratio", "category_ratio", "same_device", "roof_ratio",
// "source_fraction", "none".
const char* PredictModelName(PredictModel model);

struct PredictQuery {
  std::vector<const DeviceSpec*> targets;            // into *devices
  const Calibration* calibration = nullptr;          // null = BuiltInCalibration()
  const std::vector<DeviceSpec>* devices = nullptr;  // null = BuiltInDevices()
  size_t top = 0;  // keep the N rows with the most measured time; 0 = all
};

struct Prediction {
  std::optional<int64_t> predicted_ns;  // absent for model none
  // predicted_ns times the 10th and 90th percentiles of measured / predicted on held-out rows of
  // the row's category and size class (Calibration::Interval); absent when the calibration has
  // no intervals. For same_device: the measured time.
  std::optional<int64_t> predicted_low_ns, predicted_high_ns;
  PredictModel model = PredictModel::kNone;
  std::optional<Bound> bound;  // roofline rows: compute, memory or latency
  std::string calibration;     // whose figures it used ("gfx942", "sm_90 -> gfx942"); "" for none
  std::string why_none;        // model none: what was missing
};

struct PredictRow {
  std::string key, name;
  WorkCategory category = WorkCategory::kOther;
  std::string shapes, dtypes;  // JSON lists, "" for kernels under no op
  std::string origin = "op";   // "op" or "no_op"
  uint64_t calls = 0, kernels = 0;
  int64_t measured_ns = 0;
  int64_t counted_ns = 0;  // of measured_ns, the kernels the FLOP counter's work covers
  std::optional<double> flops, bytes;
  Precision precision = Precision::kUnknown;
  std::vector<Prediction> predictions;  // parallel to the targets
};

struct PredictTargetTotal {
  int64_t measured_ns = 0;              // the trace's kernel time
  int64_t predicted_ns = 0;             // summed over the rows with a prediction
  int64_t unpredicted_measured_ns = 0;  // measured time of the rows without one (model none)
};

struct PredictCategory {
  WorkCategory category = WorkCategory::kOther;
  int64_t measured_ns = 0;
  std::vector<PredictTargetTotal> targets;
};

struct PredictTargetInfo {
  std::string key, name, family;
  std::string unusable;  // why the target cannot be predicted at all (no figures); "" if usable
  MemoryFit memory;      // the workload's peak on it (PredictResult::memory; memory_fit.h)
};

// How much of the trace's kernel time has a work estimate (FLOPs and bytes from the op's shapes,
// link/op_work.h): the rows' counted_ns over their measured_ns, all rows before --top. Kernels
// under no op have no shapes to estimate from; their time is given apart, since a profiler that
// lost their launches (not the FLOP counter) is why they are not covered.
// Communication kernels under ops (by their kernel names: NCCL/RCCL, wherever they ran, DDP's
// gradient hooks included) are given apart too: their time is decided by the network, not by the
// device's roof, so no work estimate is sought for them.
struct WorkCoverage {
  int64_t kernel_ns = 0;         // all rows
  int64_t counted_ns = 0;        // of it, covered by a work estimate
  int64_t under_no_op_ns = 0;    // of it, kernels under no op
  int64_t communication_ns = 0;  // of it, communication kernels under ops
  double share() const {
    return kernel_ns > 0 ? static_cast<double>(counted_ns) / static_cast<double>(kernel_ns) : 0;
  }
  // The share of the computation under ops (what shapes could cover).
  double share_under_ops() const {
    const int64_t under_ops = kernel_ns - under_no_op_ns - communication_ns;
    return under_ops > 0 ? static_cast<double>(counted_ns) / static_cast<double>(under_ops) : 0;
  }
};

struct PredictResult {
  std::string source_label;  // the trace's busiest device (DeviceLabel)
  std::string source_key;    // its database entry; "" when unmatched
  std::string source_family;
  std::string source_match;  // how it matched, or why not
  std::vector<PredictTargetInfo> targets;
  std::vector<PredictRow> rows;  // by measured time, largest first
  size_t row_count_before_top = 0;
  WorkCoverage coverage;
  std::vector<PredictCategory> categories;  // categories with measured time
  std::vector<PredictTargetTotal> totals;   // parallel to targets
  // The trace's peak memory (memory_fit.h), none without allocator records: whether the workload
  // fits each target is in PredictTargetInfo::memory.
  std::optional<WorkloadMemory> memory;
};

// Rows under this much device time per call on the source (per kernel for kernels under no op)
// are "small": the evaluation scores them apart, and the intervals have a size class for them.
inline constexpr int64_t kSmallRowNs = 20000;
bool IsSmallRow(const PredictRow& row);

// Predicts every row of side `side` of `compared` (CompareTraces of the trace alone, or with
// others: then only that side's cells are read) on each target.
PredictResult PredictRows(const CompareResult& compared, size_t side, const LinkedTrace& linked,
                          const PredictQuery& query);

// CompareTraces({&linked}, by shape), then PredictRows.
PredictResult PredictTrace(const LinkedTrace& linked, const PredictQuery& query);

}  // namespace tensormorph

namespace tensormorph {

// How wrong a prediction was, on a trace measured on the target (`predict A --measured B`; the
// evaluation in docs/predict.md). Rows are those compare matches between the two traces (same
// op, shapes and call count) with time on both and a prediction; the figures are medians of
// |predicted - measured| / measured over them, in percent, for the model and two baselines over
// the same rows:
//  - no_change: predicted = the time measured on the source;
//  - peak_ratio: the source time times source peak / target peak, the peak being the compute
//    peak of the row's precision for compute-bound rows (roofline on the source: FLOPs over the
//    compute peak above bytes over the bandwidth; rows without work: gemm, attention and
//    convolution, at the trace's dominant precision) and the memory bandwidth for the others.
struct EvaluationScore {
  uint64_t rows = 0;
  int64_t source_ns = 0, target_ns = 0, predicted_ns = 0;  // summed over the rows
  std::optional<int64_t> peak_ratio_ns;                    // summed; absent when a peak is unknown
  double model_mdape = 0, no_change_mdape = 0;
  std::optional<double> peak_ratio_mdape;  // absent when a peak is unknown
  // The sums against each other: |predicted_ns - target_ns| / target_ns in percent, and the same
  // for source_ns (no change) and peak_ratio_ns.
  double model_total_error = 0, no_change_total_error = 0;
  std::optional<double> peak_ratio_total_error;
};

// Medians over the categories of their totals' errors (EvaluationScore::*_total_error).
struct CategoryTotalsScore {
  uint64_t categories = 0;
  double model_mdape = 0, no_change_mdape = 0;
  std::optional<double> peak_ratio_mdape;
};

struct PredictEvaluation {
  std::string measured_path, target_key;
  std::vector<std::optional<int64_t>> target_ns;      // parallel to PredictResult::rows
  std::vector<std::optional<int64_t>> peak_ratio_ns;  // the peak_ratio baseline, the same rows
  std::array<std::optional<EvaluationScore>, kWorkCategoryCount> categories{};
  EvaluationScore overall;
  std::optional<EvaluationScore> small_rows;  // the rows IsSmallRow says are small
  CategoryTotalsScore category_totals;        // over `categories`
  // Of the scored rows with an interval, those whose measured time lies inside it.
  uint64_t interval_rows = 0, inside_interval = 0;
  uint64_t rows_without_prediction = 0;  // matched rows the model gave none for
  int64_t target_ns_without_prediction = 0;
  // Why there is nothing to score ("" when there is): the measured trace does not look like the
  // same workload (compare's warning), or no row matched with a prediction. The scores are then
  // over nothing, and are not reported.
  std::string no_basis;
};

// `pair`: CompareTraces({&source, &measured}) by shape; `predicted`: PredictRows(pair, 0, ...)
// with the measured trace's device as its first target, before any --top.
PredictEvaluation EvaluatePrediction(const CompareResult& pair, const PredictResult& predicted,
                                     const DeviceSpec& source, const DeviceSpec& target,
                                     const std::string& measured_path);

}  // namespace tensormorph

namespace tensormorph {

// `predict A --measured B` as one call: B's busiest device (which must be in query.devices, or
// the built-in table when null) becomes the first target, A's rows are predicted from the pair's
// comparison by shape and evaluated against B. `top` > 0 keeps the first rows (and their
// evaluation) after the evaluation is scored over all of them. Errors (kUnreadableInput) name the
// trace whose device is missing from the database.
struct MeasuredPrediction {
  PredictResult result;
  PredictEvaluation evaluation;
};
StatusOr<MeasuredPrediction> PredictAgainstMeasured(const LinkedTrace& source,
                                                    const LinkedTrace& measured, PredictQuery query,
                                                    size_t top);

}  // namespace tensormorph
