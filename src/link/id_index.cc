#include "link/id_index.h"

#include <algorithm>
#include <array>

namespace tensormorph {

void IdIndex::Range(const std::vector<std::pair<uint64_t, uint32_t>>& pairs, uint64_t* min,
                    uint64_t* span) {
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const auto& p : pairs) {
    lo = std::min(lo, p.first);
    hi = std::max(hi, p.first);
  }
  *min = lo;
  *span = hi - lo;
}

void IdIndex::RadixSortById(std::vector<std::pair<uint64_t, uint32_t>>* pairs, uint64_t min,
                            uint64_t span) {
  constexpr int kBits = 11;
  constexpr uint64_t kMask = (uint64_t{1} << kBits) - 1;
  std::vector<std::pair<uint64_t, uint32_t>> buffer(pairs->size());
  for (int shift = 0; shift < 64 && (span >> shift) != 0; shift += kBits) {
    std::array<size_t, kMask + 1> start{};
    for (const auto& p : *pairs) ++start[((p.first - min) >> shift) & kMask];
    size_t sum = 0;
    for (size_t& s : start) sum += std::exchange(s, sum);
    for (const auto& p : *pairs) buffer[start[((p.first - min) >> shift) & kMask]++] = p;
    pairs->swap(buffer);
  }
}

uint32_t IdIndex::FindSorted(uint64_t id) const {
  auto it = std::lower_bound(sorted_.begin(), sorted_.end(), id,
                             [](const auto& pair, uint64_t key) { return pair.first < key; });
  return it != sorted_.end() && it->first == id ? it->second : kNone;
}

}  // namespace tensormorph
