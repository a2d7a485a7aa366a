// What the device and host lanes of the report's timeline share: the names table their boxes
// index, and the level-of-detail pyramid drawn where raw boxes are too many or not embedded.
//
// Pyramid invariants (assets/js/timeline.js reads them): level i has buckets of bucket_ns[0] * 4^i
// starting at the timeline's t0 and covering [0, span]; per bucket `busy` is the covered fraction
// in 0..255 (boxes of one row may overlap: capped at 255) and `dom` the key + 1 of the box with the
// most time in it (0: empty), ties to the smaller key. The coarsest level has at most 64 buckets.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
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

// Time per key per bucket of the finest level, then merged 4 by 4 into the coarser levels. Boxes
// come in order of start in every lane (the lanes' invariant), so one bucket at a time is open:
// its time per key is summed in a dense array, then kept as a short list sorted by key when a box
// starts past it. The part of a box in a later bucket waits in `later_` until that bucket opens;
// a box out of order is still counted, into its bucket's closed list.
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
  using KeyTimes = std::vector<std::pair<uint32_t, int64_t>>;  // (key, ns), sorted by key

  void AddTo(size_t bucket, uint32_t key, int64_t ns);
  // Closes every bucket before `bucket`, which becomes the open one.
  void OpenBucket(size_t bucket);

  int64_t width_;
  std::vector<int64_t> busy_;
  std::vector<KeyTimes> by_key_;  // the closed buckets'
  size_t open_ = 0;
  std::vector<int64_t> open_ns_;      // by key, the open bucket's time
  std::vector<uint32_t> open_keys_;   // the keys with time in open_ns_
  std::map<size_t, KeyTimes> later_;  // by bucket past the open one, unsorted
};

}  // namespace tensormorph
