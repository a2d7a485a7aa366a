// Host lanes of the report's timeline (host_lanes.h).
#include "report/html/host_lanes.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>

namespace tensormorph {
namespace {

constexpr uint32_t kTop = std::numeric_limits<uint32_t>::max();
constexpr const char* kKindNames[] = {"op", "annotation", "python", "runtime", "driver", "sync"};

bool ShownOnHost(SliceKind kind, HostBoxKind* as) {
  switch (kind) {
    case SliceKind::kOp:
      *as = HostBoxKind::kOp;
      return true;
    case SliceKind::kUserAnnotation:
      *as = HostBoxKind::kAnnotation;
      return true;
    case SliceKind::kPythonFunction:
      *as = HostBoxKind::kPython;
      return true;
    default:
      return false;  // GPU annotations: the device-side copies of the annotations drawn here
  }
}

HostBoxKind CallKind(ApiKind kind) {
  switch (kind) {
    case ApiKind::kDriver:
      return HostBoxKind::kDriver;
    case ApiKind::kSync:
      return HostBoxKind::kSync;
    default:
      return HostBoxKind::kRuntime;
  }
}

std::string ThreadLabel(const Trace& t, uint32_t track) {
  if (track >= t.tracks.size()) return "thread";
  const Track& k = t.tracks[track];
  if (!k.thread_name.empty()) return k.thread_name;
  if (!k.tid_name.empty()) return k.tid_name;
  return fmt::format("thread {}", k.tid);
}

}  // namespace

Json HostKindNamesJson() {
  Json names = Json::array();
  for (const char* name : kKindNames) names.push_back(name);
  return names;
}

HostLanes::HostLanes(const std::vector<const LinkedTrace*>& inputs) : inputs_(inputs) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Trace& t = inputs[i]->trace();
    std::map<uint32_t, size_t> lane_of;  // by track: lanes come out in track order
    auto lane = [&](uint32_t track) -> std::vector<Item>& {
      auto [it, added] = lane_of.try_emplace(track, 0);
      if (added) {
        it->second = lanes_.size();
        lanes_.push_back({static_cast<int>(i), track, {}});
      }
      return lanes_[it->second].items;
    };
    const size_t first_lane = lanes_.size();
    {  // each lane's items counted first, so that a million of them are not copied as it grows
      std::map<uint32_t, size_t> count;
      HostBoxKind kind;
      for (const Slice& slice : t.slices) {
        if (ShownOnHost(slice.kind, &kind)) ++count[slice.track];
      }
      for (const ApiCall& call : t.api_calls) ++count[call.track];
      for (const auto& [track, n] : count) lane(track).reserve(n);
    }
    for (uint32_t s = 0; s < t.slices.size(); ++s) {
      const Slice& slice = t.slices[s];
      HostBoxKind kind;
      if (ShownOnHost(slice.kind, &kind)) {
        lane(slice.track).push_back({slice.start_ns, slice.duration_ns, s, kTop, kind});
      }
    }
    for (uint32_t c = 0; c < t.api_calls.size(); ++c) {
      const ApiCall& call = t.api_calls[c];
      lane(call.track).push_back({call.start_ns, call.duration_ns, c, kTop, CallKind(call.kind)});
    }
    // Lanes were appended in first-seen order; put this input's in track order.
    std::vector<Lane> mine(std::make_move_iterator(lanes_.begin() + first_lane),
                           std::make_move_iterator(lanes_.end()));
    lanes_.resize(first_lane);
    std::sort(mine.begin(), mine.end(),
              [](const Lane& a, const Lane& b) { return a.track < b.track; });
    for (Lane& l : mine) lanes_.push_back(std::move(l));
  }
  for (Lane& lane : lanes_) {
    std::vector<Item>& items = lane.items;
    std::stable_sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
      if (a.start != b.start) return a.start < b.start;
      if (a.duration != b.duration) return a.duration > b.duration;
      return a.kind < b.kind;  // an op before the call it makes at the same instant
    });
    // Nesting: the innermost item still open at each start.
    std::vector<uint32_t> open;
    for (uint32_t j = 0; j < items.size(); ++j) {
      while (!open.empty() &&
             items[open.back()].start + items[open.back()].duration <= items[j].start) {
        open.pop_back();
      }
      items[j].parent = open.empty() ? kTop : open.back();
      open.push_back(j);
    }
  }
}

size_t HostLanes::item_count() const {
  size_t n = 0;
  for (const Lane& l : lanes_) n += l.items.size();
  return n;
}

