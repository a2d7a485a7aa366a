#include "analysis/common/statistics.h"

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

}  // namespace tensormorph
