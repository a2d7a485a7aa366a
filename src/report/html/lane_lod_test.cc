#include "report/html/lane_lod.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

struct Box {
  int64_t start, end;
  uint32_t key;
};

// Each level computed straight from the boxes at that level's bucket width, as lane_lod.h states
// the pyramid (time per key per bucket, the dominant key with ties to the smaller one), without
// merging finer levels: what LodBuckets must give whatever order the boxes come in.
void ExpectPyramidOf(const std::vector<Box>& boxes, int64_t width, int64_t span,
                     const Json& pyramid) {
  const int64_t buckets = span / width + 1;
  const int64_t limit = buckets * width;  // the finest level's end: nothing past it is counted
  int64_t level_width = width;
  int64_t count = buckets;
  for (size_t level = 0;; ++level) {
    ASSERT_LT(level, pyramid.size());
    const Json& got = pyramid[level];
    EXPECT_EQ(got["bucket_ns"].get<int64_t>(), level_width);
    ASSERT_EQ(got["busy"].size(), static_cast<size_t>(count)) << "level " << level;
    for (int64_t b = 0; b < count; ++b) {
      const int64_t lo = b * level_width, hi = std::min((b + 1) * level_width, limit);
      std::map<uint32_t, int64_t> by_key;
      int64_t busy = 0;
      for (const Box& box : boxes) {
        const int64_t start = std::max<int64_t>(box.start, 0);
        const int64_t end = std::min(std::max(box.end, box.start + 1), limit);
        const int64_t overlap = std::min(end, hi) - std::max(start, lo);
        if (overlap <= 0) continue;
        by_key[box.key] += overlap;
        busy += overlap;
      }
      uint32_t dom = 0;
      int64_t dom_ns = 0;
      for (const auto& [key, ns] : by_key) {
        if (ns > dom_ns) dom = key + 1, dom_ns = ns;  // the map's order: ties keep the smaller
      }
      EXPECT_EQ(got["busy"][b].get<int64_t>(),
                std::min<int64_t>(255, (busy * 255 + level_width - 1) / level_width))
          << "level " << level << " bucket " << b;
      EXPECT_EQ(got["dom"][b].get<uint32_t>(), dom) << "level " << level << " bucket " << b;
    }
    if (count <= 64) {
      EXPECT_EQ(pyramid.size(), level + 1);
      return;
    }
    count = (count + 3) / 4;
    level_width *= 4;
  }
}

Json PyramidOf(const std::vector<Box>& boxes, int64_t width, int64_t span) {
  LodBuckets buckets(width, span);
  for (const Box& box : boxes) buckets.Add(box.start, box.end, box.key);
  return buckets.TakePyramid();
}

// Boxes in start order as lanes give them, many short ones and a few spanning hundreds of
// buckets, some before 0 and past the span, zero-length ones, keys with equal times.
std::vector<Box> RandomBoxes(uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Box> boxes;
  int64_t at = -50;
  for (int i = 0; i < 3000; ++i) {
    at += static_cast<int64_t>(rng() % 40);
    const bool long_box = rng() % 50 == 0;
    const int64_t length =
        long_box ? static_cast<int64_t>(rng() % 20000) : static_cast<int64_t>(rng() % 30);
    boxes.push_back({at, at + length, static_cast<uint32_t>(rng() % 12)});
  }
  return boxes;
}

TEST(LodBuckets, EveryLevelIsTheTimePerKeyOfItsBuckets) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    const std::vector<Box> boxes = RandomBoxes(seed);
    const int64_t span = boxes.back().start - 200;  // the last boxes run past the span
    ExpectPyramidOf(boxes, 7, span, PyramidOf(boxes, 7, span));
  }
}

TEST(LodBuckets, BoxesOutOfStartOrderGiveTheSamePyramid) {
  std::vector<Box> boxes = RandomBoxes(4);
  const int64_t span = boxes.back().end;
  const Json in_order = PyramidOf(boxes, 11, span);
  std::shuffle(boxes.begin(), boxes.end(), std::mt19937(5));
  const Json shuffled = PyramidOf(boxes, 11, span);
  EXPECT_EQ(shuffled, in_order);
  ExpectPyramidOf(boxes, 11, span, shuffled);
}

TEST(LodBuckets, EqualTimesGoToTheSmallerKey) {
  // Two keys with 5 ns each in bucket 0 (width 10), added larger key first.
  const Json pyramid = PyramidOf({{0, 5, 9}, {5, 10, 3}, {12, 13, 9}}, 10, 15);
  ASSERT_EQ(pyramid.size(), 1u);
  EXPECT_EQ(pyramid[0]["dom"][0].get<uint32_t>(), 4u);  // key 3, plus one
  EXPECT_EQ(pyramid[0]["dom"][1].get<uint32_t>(), 10u);
  EXPECT_EQ(pyramid[0]["busy"][0].get<int64_t>(), 255);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
