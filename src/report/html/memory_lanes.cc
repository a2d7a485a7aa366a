#include "report/html/memory_lanes.h"

#include <algorithm>

namespace tensormorph {

std::vector<MemorySample> KeepMemorySamples(const std::vector<MemorySample>& series) {
  if (series.size() <= kMaxMemoryPoints) return series;
  const int64_t first = series.front().ts_ns, last = series.back().ts_ns;
  const int64_t buckets = kMaxMemoryPoints / 2;
  // Bucket of a time: [first, last] cut into `buckets` equal parts (the last time in the last).
  auto bucket_of = [&](int64_t ts) {
    if (last == first) return int64_t{0};
    const double part = static_cast<double>(ts - first) / static_cast<double>(last - first);
    return std::min<int64_t>(buckets - 1,
                             static_cast<int64_t>(part * static_cast<double>(buckets)));
  };
  std::vector<MemorySample> kept;
  kept.reserve(kMaxMemoryPoints);
  size_t begin = 0;
  while (begin < series.size()) {
    const int64_t bucket = bucket_of(series[begin].ts_ns);
    size_t end = begin, most = begin;
    while (end < series.size() && bucket_of(series[end].ts_ns) == bucket) {
      if (series[end].allocated_bytes > series[most].allocated_bytes) most = end;
      ++end;
    }
    kept.push_back(series[most]);
    if (end - 1 != most) kept.push_back(series[end - 1]);
    begin = end;
  }
  return kept;
}

Json MemoryLanes(const MemoryResult& result, int64_t t0_ns) {
  Json lanes = Json::array();
  for (const DeviceMemory& d : result.devices) {
    const std::vector<MemorySample> kept = KeepMemorySamples(d.series);
    Json t = Json::array(), a = Json::array(), r = Json::array();
    bool reserved = !kept.empty();
    int64_t previous = t0_ns;
    for (const MemorySample& s : kept) {
      t.push_back(s.ts_ns - previous);
      previous = s.ts_ns;
      a.push_back(s.allocated_bytes);
      reserved = reserved && s.reserved_bytes.has_value();
      r.push_back(s.reserved_bytes ? Json(*s.reserved_bytes) : Json(nullptr));
    }
    lanes.push_back({{"t", std::move(t)},
                     {"a", std::move(a)},
                     {"r", reserved ? std::move(r) : Json(nullptr)},
                     {"dropped", d.series.size() - kept.size()}});
  }
  return lanes;
}

}  // namespace tensormorph
