// AnalyzeMemory: group each input's allocator records by device, replay them in time order, and
// read the peak, the allocations alive then, the steps and the capacity (memory.h's invariants).
#include "tensormorph/analysis/memory/memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <unordered_map>

#include "analysis/common/saturating.h"
#include "analysis/memory/memory_records.h"
#include "link/op_stacks.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/memory/memory_fit.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {
namespace {

constexpr int64_t kCpuDeviceType = 0;

// Which trace device a record's (Device Type, Device Id) names: the accelerator with that
// ordinal; else (a trace that does not know its devices' ordinals, such as an Nsight export
// without TARGET_INFO_GPU) the one whose trace id it is; else, when the trace ran work on one
// accelerator only and the records name one accelerator only, that one (Kineto's ROCm traces
// name devices by HSA agent, 2 for the first GPU, while the allocator writes the HIP ordinal 0;
// the importer does not guess the ordinal, but one device is one device). Device Type is
// c10::DeviceType's number: 1 CUDA, 6 HIP (ROCm builds write either), 19 MTIA, ...; the ordinal
// alone picks the device, as one process drives one kind.
class RecordDevices {
 public:
  RecordDevices(const Trace& trace, const std::vector<MemoryRecord>& rows) : trace_(trace) {
    std::optional<int64_t> only_id;
    bool one_id = true;
    for (const MemoryRecord& r : rows) {
      if (r.device_type == kCpuDeviceType) continue;
      one_id = one_id && (!only_id || *only_id == r.device_id);
      only_id = r.device_id;
    }
    std::optional<uint32_t> only_device;
    size_t accelerators = 0;
    for (uint32_t d = 0; d < trace.devices.size(); ++d) {
      if (trace.devices[d].backend == Backend::kCpu) continue;
      ++accelerators;
      only_device = d;
    }
    if (one_id && accelerators == 1) sole_ = only_device;
  }

  std::optional<uint32_t> Of(const MemoryRecord& r) const {
    if (r.device_type == kCpuDeviceType) return std::nullopt;
    std::optional<uint32_t> by_trace_id;
    for (uint32_t d = 0; d < trace_.devices.size(); ++d) {
      const Device& device = trace_.devices[d];
      if (device.backend == Backend::kCpu) continue;
      if (device.index == r.device_id) return d;
      if (device.index < 0 && device.trace_id == r.device_id && !by_trace_id) by_trace_id = d;
    }
    return by_trace_id ? by_trace_id : sole_;
  }

