// How every per-kernel analysis orders and trims its rows, so that `--top N` means the same
// everywhere: the largest total time first, ties by name; keep the first `top` rows (0 = all).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace tensormorph {

// Returns the number of rows before trimming.
template <typename Row>
size_t RankByTotalTime(std::vector<Row>* rows, size_t top) {
  std::stable_sort(rows->begin(), rows->end(), [](const Row& a, const Row& b) {
    if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
    return a.name < b.name;
  });
  const size_t before = rows->size();
  if (top > 0 && rows->size() > top) rows->resize(top);
  return before;
}

}  // namespace tensormorph
