#include "analysis/common/intervals.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using V = std::vector<Interval>;

TEST(IntervalMerge, Empty) {
  EXPECT_TRUE(MergeIntervals({}).empty());
  EXPECT_EQ(TotalLength({}), 0);
  EXPECT_TRUE(GapsBetween({}, 0).empty());
  EXPECT_EQ(IntersectionLength({}, V{{0, 10}}), 0);
}

TEST(IntervalMerge, OverlapNestingAndTouching) {
  // Out of order; [5,8) nests in [0,10); [10,12) touches it; [20,25) and [22,30) overlap.
  const V merged = MergeIntervals({{22, 30}, {10, 12}, {0, 10}, {5, 8}, {20, 25}});
  EXPECT_EQ(merged, (V{{0, 12}, {20, 30}}));
  EXPECT_EQ(TotalLength(merged), 22);
}

TEST(IntervalMerge, ZeroLengthSplitsAGapButAddsNoTime) {
  const V merged = MergeIntervals({{0, 10}, {15, 15}, {20, 30}, {10, 10}, {30, 30}});
  // The points at 10 and 30 touch neighbours and vanish into them; the one at 15 stays alone.
  EXPECT_EQ(merged, (V{{0, 10}, {15, 15}, {20, 30}}));
  EXPECT_EQ(TotalLength(merged), 20);
  EXPECT_EQ(GapsBetween(merged, 0), (V{{10, 15}, {15, 20}}));
}

TEST(IntervalMerge, NegativeLengthIsAPoint) {
  EXPECT_EQ(MergeIntervals({{10, 5}}), (V{{10, 10}}));
}

TEST(IntervalGaps, ThresholdIsStrict) {
  const V merged = MergeIntervals({{0, 10}, {110, 120}, {221, 230}});
  EXPECT_EQ(GapsBetween(merged, 100), (V{{120, 221}}));  // 100 is not > 100; 101 is
  EXPECT_EQ(GapsBetween(merged, 0).size(), 2u);
  EXPECT_TRUE(GapsBetween(MergeIntervals({{0, 10}, {10, 20}}), 0).empty());  // touching
}

TEST(IntervalIntersection, Cases) {
  const V a = MergeIntervals({{0, 10}, {20, 30}, {40, 50}});
  const V b = MergeIntervals({{5, 25}, {30, 40}, {45, 100}});
  // [5,10) + [20,25) + nothing at the touching 30 and 40 + [45,50)
  EXPECT_EQ(IntersectionLength(a, b), 15);
  EXPECT_EQ(IntersectionLength(b, a), 15);
  EXPECT_EQ(IntersectionLength(a, a), TotalLength(a));
  EXPECT_EQ(IntersectionLength(a, {}), 0);
}

TEST(IntervalIntersection, CoveredWithinAWindowEqualsTheIntersection) {
  const V a = MergeIntervals({{0, 10}, {20, 30}, {40, 50}});
  for (const Interval w : {Interval{5, 25}, Interval{10, 20}, Interval{0, 50}, Interval{-5, 100},
                           Interval{25, 45}, Interval{30, 40}, Interval{60, 70}, Interval{7, 7}}) {
    EXPECT_EQ(CoveredWithin(a, w), IntersectionLength(a, V{w}))
        << "[" << w.start_ns << ", " << w.end_ns << ")";
  }
  EXPECT_EQ(CoveredWithin({}, {0, 10}), 0);
}

TEST(IntervalConcurrency, CountsEachInterval) {
  // 0..10: one; 10..15 none; 15..20: one; 20..25: three; 25..30: two (the touching one ended).
  const V intervals = {{0, 10}, {15, 30}, {20, 25}, {20, 30}, {12, 12}};
  const std::vector<int64_t> profile = ConcurrencyProfile(intervals, {0, 30});
  EXPECT_EQ(profile, (std::vector<int64_t>{5, 15, 5, 5}));
}

TEST(IntervalConcurrency, WindowClipsAndFillsIdle) {
  EXPECT_EQ(ConcurrencyProfile({{0, 100}}, {10, 20}), (std::vector<int64_t>{0, 10}));
  EXPECT_EQ(ConcurrencyProfile({}, {0, 7}), (std::vector<int64_t>{7}));
  EXPECT_TRUE(ConcurrencyProfile({{0, 5}}, {3, 3}).empty());
  // Back to back: never two at once.
  EXPECT_EQ(ConcurrencyProfile({{0, 5}, {5, 10}}, {0, 10}), (std::vector<int64_t>{0, 10}));
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