 private:
  const Trace& trace_;
  std::optional<uint32_t> sole_;
};

std::string LabelOf(const Trace& trace, const MemoryRecord& r, std::optional<uint32_t> device) {
  if (device) return DeviceLabel(trace, *device, /*with_rank=*/false);
  if (r.device_type == kCpuDeviceType) return "cpu";
  return fmt::format("gpu:{} (device type {})", r.device_id, r.device_type);
}

// Where an allocation was made: its op's name as an id in the trace's strings (kNoOp for "(no
// op)") and the module path around the op (LazyModulePaths' index; 0 for none).
constexpr StringId kNoOp = UINT32_MAX;
struct OpKey {
  StringId op = kNoOp;
  uint32_t module = 0;
  bool operator==(const OpKey&) const = default;
};
struct OpKeyHash {
  size_t operator()(const OpKey& k) const { return (uint64_t{k.op} << 32) ^ k.module; }
};

std::string OpName(const Trace& trace, StringId op) {
  return op == kNoOp ? "(no op)" : std::string(trace.str(op));
}

struct OpCounts {
  uint64_t allocations = 0;
  int64_t bytes = 0;
};
using OpTable = std::unordered_map<OpKey, OpCounts, OpKeyHash>;

void Count(OpTable* by_op, OpKey op, int64_t bytes) {
  OpCounts& c = (*by_op)[op];
  ++c.allocations;
  c.bytes = SaturatingAdd(c.bytes, bytes);
}

std::vector<MemoryOpRow> Ranked(const Trace& trace, const LazyModulePaths& paths,
                                const OpTable& by_op, size_t top, uint64_t* total_rows) {
  std::vector<MemoryOpRow> rows;
  rows.reserve(by_op.size());
  for (const auto& [key, c] : by_op) {
    rows.push_back({OpName(trace, key.op), paths.Path(key.module), c.allocations, c.bytes});
  }
  std::sort(rows.begin(), rows.end(), [](const MemoryOpRow& a, const MemoryOpRow& b) {
    if (a.bytes != b.bytes) return a.bytes > b.bytes;
    return a.op != b.op ? a.op < b.op : a.module < b.module;
  });
  *total_rows = rows.size();
  if (top > 0 && rows.size() > top) rows.resize(top);
  return rows;
}

// Capacity: the memory the trace reports for the device, else the database's.
void SetCapacity(const Trace& trace, std::optional<uint32_t> index,
                 const std::vector<DeviceSpec>& devices, DeviceMemory* out) {
  if (!index) return;
  const Device& device = trace.devices[*index];
  if (device.total_memory_bytes > 0) {
    out->capacity_bytes = device.total_memory_bytes;
    out->capacity_source = "trace";
  } else if (const DeviceMatch match = MatchTraceDevice(devices, device); match.matched()) {
    if (const std::optional<int64_t> capacity = SpecCapacity(*match.spec)) {
      out->capacity_bytes = capacity;
      out->capacity_source = "device database: " + match.spec->key;
    }
  }
}

// One device's records, in time order, and the op of each.
struct DeviceRecords {
  std::optional<uint32_t> device;
  std::string label;
  std::vector<const MemoryRecord*> rows;
  std::vector<OpKey> ops;
};

// `paths`: the module paths of the records' ops; null with MemoryQuery::peaks_only.
void Replay(const LinkedTrace& linked, const DeviceRecords& in, const LazyModulePaths* paths,
            const MemoryQuery& query, const std::vector<DeviceSpec>& devices, DeviceMemory* out) {
  const Trace& trace = linked.trace();
  const std::vector<const MemoryRecord*>& rows = in.rows;
  const bool totals = std::all_of(rows.begin(), rows.end(), [](const MemoryRecord* r) {
    return r->total_allocated.has_value();
  });
  out->basis = totals ? "allocator totals" : "running sum";
  out->records = rows.size();
  // Allocated after each record, by the basis.
  std::vector<int64_t> allocated(rows.size());
  int64_t running = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    // Each record is within +-1 PiB (ReadMemoryRecords) and the running sum within +-2^62, so
    // that the difference of any two allocated figures (a step's growth) fits in int64.
    constexpr int64_t kRunningLimit = int64_t{1} << 62;
    running = std::clamp(running + rows[i]->bytes, -kRunningLimit, kRunningLimit);
    allocated[i] = totals ? *rows[i]->total_allocated : running;
    if (rows[i]->bytes >= 0) {
      ++out->allocations;
      out->allocated_bytes = SaturatingAdd(out->allocated_bytes, rows[i]->bytes);
    } else {
      ++out->frees;
      out->freed_bytes = SaturatingAdd(out->freed_bytes, -rows[i]->bytes);
    }
  }
  out->allocated_before_bytes = totals ? *rows[0]->total_allocated - rows[0]->bytes : 0;
  size_t peak = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (allocated[i] > allocated[peak]) peak = i;
  }
  out->peak_allocated_bytes = allocated[peak];
  out->peak_allocated_ns = rows[peak]->ts_ns;
  out->reserved_at_peak_bytes = rows[peak]->total_reserved;
  for (const MemoryRecord* r : rows) {
    if (r->total_reserved &&
        (!out->peak_reserved_bytes || *r->total_reserved > *out->peak_reserved_bytes)) {
      out->peak_reserved_bytes = r->total_reserved;
      out->peak_reserved_ns = r->ts_ns;
    }
  }
  SetCapacity(trace, in.device, devices, out);
  if (query.series) {
    out->series.reserve(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      out->series.push_back({rows[i]->ts_ns, allocated[i], rows[i]->total_reserved});
    }
  }
  if (query.peaks_only) return;

  // Replay: what is alive at the peak, and every allocation's fate.
  struct Alive {
    int64_t bytes;
    size_t record;
  };
  std::unordered_map<uint64_t, Alive> alive;
  OpTable by_op, at_peak;
  // Every allocation by record, the op as an id: names only for the largest, at the end.
  struct Allocation {
    size_t record;
    std::optional<int64_t> freed_ns;
  };
  std::vector<Allocation> allocations;
  std::vector<size_t> allocation_of_record(rows.size(), SIZE_MAX);
  int64_t freed_from_before = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const MemoryRecord& r = *rows[i];
    if (r.bytes >= 0) {
      alive[r.address] = {r.bytes, i};
      allocation_of_record[i] = allocations.size();
      allocations.push_back({i, std::nullopt});
      Count(&by_op, in.ops[i], r.bytes);
    } else if (auto it = alive.find(r.address); it != alive.end()) {
      allocations[allocation_of_record[it->second.record]].freed_ns = r.ts_ns;
      alive.erase(it);
    } else if (i <= peak) {
      freed_from_before = SaturatingAdd(freed_from_before, -r.bytes);  // allocated before the trace
    }
    if (i == peak) {
      for (const auto& [address, a] : alive) Count(&at_peak, in.ops[a.record], a.bytes);
    }
  }
  out->alive_from_before_bytes = SaturatingAdd(out->allocated_before_bytes, -freed_from_before);
  OpTable at_end;
  for (const auto& [address, a] : alive) Count(&at_end, in.ops[a.record], a.bytes);
  out->alive_at_end = Ranked(trace, *paths, at_end, query.top, &out->alive_at_end_ops);
  out->at_peak = Ranked(trace, *paths, at_peak, query.top, &out->at_peak_ops);
  out->by_op = Ranked(trace, *paths, by_op, query.top, &out->by_op_ops);
  // The largest allocations, the earlier first among equal sizes.
  auto larger = [&](const Allocation& a, const Allocation& b) {
    return rows[a.record]->bytes != rows[b.record]->bytes
               ? rows[a.record]->bytes > rows[b.record]->bytes
               : a.record < b.record;
  };
  const size_t keep = query.top > 0 ? std::min(query.top, allocations.size()) : allocations.size();
  std::partial_sort(allocations.begin(), allocations.begin() + static_cast<ptrdiff_t>(keep),
                    allocations.end(), larger);
  for (size_t k = 0; k < keep; ++k) {
    const MemoryRecord& r = *rows[allocations[k].record];
    out->largest.push_back(
        {r.ts_ns, r.bytes, r.address, OpName(trace, in.ops[allocations[k].record].op),
         paths->Path(in.ops[allocations[k].record].module), allocations[k].freed_ns});
  }

  // Steps: allocated just before each step began and when it ended.
  auto before = [&](int64_t t, bool inclusive) -> std::optional<size_t> {
    auto it = std::partition_point(rows.begin(), rows.end(), [&](const MemoryRecord* r) {
      return inclusive ? r->ts_ns <= t : r->ts_ns < t;
    });
    if (it == rows.begin()) return std::nullopt;
    return static_cast<size_t>(it - rows.begin()) - 1;
  };
  for (const Step& s : linked.steps()) {
    MemoryStep step;
    step.step = s.number;
    step.start_ns = s.start_ns;
    step.end_ns = s.end_ns;
    const std::optional<size_t> at_start = before(s.start_ns, false);
    const std::optional<size_t> at_end = before(s.end_ns, true);
    step.allocated_start_bytes = at_start ? allocated[*at_start] : out->allocated_before_bytes;
    step.allocated_end_bytes = at_end ? allocated[*at_end] : out->allocated_before_bytes;
    if (at_start) step.reserved_start_bytes = rows[*at_start]->total_reserved;
    if (at_end) step.reserved_end_bytes = rows[*at_end]->total_reserved;
    out->steps.push_back(step);
  }
}

