// The two-sided Mann-Whitney U test (Wilcoxon rank-sum test) on two independent samples, the
// noise test of `tensormorph diff`: are the per-step times of a kernel in two profiles drawn from
// the same distribution?
//
// Method, as scipy.stats.mannwhitneyu(method="auto") and most textbooks do it:
//  * exact: when the pooled sample has no ties and n1 + n2 <= kMaxExactSize, the p-value comes
//    from the exact null distribution of U (every arrangement of the ranks equally likely),
//    p = min(1, 2 * P(U >= max(U1, U2)));
//  * normal: otherwise, z = (|U1 - n1 n2 / 2| - 1/2) / sigma with the tie-corrected
//    sigma^2 = n1 n2 / 12 * ((n + 1) - sum(t^3 - t) / (n (n - 1))) over groups of t tied values,
//    and p = min(1, 2 * (1 - Phi(z))) (continuity correction of 1/2, as scipy's default).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace tensormorph {

enum class MannWhitneyMethod { kExact, kNormal };
const char* MannWhitneyMethodName(MannWhitneyMethod method);  // "exact", "normal"

struct MannWhitneyResult {
  double u1 = 0;  // U of the first sample: pairs (x, y) with x > y, ties counting 1/2
  double u2 = 0;  // n1 * n2 - u1
  double p_value = 1;
  MannWhitneyMethod method = MannWhitneyMethod::kExact;
  double z = 0;  // the continuity-corrected normal statistic (normal method only)
};

constexpr size_t kMaxExactSize = 50;

// The smallest two-sided p-value the test can give for samples of these sizes (complete
// separation, no ties): 2 / C(n1 + n2, n1), at most 1.
double SmallestTwoSidedP(size_t n1, size_t n2);

// nullopt when a sample is empty (no test possible).
std::optional<MannWhitneyResult> MannWhitneyU(const std::vector<int64_t>& x,
                                              const std::vector<int64_t>& y);

}  // namespace tensormorph
