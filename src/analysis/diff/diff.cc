#include "tensormorph/analysis/diff/diff.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace tensormorph {
namespace {

// Every new sample beyond every base sample, in the direction of the change.
bool SamplesSeparate(const std::vector<int64_t>& base, const std::vector<int64_t>& next,
                     DiffStatus direction) {
  if (base.empty() || next.empty()) return false;
  const auto [base_min, base_max] = std::minmax_element(base.begin(), base.end());
  const auto [new_min, new_max] = std::minmax_element(next.begin(), next.end());
  return direction == DiffStatus::kRegressed ? *new_min > *base_max : *new_max < *base_min;
}

struct Sides {
  const ProfileRow* base = nullptr;
  const ProfileRow* next = nullptr;
};

using Key = std::tuple<ProfileRowKind, std::string, Backend>;

// How both profiles (or one row's two sides) are put on one scale.
struct Scale {
  DiffBasis basis = DiffBasis::kTotal;
  double base_divisor = 1;  // of the totals: steps, or calls for kPerCall
  double new_divisor = 1;
  bool noise_test = false;
};

// |new mean per call - base mean per call| < the coarser side's timestamp resolution.
bool BelowResolution(int64_t base_total, uint64_t base_count, int64_t new_total, uint64_t new_count,
                     const DiffOptions& options) {
  const int64_t resolution = std::max(options.base_resolution_ns, options.new_resolution_ns);
  if (resolution <= 0 || base_count == 0 || new_count == 0) return false;
  const double per_call = static_cast<double>(new_total) / static_cast<double>(new_count) -
                          static_cast<double>(base_total) / static_cast<double>(base_count);
  return std::fabs(per_call) < static_cast<double>(resolution);
}

Comparison Compare(int64_t base_total, int64_t new_total, uint64_t base_count, uint64_t new_count,
                   const std::vector<int64_t>* base_steps, const std::vector<int64_t>* new_steps,
                   bool present_in_base, bool present_in_new, const Scale& scale,
                   const DiffOptions& options) {
  Comparison c;
  c.base_total_ns = base_total;
  c.new_total_ns = new_total;
  c.basis = scale.basis;
  if (scale.basis == DiffBasis::kTotal) {
    c.base_value = static_cast<double>(base_total);
    c.new_value = static_cast<double>(new_total);
    // Exact in integers: totals of a few hundred days still fit.
    c.delta_ns = new_total - base_total;
  } else {
    c.base_value = static_cast<double>(base_total) / scale.base_divisor;
    c.new_value = static_cast<double>(new_total) / scale.new_divisor;
    c.delta_ns = std::llround(c.new_value - c.base_value);
  }
  if (c.base_value > 0) {
    c.delta_percent = 100.0 * (c.new_value - c.base_value) / c.base_value;
  } else if (c.new_value == 0) {
    c.delta_percent = 0.0;
  }
  if (!present_in_base) {
    c.status = DiffStatus::kAdded;
    c.decided_by = DecidedBy::kPresence;
    c.delta_percent.reset();
    return c;
  }
  if (!present_in_new) {
    c.status = DiffStatus::kRemoved;
    c.decided_by = DecidedBy::kPresence;
    return c;
  }
  if (scale.noise_test && base_steps != nullptr && new_steps != nullptr) {
    c.test = MannWhitneyU(*base_steps, *new_steps);
  }
  const bool beyond_threshold = c.delta_percent
                                    ? std::fabs(*c.delta_percent) > options.threshold_percent
                                    : c.new_value != c.base_value;
  const DiffStatus direction =
      c.new_value > c.base_value ? DiffStatus::kRegressed : DiffStatus::kImproved;
  if (!beyond_threshold) {
    c.status = DiffStatus::kUnchanged;
    c.decided_by = DecidedBy::kThreshold;
  } else if (BelowResolution(base_total, base_count, new_total, new_count, options)) {
    c.status = DiffStatus::kUnchanged;
    c.decided_by = DecidedBy::kResolution;
  } else if (c.test && SmallestTwoSidedP(base_steps->size(), new_steps->size()) >= options.alpha) {
    c.status =
        SamplesSeparate(*base_steps, *new_steps, direction) ? direction : DiffStatus::kUnchanged;
    c.decided_by = DecidedBy::kSpread;
  } else if (c.test) {
    c.status = c.test->p_value < options.alpha ? direction : DiffStatus::kUnchanged;
    c.decided_by = DecidedBy::kMannWhitney;
  } else {
    c.status = direction;
    c.decided_by = DecidedBy::kThreshold;
  }
  return c;
}

std::vector<int64_t> SumSteps(const std::vector<ProfileRow>& rows, size_t steps) {
  std::vector<int64_t> sums(steps, 0);
  for (const ProfileRow& r : rows) {
    for (size_t i = 0; i < steps && i < r.step_totals_ns.size(); ++i) {
      if (__builtin_add_overflow(sums[i], r.step_totals_ns[i], &sums[i])) sums[i] = INT64_MAX;
    }
  }
  return sums;
}

void Count(DiffStatus status, DiffStatusCounts* counts) {
  switch (status) {
    case DiffStatus::kRegressed:
      ++counts->regressed;
      return;
    case DiffStatus::kImproved:
      ++counts->improved;
      return;
    case DiffStatus::kUnchanged:
      ++counts->unchanged;
      return;
    case DiffStatus::kAdded:
      ++counts->added;
      return;
    case DiffStatus::kRemoved:
      ++counts->removed;
      return;
  }
}

}  // namespace