OpKey OpOf(const LinkedTrace& linked, const MemoryRecord& r, LazyModulePaths* paths) {
  const Trace& trace = linked.trace();
  const uint32_t op = EnclosingSlice(trace, linked.links(), r.track, r.ts_ns, SliceKind::kOp);
  if (op == kNoRow) return {};
  return {trace.slices[op].name, paths->PathIndexOf(op)};
}

}  // namespace

std::vector<MemoryRecordRow> ListMemoryRecords(const LinkedTrace& linked) {
  const Trace& trace = linked.trace();
  const MemoryRecords records = ReadMemoryRecords(trace, linked.concurrent());
  std::vector<MemoryRecordRow> out;
  if (records.rows.empty()) return out;
  linked.Prepare({LinkedPart::kLinks});
  const RecordDevices devices(trace, records.rows);
  LazyModulePaths paths(trace, linked.links());
  out.reserve(records.rows.size());
  for (const MemoryRecord& r : records.rows) {
    MemoryRecordRow row;
    row.ts_ns = r.ts_ns;
    row.track = r.track;
    row.device_index = devices.Of(r);
    row.device = LabelOf(trace, r, row.device_index);
    row.device_type = r.device_type;
    row.device_id = r.device_id;
    row.address = r.address;
    row.bytes = r.bytes;
    row.total_allocated = r.total_allocated;
    row.total_reserved = r.total_reserved;
    const OpKey op = OpOf(linked, r, &paths);
    row.op = OpName(trace, op.op);
    row.module = paths.Path(op.module);
    out.push_back(std::move(row));
  }
  return out;
}