int64_t HostLanes::CutForBudget(size_t budget) const {
  if (item_count() <= budget) return std::numeric_limits<int64_t>::max();
  std::vector<int64_t> starts;
  starts.reserve(item_count());
  for (const Lane& l : lanes_) {
    for (const Item& item : l.items) starts.push_back(item.start);
  }
  std::nth_element(starts.begin(), starts.begin() + static_cast<std::ptrdiff_t>(budget),
                   starts.end());
  return starts[budget];
}

Json HostLanes::Build(int64_t t0, int64_t span, int64_t raw_until, int64_t finest_bucket_ns,
                      TimelineNames* names, HostBoxIds* ids, Json* labels) const {
  *labels = Json::array();
  std::map<std::pair<uint32_t, HostBoxKind>, uint32_t> label_of;  // (name index, kind)
  ids->slice.assign(inputs_.size(), {});
  ids->call.assign(inputs_.size(), {});
  for (size_t i = 0; i < inputs_.size(); ++i) {
    ids->slice[i].assign(inputs_[i]->trace().slices.size(), -1);
    ids->call[i].assign(inputs_[i]->trace().api_calls.size(), -1);
  }
  Json out = Json::array();
  int64_t box_base = 0;
  for (const Lane& lane : lanes_) {
    const Trace& t = inputs_[lane.input]->trace();
    std::map<StringId, uint32_t> name_index;  // the trace's ids -> the timeline's names
    auto name_of = [&](const Item& item) {
      const StringId id = item.is_call() ? t.api_calls[item.row].name : t.slices[item.row].name;
      auto [it, added] = name_index.try_emplace(id, 0);
      if (added) it->second = names->Intern(t.str(id));
      return it->second;
    };
    const bool with_lod = lane.items.size() > kHostLodMinItems ||
                          (!lane.items.empty() && lane.items.back().start - t0 >= raw_until);
    std::vector<LodBuckets> lod;
    if (with_lod) lod.assign(kHostLodDepths, LodBuckets(finest_bucket_ns, span));
    // depth: over every box; lod_depth: over the boxes that are not Python frames, which the
    // buckets leave out (a with_stack trace's frames would fill the top rows above the ops).
    std::vector<uint32_t> depth(lane.items.size(), 0), lod_depth(lane.items.size(), 0);
    Json s = Json::array(), d = Json::array(), n = Json::array(), p = Json::array();
    int64_t previous = 0, max_duration = 0;
    uint32_t max_depth = 0;
    for (uint32_t j = 0; j < lane.items.size(); ++j) {
      const Item& item = lane.items[j];
      const bool python = item.kind == HostBoxKind::kPython;
      if (item.parent != kTop) {
        depth[j] = depth[item.parent] + 1;
        const bool python_parent = lane.items[item.parent].kind == HostBoxKind::kPython;
        lod_depth[j] = lod_depth[item.parent] + (python_parent ? 0 : 1);
      }
      max_depth = std::max(max_depth, depth[j]);
      const int64_t start = item.start - t0;
      if (with_lod && !python && lod_depth[j] < kHostLodDepths) {
        lod[lod_depth[j]].Add(start, start + item.duration, name_of(item));
      }
      if (start >= raw_until) continue;
      s.push_back(start - previous);
      previous = start;
      d.push_back(item.duration);
      auto [label, added] =
          label_of.try_emplace({name_of(item), item.kind}, static_cast<uint32_t>(labels->size()));
      if (added) labels->push_back({name_of(item), static_cast<int>(item.kind)});
      n.push_back(label->second);
      p.push_back(item.parent == kTop ? 0 : j - item.parent);
      max_duration = std::max(max_duration, item.duration);
      (item.is_call() ? ids->call : ids->slice)[lane.input][item.row] =
          box_base + static_cast<int64_t>(j);
    }
    Json lane_json;
    lane_json["input"] = lane.input;
    if (t.rank) lane_json["rank"] = *t.rank;
    lane_json["thread"] = ThreadLabel(t, lane.track);
    if (lane.track < t.tracks.size()) {
      lane_json["pid"] = t.tracks[lane.track].pid;
      lane_json["tid"] = t.tracks[lane.track].tid;
    }
    lane_json["item_count"] = lane.items.size();
    lane_json["raw_count"] = s.size();
    lane_json["depth_count"] = lane.items.empty() ? 0 : max_depth + 1;
    lane_json["max_duration_ns"] = max_duration;
    lane_json["box_base"] = box_base;
    box_base += static_cast<int64_t>(s.size());
    lane_json["s"] = std::move(s);
    lane_json["d"] = std::move(d);
    lane_json["n"] = std::move(n);
    lane_json["p"] = std::move(p);
    if (with_lod) {
      Json levels = Json::array();
      for (LodBuckets& b : lod) levels.push_back(b.TakePyramid());
      lane_json["lod"] = std::move(levels);
    }
    out.push_back(std::move(lane_json));
  }
  return out;
}

}  // namespace tensormorph
