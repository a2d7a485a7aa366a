// Lanes, variants, raw boxes and the LOD pyramid of the HTML report (timeline_lanes.h).
#include "report/html/timeline_lanes.h"

#include <fmt/format.h>

#include <algorithm>
#include <compare>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/common/device_work.h"
#include "report/html/host_lanes.h"
#include "report/html/lane_lod.h"
#include "report/html/timeline_variant_fields.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/model/copy_kinds.h"

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
  uint8_t work;  // WorkKind
  auto operator<=>(const VariantKey&) const = default;
};

// The same key by the trace's string ids, so that a kernel whose variant is known is found without
// copying its name. Ids differ between inputs, so the input is part of it.
struct VariantIds {
  uint32_t input, name, op;  // op: the op's name id + 1, 0 for none
  Backend backend;
  LaunchShape shape;
  uint8_t work;
  bool operator==(const VariantIds&) const = default;
};
struct VariantIdsHash {
  size_t operator()(const VariantIds& v) const {
    uint64_t h = 14695981039346656037ULL;  // FNV-1a over the fields
    for (uint32_t x : {v.input, v.name, v.op, static_cast<uint32_t>(v.backend), v.shape.gx,
                       v.shape.gy, v.shape.gz, v.shape.bx, v.shape.by, v.shape.bz,
                       v.shape.registers, v.shape.shared, uint32_t{v.work}}) {
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

// What a device box is (WorkKind of analysis/common/device_work.h), as its variant names it.
constexpr const char* kWorkKindNames[] = {"kernel", "memcpy", "memset"};

// A lane's rows are indices into the input's kernels or, with kTransferBit set, its transfers.
constexpr uint32_t kTransferBit = 1u << 31;

struct LaneWork {
  int input = 0;
  uint32_t device = kNoDevice;
  int64_t stream = -1;
  std::vector<uint32_t> rows;  // by start
};

// One row of a lane, whichever table it is in.
struct DeviceWork {
  int64_t start, duration;
  StringId name;
  uint32_t device;
  const WorkLink* link;
  const Kernel* kernel;  // null for a transfer
  const Transfer* copy;  // null for a kernel
  WorkKind kind;
};
DeviceWork WorkOf(const Trace& t, const TraceLinks& l, uint32_t row) {
  if ((row & kTransferBit) != 0) {
    const uint32_t x = row & ~kTransferBit;
    const Transfer& c = t.transfers[x];
    return {c.start_ns,
            c.duration_ns,
            c.name,
            c.device,
            &l.transfers[x],
            nullptr,
            &c,
            c.kind == TransferKind::kMemset ? WorkKind::kMemset : WorkKind::kMemcpy};
  }
  const Kernel& k = t.kernels[row];
  return {k.start_ns, k.duration_ns, k.name,           k.device, &l.kernels[row],
          &k,         nullptr,       WorkKind::kKernel};
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

  // Lanes in (input, device, stream) order, each holding that stream's kernels and copies.
  int64_t t0 = std::numeric_limits<int64_t>::max(), t1 = std::numeric_limits<int64_t>::min();
  std::map<std::tuple<int, uint32_t, int64_t>, LaneWork> by_stream;
  size_t kernel_count = 0, copy_count = 0;
  for (size_t i = 0; i < traces.size(); ++i) {
    const Trace& t = *traces[i];
    const int input = static_cast<int>(i);
    LaneWork* last = nullptr;  // rows come grouped by stream: look the lane up once per run
    auto add = [&](uint32_t device, int64_t stream, uint32_t row, int64_t start, int64_t end) {
      if (last == nullptr || last->device != device || last->stream != stream) {
        last = &by_stream[{input, device, stream}];
        if (last->rows.empty()) *last = {input, device, stream, {}};
      }
      last->rows.push_back(row);
      t0 = std::min(t0, start);
      t1 = std::max(t1, end);
    };
    for (uint32_t k = 0; k < t.kernels.size(); ++k) {
      const Kernel& kernel = t.kernels[k];
      add(kernel.device, kernel.stream, k, kernel.start_ns, kernel.end_ns());
    }
    for (uint32_t x = 0; x < t.transfers.size(); ++x) {
      const Transfer& c = t.transfers[x];
      add(c.device, c.stream, x | kTransferBit, c.start_ns, c.start_ns + c.duration_ns);
    }
    kernel_count += t.kernels.size();
    copy_count += t.transfers.size();
  }
  Json out = Json::object();
  if (by_stream.empty()) {
    // No device work (a trace cut off before its first kernel, a host-only profile): every key
    // of the document below, empty, so that the page and the model's readers find each one.
    out["t0_ns"] = 0;
    out["span_ns"] = 0;
    out["kernel_count"] = 0;
    out["copy_count"] = 0;
    out["raw_box_count"] = 0;
    out["raw_complete"] = true;
    out["raw_until_ns"] = 0;
    out["host_item_count"] = 0;
    out["host_raw_count"] = 0;
    out["lanes"] = Json::array();
    out["host_lanes"] = Json::array();
    out["host_labels"] = Json::array();
    out["host_kinds"] = HostKindNamesJson();
    out["variants"] = Json::array();
    out["names"] = Json::array();
    return out;
  }
  std::vector<LaneWork> lanes;
  for (auto& [key, lane] : by_stream) {
    // Kernels come sorted from the import, and a stream's copies too: merge the two.
    const Trace& t = *traces[lane.input];
    auto start_of = [&](uint32_t row) {
      return (row & kTransferBit) != 0 ? t.transfers[row & ~kTransferBit].start_ns
                                       : t.kernels[row].start_ns;
    };
    auto by_start = [&](uint32_t a, uint32_t b) { return start_of(a) < start_of(b); };
    if (!std::is_sorted(lane.rows.begin(), lane.rows.end(), by_start)) {
      std::stable_sort(lane.rows.begin(), lane.rows.end(), by_start);
    }
    lanes.push_back(std::move(lane));
  }
  const int64_t span = std::max<int64_t>(1, t1 - t0);

  // One cut in time for raw boxes, kernels and host items alike: the earlier of the
  // budget-th earliest kernel start and the host budget-th earliest host item start.
  int64_t raw_until = std::numeric_limits<int64_t>::max();
  size_t total = 0;
  for (const LaneWork& lane : lanes) total += lane.rows.size();
  if (total > options.max_raw_boxes) {
    std::vector<int64_t> starts;
    starts.reserve(total);
    for (const LaneWork& lane : lanes) {
      const TraceLinks& l = inputs[lane.input]->links();
      for (uint32_t row : lane.rows) {
        starts.push_back(WorkOf(*traces[lane.input], l, row).start - t0);
      }
    }
    std::nth_element(starts.begin(), starts.begin() + options.max_raw_boxes, starts.end());
    raw_until = starts[options.max_raw_boxes];  // kernels starting strictly before are kept
  }
  const HostLanes host(inputs);
  const int64_t host_cut = host.CutForBudget(options.max_raw_host_boxes);
  if (host_cut != std::numeric_limits<int64_t>::max())
    raw_until = std::min(raw_until, host_cut - t0);

  std::map<VariantKey, uint32_t> variant_ids;
  std::unordered_map<VariantIds, uint32_t, VariantIdsHash> variant_by_ids;
  Json variants = Json::array();
  TimelineNames names;  // kernel, op and host call names, interned once
  auto variant_of = [&](int input, const Trace& t, const DeviceWork& w) -> uint32_t {
    const Backend backend =
        w.device < t.devices.size() ? t.devices[w.device].backend : Backend::kOther;
    const uint32_t op = w.link->op;
    const LaunchShape shape = w.kernel != nullptr ? ShapeOf(*w.kernel) : LaunchShape{};
    const VariantIds ids{static_cast<uint32_t>(input),
                         w.name,
                         op != kNoRow ? t.slices[op].name + 1 : 0,
                         backend,
                         shape,
                         static_cast<uint8_t>(w.kind)};
    auto known = variant_by_ids.find(ids);
    if (known != variant_by_ids.end()) return known->second;
    VariantKey key{std::string(t.str(w.name)),
                   op != kNoRow ? std::string(t.str(t.slices[op].name)) : "", backend, shape,
                   ids.work};
    auto [it, added] = variant_ids.emplace(key, static_cast<uint32_t>(variants.size()));
    if (added) {
      // Each field at its index of the one list the page reads them by
      // (timeline_variant_fields.h).
      Json v = Json::array();
      for (size_t i = 0; i < kVariantFieldCount; ++i) v.push_back(nullptr);
      auto set = [&v](VariantField field, Json value) {
        v[static_cast<size_t>(field)] = std::move(value);
      };
      set(VariantField::kName, names.Intern(key.name));
      set(VariantField::kOp, names.Intern(key.op));
      set(VariantField::kBackend, BackendName(backend));
      set(VariantField::kGrid, Dims(shape.gx, shape.gy, shape.gz));
      set(VariantField::kBlock, Dims(shape.bx, shape.by, shape.bz));
      const int64_t block = int64_t{shape.bx} * std::max(1u, shape.by) * std::max(1u, shape.bz);
      auto occ = w.kernel != nullptr
                     ? theoretical.find({key.name, backend, block, shape.registers, shape.shared})
                     : theoretical.end();
      if (occ != theoretical.end()) set(VariantField::kOccupancy, occ->second);
      if (w.kernel != nullptr && w.kernel->achieved_occupancy_percent >= 0) {
        set(VariantField::kAchieved, w.kernel->achieved_occupancy_percent / 100.0);
      }
      set(VariantField::kKind, kWorkKindNames[key.work]);
      // What the findings name: the work's class (exposed_communication) and a memcpy's kind
      // (slow_copies), as timeline classifies and labels them.
      const WorkClass work_class =
          w.kind == WorkKind::kKernel ? ClassifyKernelName(key.name) : WorkClass::kMemory;
      set(VariantField::kWorkClass, work_class == WorkClass::kCommunication ? "communication"
                                    : work_class == WorkClass::kMemory      ? "memory"
                                                                            : "computation");
      if (w.copy != nullptr && w.kind == WorkKind::kMemcpy) {
        set(VariantField::kCopyKind,
            MemcpyKindLabel(w.copy->direction, w.copy->src_memory, w.copy->dst_memory));
      }
      variants.push_back(std::move(v));
    }
    variant_by_ids.emplace(ids, it->second);
    return it->second;
  };

  int64_t finest = std::max<int64_t>(
      1, (span + options.finest_buckets - 1) / static_cast<int64_t>(options.finest_buckets));
  HostBoxIds host_ids;
  Json host_labels;
  Json host_lanes = host.Build(t0, span, raw_until, finest, &names, &host_ids, &host_labels);
  size_t host_raw = 0;
  for (const Json& lane : host_lanes) host_raw += lane["raw_count"].get<size_t>();
  Json lanes_json = Json::array();
  size_t raw_kept = 0;
  for (const LaneWork& lane : lanes) {
    const Trace& t = *traces[lane.input];
    const TraceLinks& l = inputs[lane.input]->links();
    // `lb` / `ob`: the host box of each raw box's launch call and op (host_lanes.h), -1 none.
    Json s = Json::array(), d = Json::array(), v = Json::array(), lb = Json::array(),
         ob = Json::array();
    bool any_host_box = false;
    int64_t previous_launch = 0, previous_op = 0;  // lb and ob are deltas from the last id given
    LodBuckets buckets(finest, span);
    int64_t previous = 0, max_duration = 0, busy_ns = 0;
    size_t lane_kernels = 0;
    for (uint32_t row : lane.rows) {
      const DeviceWork w = WorkOf(t, l, row);
      const int64_t start = w.start - t0;
      const uint32_t variant = variant_of(lane.input, t, w);
      buckets.Add(start, start + w.duration, variant);
      busy_ns += w.duration;
      lane_kernels += w.kernel != nullptr ? 1 : 0;
      if (start < raw_until) {
        s.push_back(start - previous);
        d.push_back(w.duration);
        v.push_back(variant);
        const WorkLink& link = *w.link;
        const int64_t launch = link.launch != kNoRow ? host_ids.call[lane.input][link.launch] : -1;
        const int64_t op = link.op != kNoRow ? host_ids.slice[lane.input][link.op] : -1;
        lb.push_back(launch >= 0 ? Json(launch - previous_launch) : Json(nullptr));
        ob.push_back(op >= 0 ? Json(op - previous_op) : Json(nullptr));
        if (launch >= 0) previous_launch = launch;
        if (op >= 0) previous_op = op;
        any_host_box = any_host_box || launch >= 0 || op >= 0;
        previous = start;
        max_duration = std::max(max_duration, w.duration);
        ++raw_kept;
      }
    }
    Json j;
    j["input"] = lane.input;
    j["device"] = lane.device == kNoDevice ? "(no device)" : DeviceLabel(t, lane.device, false);
    if (t.rank) j["rank"] = *t.rank;
    j["device_index"] = lane.device == kNoDevice ? -1 : static_cast<int64_t>(lane.device);
    j["stream"] = lane.stream;
    j["kernel_count"] = lane_kernels;
    j["copy_count"] = lane.rows.size() - lane_kernels;
    j["busy_ns"] = busy_ns;
    j["max_duration_ns"] = max_duration;
    j["raw_count"] = s.size();
    j["s"] = std::move(s);
    j["d"] = std::move(d);
    j["v"] = std::move(v);
    if (any_host_box) {  // a GPU-only trace has neither: the page then has no arrows to draw
      j["lb"] = std::move(lb);
      j["ob"] = std::move(ob);
    }
    j["lod"] = buckets.TakePyramid();
    lanes_json.push_back(std::move(j));
  }
  const bool complete = raw_kept == total && host_raw == host.item_count();
  out["t0_ns"] = t0;
  out["span_ns"] = span;
  out["kernel_count"] = kernel_count;
  out["copy_count"] = copy_count;
  out["raw_box_count"] = raw_kept;
  out["raw_complete"] = complete;
  out["raw_until_ns"] = complete ? span : raw_until;
  out["host_item_count"] = host.item_count();
  out["host_raw_count"] = host_raw;
  out["lanes"] = std::move(lanes_json);
  out["host_lanes"] = std::move(host_lanes);
  out["host_labels"] = std::move(host_labels);
  out["host_kinds"] = HostKindNamesJson();
  // One array per variant, its fields at the indices of timeline_variant_fields.h.
  out["variants"] = std::move(variants);
  out["names"] = names.TakeJson();
  return out;
}

}  // namespace tensormorph
