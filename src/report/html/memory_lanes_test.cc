#include "report/html/memory_lanes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

std::vector<MemorySample> RandomWalk(size_t n, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int64_t> step(-1000, 1000), gap(0, 50);
  std::vector<MemorySample> series;
  int64_t ts = 5000, allocated = 1 << 20;
  for (size_t i = 0; i < n; ++i) {
    ts += gap(random);
    allocated = std::max<int64_t>(0, allocated + step(random));
    series.push_back({ts, allocated, allocated + 4096});
  }
  return series;
}

TEST(MemoryLanes, FewSamplesAreKeptAsTheyAre) {
  const auto series = RandomWalk(100, 1);
  const auto kept = KeepMemorySamples(series);
  ASSERT_EQ(kept.size(), series.size());
  for (size_t i = 0; i < kept.size(); ++i) EXPECT_EQ(kept[i].ts_ns, series[i].ts_ns);
}

// Over the limit: at most kMaxMemoryPoints, each a real sample in time order, the peak kept, and
// each bucket's last sample kept (so the level after every bucket is the real one).
TEST(MemoryLanes, ManySamplesKeepThePeakAndRealPoints) {
  for (uint32_t seed : {1U, 2U, 3U}) {
    const auto series = RandomWalk(50000, seed);
    const auto kept = KeepMemorySamples(series);
    EXPECT_LE(kept.size(), kMaxMemoryPoints);
    EXPECT_GT(kept.size(), kMaxMemoryPoints / 4);
    size_t at = 0;
    for (const MemorySample& s : kept) {  // a subsequence of the series
      while (at < series.size() &&
             !(series[at].ts_ns == s.ts_ns && series[at].allocated_bytes == s.allocated_bytes)) {
        ++at;
      }
      ASSERT_LT(at, series.size()) << "a kept point that is not a sample, seed " << seed;
      ++at;
    }
    const auto peak = std::max_element(series.begin(), series.end(),
                                       [](const MemorySample& x, const MemorySample& y) {
                                         return x.allocated_bytes < y.allocated_bytes;
                                       });
    EXPECT_TRUE(std::any_of(kept.begin(), kept.end(), [&](const MemorySample& s) {
      return s.ts_ns == peak->ts_ns && s.allocated_bytes == peak->allocated_bytes;
    }));
    EXPECT_EQ(kept.back().ts_ns, series.back().ts_ns);
    EXPECT_EQ(kept.back().allocated_bytes, series.back().allocated_bytes);
  }
}

TEST(MemoryLanes, JsonIsDeltaEncodedFromT0) {
  MemoryResult result;
  DeviceMemory d;
  d.series = {{1000, 10, 20}, {1500, 30, std::nullopt}};
  result.devices.push_back(d);
  const Json lanes = MemoryLanes(result, 400);
  ASSERT_EQ(lanes.size(), 1U);
  EXPECT_EQ(lanes[0]["t"], Json::array({600, 500}));
  EXPECT_EQ(lanes[0]["a"], Json::array({10, 30}));
  EXPECT_TRUE(lanes[0]["r"].is_null());  // one sample without a reserved total: none drawn
  EXPECT_EQ(lanes[0]["dropped"], 0);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
