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
    // The host tables are sorted by track (Trace's invariant): each lane merges one run of slices
    // with one run of calls, in track order. A table out of track order is visited through a
    // stable order by track instead.
    const TrackOrder slice_order(t.slices);
    const TrackOrder call_order(t.api_calls);
    Rows slices{&slice_order, 0, 0}, calls{&call_order, 0, 0};
    while (slices.end < t.slices.size() || calls.end < t.api_calls.size()) {
      slices.begin = slices.end;
      calls.begin = calls.end;
      const bool slices_left = slices.begin < t.slices.size();
      const bool calls_left = calls.begin < t.api_calls.size();
      const uint32_t track = !calls_left    ? t.slices[slices.at(slices.begin)].track
                             : !slices_left ? t.api_calls[calls.at(calls.begin)].track
                                            : std::min(t.slices[slices.at(slices.begin)].track,
                                                       t.api_calls[calls.at(calls.begin)].track);
      while (slices.end < t.slices.size() && t.slices[slices.at(slices.end)].track == track) {
        ++slices.end;
      }
      while (calls.end < t.api_calls.size() && t.api_calls[calls.at(calls.end)].track == track) {
        ++calls.end;
      }
      Lane lane{static_cast<int>(i), track, MergeRuns(t, slices, calls)};
      if (lane.items.empty()) continue;  // GPU annotations only
      Nest(t, &lane.items);
      lanes_.push_back(std::move(lane));
    }
  }
}

std::vector<HostLanes::Item> HostLanes::MergeRuns(const Trace& t, Rows slices, Rows calls) {
  std::vector<Item> items;
  items.reserve((slices.end - slices.begin) + (calls.end - calls.begin));
  // Each run is in lane order but for ties of start and duration between slices of different
  // kinds (the table sorts those by name): then the lane is sorted whole, stably, which gives what
  // sorting the two runs one after the other gives.
  bool in_order = true;
  Item next_slice{}, next_call{};
  Key slice_key{}, call_key{}, last_slice{}, last_call{};
  bool any_slice = false, any_call = false;
  size_t s = slices.begin, c = calls.begin;
  auto read_slice = [&] {
    HostBoxKind kind;
    for (; s < slices.end; ++s) {
      const uint32_t row = slices.at(s);
      const Slice& slice = t.slices[row];
      if (ShownOnHost(slice.kind, &kind)) {
        next_slice = {row, kTop, kind};
        slice_key = {slice.start_ns, slice.duration_ns, kind};
        ++s;
        return true;
      }
    }
    return false;
  };
  auto read_call = [&] {
    if (c == calls.end) return false;
    const uint32_t row = calls.at(c++);
    const ApiCall& call = t.api_calls[row];
    next_call = {row, kTop, CallKind(call.kind)};
    call_key = {call.start_ns, call.duration_ns, next_call.kind};
    return true;
  };
  bool have_slice = read_slice(), have_call = read_call();
  while (have_slice || have_call) {
    const bool take_slice = have_slice && (!have_call || !KeyBefore(call_key, slice_key));
    const Key& key = take_slice ? slice_key : call_key;
    Key& last = take_slice ? last_slice : last_call;
    bool& any = take_slice ? any_slice : any_call;
    if (any && KeyBefore(key, last)) in_order = false;
    items.push_back(take_slice ? next_slice : next_call);
    last = key;
    any = true;
    if (take_slice) {
      have_slice = read_slice();
    } else {
      have_call = read_call();
    }
  }
  if (!in_order) {
    std::stable_sort(items.begin(), items.end(), [&](const Item& a, const Item& b) {
      return KeyBefore(KeyOf(t, a), KeyOf(t, b));
    });
  }
  return items;
}

void HostLanes::Nest(const Trace& t, std::vector<Item>* items) {
  // The innermost item still open at each start.
  std::vector<std::pair<uint32_t, int64_t>> open;  // (index, end)
  for (uint32_t j = 0; j < items->size(); ++j) {
    Item& item = (*items)[j];
    const Key key = KeyOf(t, item);
    while (!open.empty() && open.back().second <= key.start) open.pop_back();
    item.parent = open.empty() ? kTop : open.back().first;
    open.emplace_back(j, key.start + key.duration);
  }
}

