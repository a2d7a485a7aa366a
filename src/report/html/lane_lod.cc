// The names table and the LOD pyramid of the report's timeline lanes (lane_lod.h).
#include "report/html/lane_lod.h"

#include <algorithm>
#include <utility>

namespace tensormorph {

uint32_t TimelineNames::Intern(std::string_view name) {
  auto [it, added] = ids_.try_emplace(std::string(name), static_cast<uint32_t>(names_.size()));
  if (added) names_.push_back(it->first);
  return it->second;
}

LodBuckets::LodBuckets(int64_t width_ns, int64_t span_ns)
    : width_(std::max<int64_t>(1, width_ns)),
      busy_(static_cast<size_t>(std::max<int64_t>(0, span_ns) / width_) + 1, 0),
      by_key_(busy_.size()) {}

void LodBuckets::Add(int64_t start, int64_t end, uint32_t key) {
  if (end <= start) end = start + 1;
  const int64_t limit = static_cast<int64_t>(busy_.size()) * width_;
  start = std::max<int64_t>(start, 0);
  end = std::min(end, limit);
  if (end <= start) return;
  for (auto b = static_cast<size_t>(start / width_); b < busy_.size(); ++b) {
    const int64_t lo = std::max(start, static_cast<int64_t>(b) * width_);
    const int64_t hi = std::min(end, static_cast<int64_t>(b + 1) * width_);
    if (hi <= lo) break;
    busy_[b] += hi - lo;
    by_key_[b][key] += hi - lo;
  }
}

Json LodBuckets::TakePyramid() {
  Json levels = Json::array();
  int64_t width = width_;
  std::vector<int64_t> busy = std::move(busy_);
  std::vector<std::unordered_map<uint32_t, int64_t>> by_key = std::move(by_key_);
  while (true) {
    Json b = Json::array(), dom = Json::array();
    for (size_t i = 0; i < busy.size(); ++i) {
      b.push_back(std::min<int64_t>(255, (busy[i] * 255 + width - 1) / width));
      uint32_t best = 0;
      int64_t best_ns = 0;
      for (const auto& [key, ns] : by_key[i]) {
        if (ns > best_ns || (ns == best_ns && key + 1 < best)) best = key + 1, best_ns = ns;
      }
      dom.push_back(best);
    }
    levels.push_back(Json{{"bucket_ns", width}, {"busy", std::move(b)}, {"dom", std::move(dom)}});
    if (busy.size() <= 64) break;
    const size_t next = (busy.size() + 3) / 4;
    std::vector<int64_t> merged(next, 0);
    std::vector<std::unordered_map<uint32_t, int64_t>> merged_by(next);
    for (size_t i = 0; i < busy.size(); ++i) {
      merged[i / 4] += busy[i];
      for (const auto& [key, ns] : by_key[i]) merged_by[i / 4][key] += ns;
    }
    busy = std::move(merged);
    by_key = std::move(merged_by);
    width *= 4;
  }
  return levels;
}

}  // namespace tensormorph
