#include "link/id_index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// An independent reference: a map from id to the kept row, filled in row order.
template <typename Prefer>
std::map<uint64_t, uint32_t> Reference(const std::vector<std::pair<uint64_t, uint32_t>>& pairs,
                                       Prefer prefer, uint64_t* duplicates) {
  std::map<uint64_t, uint32_t> kept;
  *duplicates = 0;
  for (const auto& [id, row] : pairs) {
    auto [it, inserted] = kept.emplace(id, row);
    if (inserted) continue;
    ++*duplicates;
    if (prefer(row, it->second)) it->second = row;
  }
  return kept;
}

// Rows 0..n-1 with ids drawn from [base, base + range * stride) in steps of `stride`, some
// repeated.
std::vector<std::pair<uint64_t, uint32_t>> RandomPairs(std::mt19937_64& rng, uint32_t n,
                                                       uint64_t base, uint64_t range,
                                                       uint64_t stride) {
  std::vector<std::pair<uint64_t, uint32_t>> pairs;
  std::uniform_int_distribution<uint64_t> id(0, range - 1);
  for (uint32_t row = 0; row < n; ++row) pairs.emplace_back(base + id(rng) * stride, row);
  return pairs;
}

TEST(IdIndex, DenseAndSortedFormsAgreeWithAMap) {
  std::mt19937_64 rng(12);
  // Odd rows win over even ones, like a runtime call over the driver call beneath it.
  auto odd_wins = [](uint32_t row, uint32_t kept) { return row % 2 == 1 && kept % 2 == 0; };
  int dense_seen = 0, sorted_seen = 0;
  for (int round = 0; round < 200; ++round) {
    const uint32_t n = 1 + static_cast<uint32_t>(rng() % 2000);
    const uint64_t range = 1 + rng() % (3 * n);
    // 1: a table; 1000: sorted in two radix passes; 2^40: in six.
    const uint64_t strides[] = {1, 1, 1000, uint64_t{1} << 40};
    const uint64_t stride = strides[rng() % 4];
    const uint64_t base = rng() % 2 == 0 ? 1 : UINT64_MAX - range * stride;
    const auto pairs = RandomPairs(rng, n, base, range, stride);
    uint64_t duplicates = 0;
    const auto expected = Reference(pairs, odd_wins, &duplicates);
    const IdIndex index(pairs, odd_wins);
    (index.dense() ? dense_seen : sorted_seen)++;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (const auto& p : pairs) lo = std::min(lo, p.first), hi = std::max(hi, p.first);
    EXPECT_EQ(index.dense(), hi - lo < IdIndex::kDenseSlotsPerId * n) << "round " << round;
    EXPECT_EQ(index.duplicates(), duplicates) << "round " << round;
    for (uint64_t k = 0; k < range + 2; ++k) {
      const uint64_t id = base - stride + k * stride;  // one below and one above the range too
      auto it = expected.find(id);
      EXPECT_EQ(index.Find(id), it == expected.end() ? IdIndex::kNone : it->second)
          << "round " << round << " id " << id;
      EXPECT_EQ(index.Find(id + 1),
                expected.contains(id + 1) ? expected.at(id + 1) : IdIndex::kNone);
    }
  }
  EXPECT_GT(dense_seen, 50);
  EXPECT_GT(sorted_seen, 50);
}

TEST(IdIndex, FirstRowWinsWithoutAPreference) {
  const IdIndex index({{7, 0}, {5, 1}, {7, 2}, {5, 3}, {9, 4}});
  EXPECT_TRUE(index.dense());
  EXPECT_EQ(index.Find(7), 0u);
  EXPECT_EQ(index.Find(5), 1u);
  EXPECT_EQ(index.Find(9), 4u);
  EXPECT_EQ(index.Find(6), IdIndex::kNone);
  EXPECT_EQ(index.Find(0), IdIndex::kNone);
  EXPECT_EQ(index.Find(UINT64_MAX), IdIndex::kNone);
  EXPECT_EQ(index.duplicates(), 2u);
}

TEST(IdIndex, EmptyAndExtremeIds) {
  const IdIndex empty({});
  EXPECT_EQ(empty.Find(0), IdIndex::kNone);
  EXPECT_EQ(empty.duplicates(), 0u);
  // The whole uint64 range: a table would overflow, so it must be the sorted form.
  const IdIndex wide({{0, 0}, {UINT64_MAX, 1}});
  EXPECT_FALSE(wide.dense());
  EXPECT_EQ(wide.Find(0), 0u);
  EXPECT_EQ(wide.Find(UINT64_MAX), 1u);
  EXPECT_EQ(wide.Find(1), IdIndex::kNone);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
