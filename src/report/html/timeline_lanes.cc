// Lanes, variants, raw boxes and the LOD pyramid of the HTML report (timeline_lanes.h).
#include "report/html/timeline_lanes.h"

#include <fmt/format.h>

#include <algorithm>
#include <compare>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

#include "tensormorph/analysis/kernels.h"

namespace tensormorph {
namespace {

// A launch's configuration, as a tooltip shows it.
struct LaunchShape {
  uint32_t gx, gy, gz, bx, by, bz;
  uint32_t registers, shared;
  auto operator<=>(const LaunchShape&) const = default;
};

LaunchShape ShapeOf(const Kernel& k) {
  return {k.grid.x,
          k.grid.y,
          k.grid.z,
          k.block.x,
          k.block.y,
          k.block.z,
          k.registers_per_thread,
          k.shared_memory_bytes};
}

// What a tooltip shows about a launch beyond its time: deduplicated over all kernels, so a
// million boxes need only an index each.
struct VariantKey {
  std::string name, op;
  Backend backend;
  LaunchShape shape;
  auto operator<=>(const VariantKey&) const = default;
};

// The same key by the trace's string ids, so that a kernel whose variant is known is found without
// copying its name. Ids differ between inputs, so the input is part of it.
struct VariantIds {
  uint32_t input, name, op;  // op: the op's name id + 1, 0 for none
  Backend backend;
  LaunchShape shape;
  bool operator==(const VariantIds&) const = default;
};
struct VariantIdsHash {
  size_t operator()(const VariantIds& v) const {
    uint64_t h = 14695981039346656037ULL;  // FNV-1a over the fields
    for (uint32_t x :
         {v.input, v.name, v.op, static_cast<uint32_t>(v.backend), v.shape.gx, v.shape.gy,
          v.shape.gz, v.shape.bx, v.shape.by, v.shape.bz, v.shape.registers, v.shape.shared}) {
      h = (h ^ x) * 1099511628211ULL;
    }
    return h;
  }
};

using OccupancyKey = std::tuple<std::string, Backend, int64_t, int64_t, int64_t>;

std::string Dims(uint32_t x, uint32_t y, uint32_t z) {
  if (x == 0 && y == 0 && z == 0) return "";
  return fmt::format("{}×{}×{}", x, y, z);
}

struct LaneKernels {
  int input = 0;
  uint32_t device = kNoDevice;
  int64_t stream = -1;
  std::vector<uint32_t> rows;  // indices into the input's kernels, by start
};

// Adds [start, end) of variant `v` into the bucket arrays of width `width` (ns).
void AddToBuckets(int64_t start, int64_t end, uint32_t v, int64_t width, std::vector<int64_t>* busy,
                  std::vector<std::unordered_map<uint32_t, int64_t>>* by, size_t count) {
  if (end <= start) end = start + 1;  // zero-length launches still mark their bucket
  size_t first = static_cast<size_t>(start / width);
  size_t last = std::min(count - 1, static_cast<size_t>((end - 1) / width));
  for (size_t b = first; b <= last && b < count; ++b) {
    const int64_t lo = std::max(start, static_cast<int64_t>(b) * width);
    const int64_t hi = std::min(end, static_cast<int64_t>(b + 1) * width);
    if (hi <= lo) continue;
    (*busy)[b] += hi - lo;
    (*by)[b][v] += hi - lo;
  }
}

}  // namespace

Json BuildTimelineLanes(const std::vector<const LinkedTrace*>& inputs,
                        const KernelOccupancySummary& occupancy, const LaneOptions& options) {
  const std::vector<const Trace*> traces = TracesOf(inputs);
  std::map<OccupancyKey, double> theoretical;
  for (const KernelOccupancyRow& r : occupancy.rows) {
    theoretical.emplace(OccupancyKey{r.name, r.backend, r.block_size, r.registers_per_thread,
                                     r.shared_memory_bytes},
                        r.occupancy.occupancy);
  }

  // Lanes in (input, device, stream) order: the trace's own kernel order (DESIGN §2).
  int64_t t0 = std::numeric_limits<int64_t>::max(), t1 = std::numeric_limits<int64_t>::min();
  std::vector<LaneKernels> lanes;
  for (size_t i = 0; i < traces.size(); ++i) {
    const Trace& t = *traces[i];
    for (uint32_t k = 0; k < t.kernels.size(); ++k) {
      const Kernel& kernel = t.kernels[k];
      if (lanes.empty() || lanes.back().input != static_cast<int>(i) ||
          lanes.back().device != kernel.device || lanes.back().stream != kernel.stream) {
        lanes.push_back({static_cast<int>(i), kernel.device, kernel.stream, {}});
      }
      lanes.back().rows.push_back(k);
      t0 = std::min(t0, kernel.start_ns);
      t1 = std::max(t1, kernel.end_ns());
    }
  }
  Json out = Json::object();
  if (lanes.empty()) {
    out["t0_ns"] = 0;
    out["span_ns"] = 0;
    out["lanes"] = Json::array();
    out["variants"] = Json::array();
    out["names"] = Json::array();
    return out;
  }
  // A lane could in principle repeat (unsorted input): keep each lane's rows sorted by start.
  // They come sorted from the import: checking is cheaper than sorting again.
  for (LaneKernels& lane : lanes) {
    const Trace& t = *traces[lane.input];
    auto by_start = [&](uint32_t a, uint32_t b) {
      return t.kernels[a].start_ns < t.kernels[b].start_ns;
    };
    if (!std::is_sorted(lane.rows.begin(), lane.rows.end(), by_start)) {
      std::stable_sort(lane.rows.begin(), lane.rows.end(), by_start);
    }
  }
  const int64_t span = std::max<int64_t>(1, t1 - t0);

  // One cut in time for raw boxes: the budget-th earliest start over every lane.
  int64_t raw_until = std::numeric_limits<int64_t>::max();
  size_t total = 0;
  for (const LaneKernels& lane : lanes) total += lane.rows.size();
  if (total > options.max_raw_boxes) {
    std::vector<int64_t> starts;
    starts.reserve(total);
    for (const LaneKernels& lane : lanes) {
      for (uint32_t k : lane.rows) starts.push_back(traces[lane.input]->kernels[k].start_ns - t0);
    }
    std::nth_element(starts.begin(), starts.begin() + options.max_raw_boxes, starts.end());
    raw_until = starts[options.max_raw_boxes];  // kernels starting strictly before are kept
  }

  std::map<VariantKey, uint32_t> variant_ids;
  std::unordered_map<VariantIds, uint32_t, VariantIdsHash> variant_by_ids;
  Json variants = Json::array();
  // Kernel and op names, interned once: variants refer to them by index.
  std::unordered_map<std::string, uint32_t> name_ids;
  Json names = Json::array();
  auto intern = [&](const std::string& name) {
    auto [it, added] = name_ids.emplace(name, static_cast<uint32_t>(names.size()));
    if (added) names.push_back(name);
    return it->second;
  };
  auto variant_of = [&](int input, const Trace& t, const TraceLinks& l, uint32_t k) -> uint32_t {
    const Kernel& kernel = t.kernels[k];
    const Backend backend =
        kernel.device < t.devices.size() ? t.devices[kernel.device].backend : Backend::kOther;
    const WorkLink& link = l.kernels[k];
    const VariantIds ids{static_cast<uint32_t>(input), kernel.name,
                         link.op != kNoRow ? t.slices[link.op].name + 1 : 0, backend,
                         ShapeOf(kernel)};
    auto known = variant_by_ids.find(ids);
    if (known != variant_by_ids.end()) return known->second;
    VariantKey key{std::string(t.str(kernel.name)),
                   link.op != kNoRow ? std::string(t.str(t.slices[link.op].name)) : "", backend,
                   ids.shape};
    auto [it, added] = variant_ids.emplace(key, static_cast<uint32_t>(variants.size()));
    if (added) {
      const LaunchShape& shape = key.shape;
      Json v =
          Json::array({intern(key.name), intern(key.op), BackendName(backend),
                       Dims(shape.gx, shape.gy, shape.gz), Dims(shape.bx, shape.by, shape.bz)});
      const int64_t block = int64_t{shape.bx} * std::max(1u, shape.by) * std::max(1u, shape.bz);
      auto occ = theoretical.find({key.name, backend, block, shape.registers, shape.shared});
      v.push_back(occ != theoretical.end() ? Json(occ->second) : Json(nullptr));
      v.push_back(kernel.achieved_occupancy_percent >= 0
                      ? Json(kernel.achieved_occupancy_percent / 100.0)
                      : Json(nullptr));
      variants.push_back(std::move(v));
    }
    variant_by_ids.emplace(ids, it->second);
    return it->second;
  };

  int64_t finest = std::max<int64_t>(
      1, (span + options.finest_buckets - 1) / static_cast<int64_t>(options.finest_buckets));
  Json lanes_json = Json::array();
  size_t raw_kept = 0;
  for (const LaneKernels& lane : lanes) {
    const Trace& t = *traces[lane.input];
    const TraceLinks& l = inputs[lane.input]->links();
    Json s = Json::array(), d = Json::array(), v = Json::array();
    const size_t count0 = static_cast<size_t>(span / finest) + 1;
    std::vector<int64_t> busy(count0, 0);
    std::vector<std::unordered_map<uint32_t, int64_t>> by(count0);
    int64_t previous = 0, max_duration = 0, busy_ns = 0;
    for (uint32_t k : lane.rows) {
      const Kernel& kernel = t.kernels[k];
      const int64_t start = kernel.start_ns - t0;
      const uint32_t variant = variant_of(lane.input, t, l, k);
      AddToBuckets(start, start + kernel.duration_ns, variant, finest, &busy, &by, count0);
      busy_ns += kernel.duration_ns;
      if (start < raw_until) {
        s.push_back(start - previous);
        d.push_back(kernel.duration_ns);
        v.push_back(variant);
        previous = start;
        max_duration = std::max(max_duration, kernel.duration_ns);
        ++raw_kept;
      }
    }
    // The pyramid: level 0 from the kernels, each coarser level merges 4 buckets of the last.
    Json levels = Json::array();
    int64_t width = finest;
    std::vector<int64_t> level_busy = std::move(busy);
    std::vector<std::unordered_map<uint32_t, int64_t>> level_by = std::move(by);
    while (true) {
      Json b = Json::array(), dom = Json::array();
      for (size_t i = 0; i < level_busy.size(); ++i) {
        b.push_back(std::min<int64_t>(255, (level_busy[i] * 255 + width - 1) / width));
        uint32_t best = 0;
        int64_t best_ns = 0;
        for (const auto& [variant, ns] : level_by[i]) {
          if (ns > best_ns || (ns == best_ns && variant + 1 < best))
            best = variant + 1, best_ns = ns;
        }
        dom.push_back(best);
      }
      levels.push_back(Json{{"bucket_ns", width}, {"busy", std::move(b)}, {"dom", std::move(dom)}});
      if (level_busy.size() <= 64) break;
      const size_t next = (level_busy.size() + 3) / 4;
      std::vector<int64_t> nb(next, 0);
      std::vector<std::unordered_map<uint32_t, int64_t>> nby(next);
      for (size_t i = 0; i < level_busy.size(); ++i) {
        nb[i / 4] += level_busy[i];
        for (const auto& [variant, ns] : level_by[i]) nby[i / 4][variant] += ns;
      }
      level_busy = std::move(nb);
      level_by = std::move(nby);
      width *= 4;
    }
    Json j;
    j["input"] = lane.input;
    j["device"] = lane.device == kNoDevice ? "(no device)" : DeviceLabel(t, lane.device, false);
    if (t.rank) j["rank"] = *t.rank;
    j["device_index"] = lane.device == kNoDevice ? -1 : static_cast<int64_t>(lane.device);
    j["stream"] = lane.stream;
    j["kernel_count"] = lane.rows.size();
    j["busy_ns"] = busy_ns;
    j["max_duration_ns"] = max_duration;
    j["raw_count"] = s.size();
    j["s"] = std::move(s);
    j["d"] = std::move(d);
    j["v"] = std::move(v);
    j["lod"] = std::move(levels);
    lanes_json.push_back(std::move(j));
  }
  out["t0_ns"] = t0;
  out["span_ns"] = span;
  out["kernel_count"] = total;
  out["raw_box_count"] = raw_kept;
  out["raw_complete"] = raw_kept == total;
  out["raw_until_ns"] = raw_kept == total ? span : raw_until;
  out["lanes"] = std::move(lanes_json);
  out["variants"] = std::move(variants);  // [name, op (names), backend, grid, block, occ, achieved]
  out["names"] = std::move(names);
  return out;
}

}  // namespace tensormorph