const char* DiffStatusName(DiffStatus status) {
  switch (status) {
    case DiffStatus::kRegressed:
      return "regressed";
    case DiffStatus::kImproved:
      return "improved";
    case DiffStatus::kUnchanged:
      return "unchanged";
    case DiffStatus::kAdded:
      return "added";
    case DiffStatus::kRemoved:
      return "removed";
  }
  return "unchanged";
}

const char* DecidedByName(DecidedBy decided_by) {
  switch (decided_by) {
    case DecidedBy::kThreshold:
      return "threshold";
    case DecidedBy::kMannWhitney:
      return "mann_whitney";
    case DecidedBy::kSpread:
      return "spread";
    case DecidedBy::kPresence:
      return "presence";
    case DecidedBy::kResolution:
      return "resolution";
  }
  return "threshold";
}

const char* DiffBasisName(DiffBasis basis) {
  switch (basis) {
    case DiffBasis::kTotal:
      return "total";
    case DiffBasis::kPerStepMean:
      return "per_step_mean";
    case DiffBasis::kPerCall:
      return "per_call";
  }
  return "total";
}

DiffResult DiffProfiles(const Baseline& base, const Baseline& next, const DiffOptions& options) {
  DiffResult result;
  result.base_steps = base.steps();
  result.new_steps = next.steps();
  Scale scale;
  if (result.base_steps > 0 && result.new_steps > 0 && result.base_steps != result.new_steps) {
    scale.basis = DiffBasis::kPerStepMean;
    scale.base_divisor = static_cast<double>(result.base_steps);
    scale.new_divisor = static_cast<double>(result.new_steps);
  }
  scale.noise_test = result.base_steps >= kMinSteps && result.new_steps >= kMinSteps;
  result.basis = scale.basis;
  result.noise_test = scale.noise_test;
  // A row can fall back to its mean per call only when steps give no basis of their own.
  const bool per_call_fallback = result.base_steps == 0 || result.new_steps == 0;
  result.base_span_ns = base.kernel_span_ns;
  result.new_span_ns = next.kernel_span_ns;
  if (base.kernel_span_ns > 0 && next.kernel_span_ns > 0) {
    const double change = static_cast<double>(next.kernel_span_ns - base.kernel_span_ns) /
                          static_cast<double>(base.kernel_span_ns);
    result.capture_lengths_differ = std::fabs(100.0 * change) > options.threshold_percent;
  }

  std::map<Key, Sides> keys;
  auto collect = [&](const std::vector<ProfileRow>& rows, bool is_base) {
    for (const ProfileRow& r : rows) {
      Sides& sides = keys[{r.kind, r.name, r.backend}];
      (is_base ? sides.base : sides.next) = &r;
    }
  };
  if (options.kernels) {
    collect(base.kernels, true);
    collect(next.kernels, false);
  }
  if (options.ops) {
    collect(base.ops, true);
    collect(next.ops, false);
  }
  for (const auto& [key, sides] : keys) {
    DiffRow row;
    row.kind = std::get<0>(key);
    row.name = std::get<1>(key);
    row.backend = std::get<2>(key);
    const ProfileRow* b = sides.base;
    const ProfileRow* n = sides.next;
    row.base_count = b ? b->count : 0;
    row.new_count = n ? n->count : 0;
    row.base_device_ns = b ? b->device_ns : 0;
    row.new_device_ns = n ? n->device_ns : 0;
    Scale row_scale = scale;
    if (per_call_fallback && b != nullptr && n != nullptr && row.base_count != row.new_count &&
        row.base_count > 0 && row.new_count > 0) {
      row_scale.basis = DiffBasis::kPerCall;
      row_scale.base_divisor = static_cast<double>(row.base_count);
      row_scale.new_divisor = static_cast<double>(row.new_count);
      ++result.per_call_rows;
    }
    row.comparison =
        Compare(b ? b->total_ns : 0, n ? n->total_ns : 0, row.base_count, row.new_count,
                b ? &b->step_totals_ns : nullptr, n ? &n->step_totals_ns : nullptr, b != nullptr,
                n != nullptr, row_scale, options);
    Count(row.comparison.status, &result.counts);
    result.regressed |= row.comparison.status == DiffStatus::kRegressed;
    result.rows.push_back(std::move(row));
  }

  const std::vector<int64_t> base_op_steps = SumSteps(base.ops, base.steps());
  const std::vector<int64_t> new_op_steps = SumSteps(next.ops, next.steps());
  result.kernel_total =
      Compare(base.kernel_ns, next.kernel_ns, base.kernel_count, next.kernel_count,
              &base.step_kernel_ns, &next.step_kernel_ns, true, true, scale, options);
  result.op_total = Compare(base.op_host_ns, next.op_host_ns, base.op_calls, next.op_calls,
                            &base_op_steps, &new_op_steps, true, true, scale, options);

  std::stable_sort(result.rows.begin(), result.rows.end(), [](const DiffRow& a, const DiffRow& b) {
    const int64_t da = std::llabs(a.comparison.delta_ns), db = std::llabs(b.comparison.delta_ns);
    if (da != db) return da > db;
    return std::tie(a.kind, a.name, a.backend) < std::tie(b.kind, b.name, b.backend);
  });
  result.row_count_before_top = result.rows.size();
  if (options.top > 0 && result.rows.size() > options.top) result.rows.resize(options.top);
  return result;
}

}  // namespace tensormorph
