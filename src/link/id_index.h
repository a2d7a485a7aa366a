// Rows by id, for the joins of linking: launch calls by correlation id, framework ops by External
// id. Built from (id, row) pairs given in increasing row order; each id keeps one row, the first
// one unless `prefer(row, kept)` says a later row wins.
//
// Profilers count these ids up from 1 (CUPTI, roctracer, Kineto), so when the ids span at most
// kDenseSlotsPerId slots per id the index is a table indexed by id - min: built in one pass, found
// in one load. Sparser ids (a trace keeps a fraction of CUPTI's correlations; two captures merged)
// are radix-sorted by id - min, as many 11-bit passes as the span needs, and found by binary
// search. Both forms give the same answers (tested); neither uses a comparison sort, which took
// 0.2 s of the 1 GB benchmark trace's linking.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace tensormorph {

class IdIndex {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;
  // At 4 bytes a slot, a table of this many slots per id is twice the 16 bytes of a sorted pair.
  static constexpr uint64_t kDenseSlotsPerId = 8;

  // `prefer(row, kept)`: whether `row`, given after `kept` for the same id, takes its place.
  template <typename Prefer>
  IdIndex(const std::vector<std::pair<uint64_t, uint32_t>>& pairs, Prefer prefer);
  explicit IdIndex(const std::vector<std::pair<uint64_t, uint32_t>>& pairs)
      : IdIndex(pairs, [](uint32_t, uint32_t) { return false; }) {}

  uint32_t Find(uint64_t id) const {
    if (dense_) {
      return id >= min_ && id - min_ < table_.size() ? table_[id - min_] : kNone;
    }
    return FindSorted(id);
  }
  bool dense() const { return dense_; }
  // Pairs whose id was already taken (and lost to, or displaced, the kept row).
  uint64_t duplicates() const { return duplicates_; }

 private:
  uint32_t FindSorted(uint64_t id) const;
  // The smallest id and the largest minus the smallest; pairs must not be empty.
  static void Range(const std::vector<std::pair<uint64_t, uint32_t>>& pairs, uint64_t* min,
                    uint64_t* span);
  // Stable: pairs with equal ids keep their order.
  static void RadixSortById(std::vector<std::pair<uint64_t, uint32_t>>* pairs, uint64_t min,
                            uint64_t span);

  bool dense_ = false;
  uint64_t min_ = 0;
  std::vector<uint32_t> table_;                        // dense: row of id min_ + i, or kNone
  std::vector<std::pair<uint64_t, uint32_t>> sorted_;  // sparse: (id, row) by id
  uint64_t duplicates_ = 0;
};

template <typename Prefer>
IdIndex::IdIndex(const std::vector<std::pair<uint64_t, uint32_t>>& pairs, Prefer prefer) {
  if (pairs.empty()) return;
  uint64_t span = 0;
  Range(pairs, &min_, &span);
  // span < slots per id * count, so span + 1 cannot overflow.
  dense_ = span < kDenseSlotsPerId * pairs.size();
  if (dense_) {
    table_.assign(span + 1, kNone);
    for (const auto& [id, row] : pairs) {
      uint32_t& kept = table_[id - min_];
      if (kept == kNone) {
        kept = row;
        continue;
      }
      ++duplicates_;
      if (prefer(row, kept)) kept = row;
    }
    return;
  }
  // Rows are given in increasing order and the sort is stable, so the first pair of a run of
  // equal ids is the first row: the one kept unless a later one is preferred.
  sorted_ = pairs;
  RadixSortById(&sorted_, min_, span);
  size_t out = 0;
  for (size_t i = 0; i < sorted_.size(); ++i) {
    if (out > 0 && sorted_[out - 1].first == sorted_[i].first) {
      ++duplicates_;
      if (prefer(sorted_[i].second, sorted_[out - 1].second)) sorted_[out - 1] = sorted_[i];
      continue;
    }
    sorted_[out++] = sorted_[i];
  }
  sorted_.resize(out);
}

}  // namespace tensormorph
