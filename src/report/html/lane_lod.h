// What the device and host lanes of the report's timeline share: the names table their boxes
// index, and the level-of-detail pyramid drawn where raw boxes are too many or not embedded.
//
// Pyramid invariants (assets/js/timeline.js reads them): level i has buckets of bucket_ns[0] * 4^i
// starting at the timeline's t0 and covering [0, span]; per bucket `busy` is the covered fraction
// in 0..255 (boxes of one row may overlap: capped at 255) and `dom` the key + 1 of the box with the
// most time in it (0: empty), ties to the smaller key. The coarsest level has at most 64 buckets.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "report/json_output.h"

namespace tensormorph {

// Kernel, op and call names, each stored once; boxes and variants refer to them by index.
class TimelineNames {
 public:
  uint32_t Intern(std::string_view name);
  Json TakeJson() { return std::move(names_); }

 private:
  std::unordered_map<std::string, uint32_t> ids_;
  Json names_ = Json::array();
};

// Time per key per bucket of the finest level, then merged 4 by 4 into the coarser levels.
class LodBuckets {
 public:
  // Buckets of `width_ns` over [0, span_ns].
  LodBuckets(int64_t width_ns, int64_t span_ns);
  // [start, end) relative to t0, of the box with key `key`; the part outside [0, span] is not
  // counted. A zero-length box still marks its bucket.
  void Add(int64_t start, int64_t end, uint32_t key);
  // The levels, finest first; leaves the buckets empty.
  Json TakePyramid();

 private:
  int64_t width_;
  std::vector<int64_t> busy_;
  std::vector<std::unordered_map<uint32_t, int64_t>> by_key_;
};

}  // namespace tensormorph
