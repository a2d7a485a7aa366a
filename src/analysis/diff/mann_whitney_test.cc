#include "tensormorph/analysis/diff/mann_whitney.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// scipy.stats.mannwhitneyu documentation, example from Conover, "Practical Nonparametric
// Statistics" (1980), p. 226: ages of male and female workers. scipy gives U1 = 17 and the exact
// two-sided p = 0.1111 (= 14 / 126), and 0.11134688653314041 with method="asymptotic".
TEST(MannWhitney, ExactSmallSampleMatchesScipyDocumentation) {
  const auto r = MannWhitneyU({19, 22, 16, 29, 24}, {20, 11, 17, 12});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->method, MannWhitneyMethod::kExact);
  EXPECT_DOUBLE_EQ(r->u1, 17);
  EXPECT_DOUBLE_EQ(r->u2, 3);
  EXPECT_NEAR(r->p_value, 14.0 / 126.0, 1e-12);
}

// NAG Library routine G08AHF/g08amc example (support.nag.com, "G08AHF Example Program Results"):
// 16 and 23 values with ties; U = 86, normal statistic -2.8039 (tie-corrected, continuity-
// corrected), one-tailed probability 0.0025, so two-sided 0.0050.
TEST(MannWhitney, NormalApproximationWithTiesMatchesNagExample) {
  const std::vector<int64_t> group1 = {13, 6, 12, 7, 12, 7, 10, 7, 10, 7, 16, 7, 10, 8, 9, 8};
  const std::vector<int64_t> group2 = {17, 6,  10, 8,  15, 8,  15, 10, 15, 10, 14, 10,
                                       14, 11, 14, 11, 13, 12, 13, 12, 13, 12, 12};
  const auto r = MannWhitneyU(group1, group2);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->method, MannWhitneyMethod::kNormal);
  EXPECT_DOUBLE_EQ(r->u1, 86);
  EXPECT_NEAR(r->z, 2.8039, 5e-5);
  EXPECT_NEAR(r->p_value / 2, 0.0025, 5e-5);
  EXPECT_NEAR(r->p_value, 0.0050488458, 1e-9);  // erfc(2.8039006616 / sqrt 2), by hand
}

// ClickHouse mannWhitneyUTest documentation: samples {10, 11, 12} and {1, 2, 3}, 'greater' gives
// (9, 0.04042779918503192) with the continuity-corrected normal approximation; two-sided doubles
// it. Here the values are tie-free and small, so the exact law applies: 2 * 1 / C(6, 3) = 0.1.
TEST(MannWhitney, CompleteSeparationOfThreeAgainstThree) {
  const auto r = MannWhitneyU({10, 11, 12}, {1, 2, 3});
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->method, MannWhitneyMethod::kExact);
  EXPECT_DOUBLE_EQ(r->u1, 9);
  EXPECT_NEAR(r->p_value, 0.1, 1e-12);
  // With a tie the normal approximation takes over; 2 x ClickHouse's one-sided value for the
  // tie-free data is 0.0808555983700523, and one tie across the groups lowers sigma slightly.
  const auto tied = MannWhitneyU({10, 11, 12, 12}, {1, 2, 3, 12});
  ASSERT_TRUE(tied.has_value());
  EXPECT_EQ(tied->method, MannWhitneyMethod::kNormal);
}

TEST(MannWhitney, SymmetricInItsSamplesAndOneWhenIdentical) {
  const std::vector<int64_t> a = {5, 9, 14, 20, 21, 30}, b = {1, 2, 8, 10, 11, 12};
  const auto ab = MannWhitneyU(a, b), ba = MannWhitneyU(b, a);
  ASSERT_TRUE(ab && ba);
  EXPECT_DOUBLE_EQ(ab->p_value, ba->p_value);
  EXPECT_DOUBLE_EQ(ab->u1, ba->u2);
  const auto same = MannWhitneyU({7, 7, 7}, {7, 7, 7});
  ASSERT_TRUE(same.has_value());
  EXPECT_DOUBLE_EQ(same->p_value, 1.0);
  // Six against six fully separated: the smallest exact p-value, 2 / C(12, 6) = 2 / 924.
  const auto apart = MannWhitneyU({1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12});
  ASSERT_TRUE(apart.has_value());
  EXPECT_NEAR(apart->p_value, 2.0 / 924.0, 1e-15);
  EXPECT_FALSE(MannWhitneyU({}, {1}).has_value());
}

TEST(MannWhitneyU, SmallestTwoSidedPOfSmallSamples) {
  // 2 / C(6, 3) = 2 / 20; 2 / C(8, 4) = 2 / 70; one-sample-of-one: 2 / C(4, 1) = 0.5.
  EXPECT_DOUBLE_EQ(SmallestTwoSidedP(3, 3), 0.1);
  EXPECT_DOUBLE_EQ(SmallestTwoSidedP(4, 4), 2.0 / 70);
  EXPECT_DOUBLE_EQ(SmallestTwoSidedP(1, 3), 0.5);
  // And the test itself reaches it on completely separated samples.
  EXPECT_NEAR(MannWhitneyU({1, 2, 3}, {4, 5, 6})->p_value, 0.1, 1e-12);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
