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
  const auto first = static_cast<size_t>(start / width_);
  if (first > open_) OpenBucket(first);
  for (size_t b = first; b < busy_.size(); ++b) {
    const int64_t lo = std::max(start, static_cast<int64_t>(b) * width_);
    const int64_t hi = std::min(end, static_cast<int64_t>(b + 1) * width_);
    if (hi <= lo) break;
    busy_[b] += hi - lo;
    AddTo(b, key, hi - lo);
  }
}

void LodBuckets::AddTo(size_t bucket, uint32_t key, int64_t ns) {
  if (bucket == open_) {
    if (key >= open_ns_.size()) open_ns_.resize(static_cast<size_t>(key) + 1, 0);
    if (open_ns_[key] == 0) open_keys_.push_back(key);
    open_ns_[key] += ns;
  } else if (bucket > open_) {
    later_[bucket].emplace_back(key, ns);
  } else {  // a box that starts before an earlier one: into its closed bucket
    KeyTimes& closed = by_key_[bucket];
    auto at = std::lower_bound(closed.begin(), closed.end(), key,
                               [](const auto& entry, uint32_t k) { return entry.first < k; });
    if (at == closed.end() || at->first != key) at = closed.insert(at, {key, 0});
    at->second += ns;
  }
}

void LodBuckets::OpenBucket(size_t bucket) {
  while (open_ < bucket) {
    if (auto waiting = later_.find(open_); waiting != later_.end()) {
      const KeyTimes parts = std::move(waiting->second);
      later_.erase(waiting);
      for (const auto& [key, ns] : parts) AddTo(open_, key, ns);
    }
    if (!open_keys_.empty()) {
      std::sort(open_keys_.begin(), open_keys_.end());
      KeyTimes& closed = by_key_[open_];
      closed.reserve(open_keys_.size());
      for (uint32_t key : open_keys_) {
        closed.emplace_back(key, open_ns_[key]);
        open_ns_[key] = 0;
      }
      open_keys_.clear();
    }
    // Nothing open: go straight to the next bucket that has time waiting, or to `bucket`.
    ++open_;
    const size_t next_waiting = later_.empty() ? bucket : std::min(bucket, later_.begin()->first);
    open_ = std::max(open_, next_waiting);
  }
}

Json LodBuckets::TakePyramid() {
  OpenBucket(busy_.size());
  Json levels = Json::array();
  int64_t width = width_;
  std::vector<int64_t> busy = std::move(busy_);
  std::vector<KeyTimes> by_key = std::move(by_key_);
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
    std::vector<KeyTimes> merged_by(next);
    for (size_t m = 0; m < next; ++m) {
      KeyTimes& out = merged_by[m];
      for (size_t i = 4 * m; i < std::min(busy.size(), 4 * m + 4); ++i) {
        merged[m] += busy[i];
        out.insert(out.end(), by_key[i].begin(), by_key[i].end());
      }
      std::sort(out.begin(), out.end());
      size_t kept = 0;  // equal keys summed
      for (size_t i = 0; i < out.size(); ++i) {
        if (kept > 0 && out[kept - 1].first == out[i].first) {
          out[kept - 1].second += out[i].second;
        } else {
          out[kept++] = out[i];
        }
      }
      out.resize(kept);
    }
    busy = std::move(merged);
    by_key = std::move(merged_by);
    width *= 4;
  }
  return levels;
}

}  // namespace tensormorph