MemoryResult AnalyzeMemory(const std::vector<const LinkedTrace*>& inputs,
                           const MemoryQuery& query) {
  const std::vector<DeviceSpec>& devices = query.devices ? *query.devices : BuiltInDevices();
  MemoryResult result;
  for (size_t input = 0; input < inputs.size(); ++input) {
    const LinkedTrace& linked = *inputs[input];
    const Trace& trace = linked.trace();
    const MemoryRecords records = ReadMemoryRecords(trace, linked.concurrent());
    result.records += records.rows.size() + records.skipped;
    result.skipped += records.skipped;
    if (records.rows.empty()) continue;
    if (!query.peaks_only) linked.Prepare({LinkedPart::kLinks});
    // By device: GPUs in the trace's device order, then others, the host last.
    std::map<std::pair<int64_t, int64_t>, DeviceRecords> by_device;
    const RecordDevices record_devices(trace, records.rows);
    std::optional<LazyModulePaths> paths;
    if (!query.peaks_only) paths.emplace(trace, linked.links());
    for (const MemoryRecord& r : records.rows) {
      const std::optional<uint32_t> device = record_devices.Of(r);
      const int64_t order = device                            ? *device
                            : r.device_type == kCpuDeviceType ? INT64_MAX
                                                              : INT64_MAX - 1;
      DeviceRecords& d = by_device[{order, device ? 0 : r.device_id}];
      if (d.rows.empty()) {
        d.device = device;
        d.label = LabelOf(trace, r, device);
      }
      d.rows.push_back(&r);
      if (paths) d.ops.push_back(OpOf(linked, r, &*paths));
    }
    for (const auto& [key, d] : by_device) {
      DeviceMemory memory;
      memory.input = static_cast<int>(input);
      memory.device = d.label;
      memory.device_index = d.device;
      Replay(linked, d, paths ? &*paths : nullptr, query, devices, &memory);
      result.devices.push_back(std::move(memory));
    }
  }
  return result;
}

}  // namespace tensormorph