HostLanes::Key HostLanes::KeyOf(const Trace& t, const Item& item) {
  if (item.is_call()) {
    const ApiCall& call = t.api_calls[item.row];
    return {call.start_ns, call.duration_ns, item.kind};
  }
  const Slice& slice = t.slices[item.row];
  return {slice.start_ns, slice.duration_ns, item.kind};
}

bool HostLanes::KeyBefore(const Key& a, const Key& b) {
  if (a.start != b.start) return a.start < b.start;
  if (a.duration != b.duration) return a.duration > b.duration;
  return a.kind < b.kind;
}

size_t HostLanes::item_count() const {
  size_t n = 0;
  for (const Lane& l : lanes_) n += l.items.size();
  return n;
}

int64_t HostLanes::CutForBudget(size_t budget) const {
  if (item_count() <= budget) return std::numeric_limits<int64_t>::max();
  // The budget-th smallest start (from 0): the least time t with more than `budget` items
  // starting at or before t. Each lane is sorted by start, so the count is a binary search per
  // lane, and t is found by bisecting the times; no copy of the starts (millions on a 1 GB trace).
  auto starting_by = [&](int64_t t) {
    size_t count = 0;
    for (const Lane& l : lanes_) {
      const Trace& trace = inputs_[l.input]->trace();
      count += static_cast<size_t>(
          std::partition_point(l.items.begin(), l.items.end(),
                               [&](const Item& item) { return KeyOf(trace, item).start <= t; }) -
          l.items.begin());
    }
    return count;
  };
  int64_t lo = std::numeric_limits<int64_t>::max(), hi = std::numeric_limits<int64_t>::min();
  for (const Lane& l : lanes_) {
    if (l.items.empty()) continue;
    const Trace& trace = inputs_[l.input]->trace();
    lo = std::min(lo, KeyOf(trace, l.items.front()).start);
    hi = std::max(hi, KeyOf(trace, l.items.back()).start);
  }
  // Invariant: starting_by(hi) > budget; starting_by(lo - 1) <= budget.
  while (lo < hi) {
    const int64_t mid = lo + static_cast<int64_t>((static_cast<uint64_t>(hi) - lo) / 2);
    if (starting_by(mid) > budget) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
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
  std::vector<std::vector<uint32_t>> name_index_of(inputs_.size());
  for (const Lane& lane : lanes_) {
    const Trace& t = inputs_[lane.input]->trace();
    std::vector<uint32_t>& name_index = name_index_of[lane.input];  // trace's id -> timeline's
    if (name_index.empty()) name_index.assign(t.strings.size(), kTop);
    auto name_of = [&](const Item& item) {
      const StringId id = item.is_call() ? t.api_calls[item.row].name : t.slices[item.row].name;
      if (name_index[id] == kTop) name_index[id] = names->Intern(t.str(id));
      return name_index[id];
    };
    const bool with_lod =
        lane.items.size() > kHostLodMinItems ||
        (!lane.items.empty() && KeyOf(t, lane.items.back()).start - t0 >= raw_until);
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
      const Key key = KeyOf(t, item);
      const bool python = item.kind == HostBoxKind::kPython;
      if (item.parent != kTop) {
        depth[j] = depth[item.parent] + 1;
        const bool python_parent = lane.items[item.parent].kind == HostBoxKind::kPython;
        lod_depth[j] = lod_depth[item.parent] + (python_parent ? 0 : 1);
      }
      max_depth = std::max(max_depth, depth[j]);
      const int64_t start = key.start - t0;
      if (with_lod && !python && lod_depth[j] < kHostLodDepths) {
        lod[lod_depth[j]].Add(start, start + key.duration, name_of(item));
      }
      if (start >= raw_until) continue;
      s.push_back(start - previous);
      previous = start;
      d.push_back(key.duration);
      auto [label, added] =
          label_of.try_emplace({name_of(item), item.kind}, static_cast<uint32_t>(labels->size()));
      if (added) labels->push_back({name_of(item), static_cast<int>(item.kind)});
      n.push_back(label->second);
      p.push_back(item.parent == kTop ? 0 : j - item.parent);
      max_duration = std::max(max_duration, key.duration);
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
