#include "analysis/common/statistics.h"

#include <gtest/gtest.h>

#include <climits>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(Statistics, MedianNs) {
  EXPECT_FALSE(MedianNs({}).has_value());
  EXPECT_EQ(MedianNs({3}), 3);
  EXPECT_EQ(MedianNs({1, 2}), 1);  // 1.5 rounded down
  EXPECT_EQ(MedianNs({4, 1, 3, 2}), 2);
  EXPECT_EQ(MedianNs({-3, -2}), -3);  // -2.5 rounded down
  EXPECT_EQ(MedianNs({INT64_MAX, INT64_MAX - 1}), INT64_MAX - 1);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
