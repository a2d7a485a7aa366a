#include "tensormorph/analysis/diff/mann_whitney.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tensormorph {
namespace {

// Midranks of the pooled sample: returns the rank sum of the first sample and sum(t^3 - t) over
// the groups of tied values.
std::pair<double, double> RankSumAndTies(const std::vector<int64_t>& x,
                                         const std::vector<int64_t>& y) {
  std::vector<std::pair<int64_t, bool>> pooled;  // (value, from x)
  pooled.reserve(x.size() + y.size());
  for (int64_t v : x) pooled.emplace_back(v, true);
  for (int64_t v : y) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end());
  double rank_sum_x = 0, ties = 0;
  for (size_t i = 0; i < pooled.size();) {
    size_t j = i;
    while (j < pooled.size() && pooled[j].first == pooled[i].first) ++j;
    const double midrank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (size_t k = i; k < j; ++k) {
      if (pooled[k].second) rank_sum_x += midrank;
    }
    const double t = static_cast<double>(j - i);
    ties += t * t * t - t;
    i = j;
  }
  return {rank_sum_x, ties};
}

// Number of arrangements of m x-values and n y-values with U = u, for u = 0..m*n, by the
// recurrence c(m, n, u) = c(m - 1, n, u - n) + c(m, n - 1, u) (the largest value is an x, adding
// n to U, or a y, adding nothing). Doubles: C(50, 25) ~ 1.3e14 is exact in a double.
std::vector<double> ExactCounts(size_t m, size_t n) {
  // table[i][j] = counts for sizes (i, j); built row by row over i, keeping the previous row.
  std::vector<std::vector<double>> previous(n + 1), current(n + 1);
  for (size_t j = 0; j <= n; ++j) previous[j] = {1.0};  // i = 0: U is always 0
  for (size_t i = 1; i <= m; ++i) {
    current[0] = {1.0};  // j = 0: U is always 0
    for (size_t j = 1; j <= n; ++j) {
      std::vector<double> counts(i * j + 1, 0.0);
      for (size_t u = 0; u < previous[j].size(); ++u) counts[u + j] += previous[j][u];
      for (size_t u = 0; u < current[j - 1].size(); ++u) counts[u] += current[j - 1][u];
      current[j] = std::move(counts);
    }
    std::swap(previous, current);
  }
  return previous[n];
}

}  // namespace

const char* MannWhitneyMethodName(MannWhitneyMethod method) {
  return method == MannWhitneyMethod::kExact ? "exact" : "normal";
}

std::optional<MannWhitneyResult> MannWhitneyU(const std::vector<int64_t>& x,
                                              const std::vector<int64_t>& y) {
  if (x.empty() || y.empty()) return std::nullopt;
  const double n1 = static_cast<double>(x.size());
  const double n2 = static_cast<double>(y.size());
  const double n = n1 + n2;
  const auto [rank_sum_x, ties] = RankSumAndTies(x, y);
  MannWhitneyResult r;
  r.u1 = rank_sum_x - n1 * (n1 + 1) / 2;
  r.u2 = n1 * n2 - r.u1;
  const bool exact = ties == 0 && x.size() + y.size() <= kMaxExactSize;
  if (exact) {
    r.method = MannWhitneyMethod::kExact;
    const std::vector<double> counts = ExactCounts(x.size(), y.size());
    double all = 0, tail = 0;
    // Without ties U is an integer; U >= max(U1, U2) is the upper tail of a symmetric law.
    const auto u_max = static_cast<size_t>(std::llround(std::max(r.u1, r.u2)));
    for (size_t u = 0; u < counts.size(); ++u) {
      all += counts[u];
      if (u >= u_max) tail += counts[u];
    }
    r.p_value = std::min(1.0, 2.0 * tail / all);
    return r;
  }
  r.method = MannWhitneyMethod::kNormal;
  const double variance = n1 * n2 / 12.0 * ((n + 1) - ties / (n * (n - 1)));
  if (variance <= 0) {  // every value tied: nothing distinguishes the samples
    r.p_value = 1;
    return r;
  }
  const double distance = std::fabs(r.u1 - n1 * n2 / 2.0);
  r.z = std::max(0.0, distance - 0.5) / std::sqrt(variance);
  r.p_value = std::min(1.0, std::erfc(r.z / std::sqrt(2.0)));  // 2 * (1 - Phi(z))
  return r;
}

double SmallestTwoSidedP(size_t n1, size_t n2) {
  if (n1 == 0 || n2 == 0) return 1;
  // C(n1 + n2, k) grows past any useful alpha quickly; doubles hold it without overflow here.
  double arrangements = 1;
  const size_t k = std::min(n1, n2);
  for (size_t i = 1; i <= k; ++i) {
    arrangements = arrangements * static_cast<double>(n1 + n2 - k + i) / static_cast<double>(i);
  }
  return std::min(1.0, 2 / arrangements);
}

}  // namespace tensormorph
