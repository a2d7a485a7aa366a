// `tensormorph diff`: two profiles (baselines, or traces summarised the same way) side by side per
// kernel and per op, with a verdict a CI job can gate on.
//
// Rules (docs/diff.md):
//  * rows are keyed by kind + name + backend; a key on one side only is added / removed;
//  * the compared value is a row's total, or its per-step mean (total / steps) when both profiles
//    have steps and their step counts differ, so that 6 steps against 5 is not a 20% regression;
//  * without steps on both sides there is no per-step basis: a row whose launch (call) counts
//    differ compares its mean per call instead (basis "per_call" on that row), because two
//    captures of different length hold different numbers of the same launches (68 flash_fwd
//    launches of 4.005 ms against 60 of 4.013 ms is not a 12% improvement). The capture lengths
//    (Baseline::kernel_span_ns) are reported beside it; the totals stay totals;
//  * a change is called only when |delta_percent| > threshold and, when both profiles have at
//    least kMinSteps steps, a two-sided Mann-Whitney U test on the per-step totals rejects
//    equality (p < alpha); `decided_by` says which rule had the last word;
//  * a row whose mean time per call moved by less than the timestamp resolution of either
//    profile (WebGPU clocks quantized to 65.536 or 100 us) is unchanged whatever the other rules
//    say: the difference is below what the clock can see (`decided_by` "resolution").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/diff/mann_whitney.h"
#include "tensormorph/analysis/profile/profile.h"

namespace tensormorph {

constexpr size_t kMinSteps = 3;  // fewer per-step samples make the noise test meaningless

struct DiffOptions {
  double threshold_percent = 5;
  double alpha = 0.05;
  bool kernels = true;
  bool ops = true;
  size_t top = 0;  // keep the N rows with the largest |delta|; 0 = all (the verdict sees all)
  // Trace::timestamp_resolution_ns of each side (the largest over its inputs); 0 = exact.
  int64_t base_resolution_ns = 0;
  int64_t new_resolution_ns = 0;
};

enum class DiffStatus { kRegressed, kImproved, kUnchanged, kAdded, kRemoved };
const char* DiffStatusName(DiffStatus status);

// kSpread: the samples are too few for the Mann-Whitney test ever to reach alpha (3 + 3 steps:
// the smallest two-sided p is 2 / C(6, 3) = 0.1), so a change is called only when the two sets
// of per-step times do not overlap at all.
// kResolution: the per-call difference is below a side's timestamp resolution (DiffOptions).
enum class DecidedBy { kThreshold, kMannWhitney, kSpread, kPresence, kResolution };
// "threshold", "mann_whitney", "spread", "presence", "resolution"
const char* DecidedByName(DecidedBy decided_by);

enum class DiffBasis { kTotal, kPerStepMean, kPerCall };
const char* DiffBasisName(DiffBasis basis);  // "total", "per_step_mean", "per_call"

// One compared quantity: a row, or a total.
struct Comparison {
  int64_t base_total_ns = 0;
  int64_t new_total_ns = 0;
  DiffBasis basis = DiffBasis::kTotal;  // the result's, or kPerCall for a row (see above)
  double base_value = 0;  // what is compared: the total, the per-step mean or the mean per call
  double new_value = 0;
  int64_t delta_ns = 0;                 // new_value - base_value, rounded to the nanosecond
  std::optional<double> delta_percent;  // null when the base value is 0 (and the new one is not)
  DiffStatus status = DiffStatus::kUnchanged;
  DecidedBy decided_by = DecidedBy::kThreshold;
  std::optional<MannWhitneyResult> test;  // run when both sides have >= kMinSteps steps
};

struct DiffRow {
  ProfileRowKind kind = ProfileRowKind::kKernel;
  std::string name;
  Backend backend = Backend::kOther;
  uint64_t base_count = 0;
  uint64_t new_count = 0;
  int64_t base_device_ns = 0;  // ops only
  int64_t new_device_ns = 0;
  Comparison comparison;
};

struct DiffStatusCounts {
  size_t regressed = 0, improved = 0, unchanged = 0, added = 0, removed = 0;
};

struct DiffResult {
  DiffBasis basis = DiffBasis::kTotal;  // of the totals and of every row not compared per call
  size_t base_steps = 0;
  size_t new_steps = 0;
  bool noise_test = false;    // both sides have >= kMinSteps steps
  Comparison kernel_total;    // all kernel time
  Comparison op_total;        // summed host time of the op rows (nested calls in each)
  std::vector<DiffRow> rows;  // largest |delta_ns| first, then kind, name, backend
  size_t row_count_before_top = 0;
  size_t per_call_rows = 0;  // rows compared per call, before --top
  // Baseline::kernel_span_ns of each side (0 = unknown), and whether they differ by more than
  // the threshold; nullopt when a span is unknown.
  int64_t base_span_ns = 0;
  int64_t new_span_ns = 0;
  std::optional<bool> capture_lengths_differ;
  DiffStatusCounts counts;  // over every row, before --top
  bool regressed = false;   // some row regressed: the verdict is "fail"
};

DiffResult DiffProfiles(const Baseline& base, const Baseline& next, const DiffOptions& options);

}  // namespace tensormorph
