#include "analysis/timeline/ranks.h"

#include <algorithm>

namespace tensormorph {

std::optional<int64_t> MedianNs(std::vector<int64_t> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  if (n % 2 == 1) return values[n / 2];
  // Halve before adding so that two values near INT64_MAX do not overflow.
  const int64_t a = values[n / 2 - 1], b = values[n / 2];
  const int64_t sum_of_halves = a / 2 + b / 2;
  const int64_t remainder = (a % 2 + b % 2);
  return sum_of_halves + (remainder >= 0 ? remainder / 2 : (remainder - 1) / 2);
}

std::optional<int64_t> MarkStragglers(const std::vector<std::vector<int64_t>>& step_ns,
                                      double threshold_percent, std::vector<RankSteps>* ranks) {
  std::vector<int64_t> medians;
  for (size_t i = 0; i < ranks->size() && i < step_ns.size(); ++i) {
    RankSteps& r = (*ranks)[i];
    r.step_count = step_ns[i].size();
    r.median_step_ns = MedianNs(step_ns[i]);
    if (r.median_step_ns) medians.push_back(*r.median_step_ns);
  }
  const std::optional<int64_t> over_ranks = MedianNs(medians);
  if (!over_ranks) return std::nullopt;
  const long double limit = static_cast<long double>(*over_ranks) * (1 + threshold_percent / 100);
  for (RankSteps& r : *ranks) {
    r.straggler = r.median_step_ns && static_cast<long double>(*r.median_step_ns) > limit;
  }
  return over_ranks;
}

}  // namespace tensormorph
