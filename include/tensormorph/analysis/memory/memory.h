// Where the memory went (`tensormorph memory`, docs/memory.md): per device, from the caching
// allocator's records the PyTorch profiler writes with profile_memory=True (Kineto `[memory]`
// instants: Device Type (c10::DeviceType: 0 CPU, 1 CUDA, 6 HIP) and Id, Addr, Bytes, negative on
// free, and since ~2022 Total Allocated and Total Reserved), the peak allocated and reserved
// memory and when, the allocations alive at the peak by the op that made them, allocations per
// op, the largest ones, memory at each step's start and end, and the device's capacity.
//
// Invariants:
//  - `basis` says what "allocated" is: the allocator's own Total Allocated after each record
//    ("allocator totals", which counts what was allocated before the trace began), else the
//    running sum of Bytes from the first record ("running sum", which cannot);
//  - at the peak, the alive allocations' bytes plus `alive_from_before_bytes` equal the peak
//    allocated bytes: an allocation the trace recorded counts until the trace frees its address;
//    what was allocated before the trace (allocator totals: the first record's Total Allocated
//    less its Bytes) counts less what the trace freed of it (frees of addresses it never saw
//    allocated);
//  - an allocation belongs to the innermost op open on the allocating thread at the record's time
//    ("(no op)" when none) and to that op's module path (nn.Module frames and annotations around
//    it, as `ops --by-stack` names them; "" when the trace has none): rows are per (op, module).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/devices/device_db.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct MemoryQuery {
  size_t top = 10;  // rows of at_peak, by_op and largest per device
  const std::vector<DeviceSpec>* devices = nullptr;  // capacities; null = BuiltInDevices()
  // Only the peaks, totals and capacity: no ops, tables or steps (what compare and predict need to
  // say whether the workload fits another device).
  bool peaks_only = false;
  // Keep allocated (and reserved) after every record in DeviceMemory::series (the report's lane).
  bool series = false;
};

// Memory after one record (MemoryQuery::series).
struct MemorySample {
  int64_t ts_ns = 0;
  int64_t allocated_bytes = 0;
  std::optional<int64_t> reserved_bytes;
};

struct MemoryOpRow {
  std::string op;
  std::string module;  // the module path around the op ("Qwen2Model_0 > ..."), "" when none
  uint64_t allocations = 0;
  int64_t bytes = 0;
};

struct MemoryAllocation {
  int64_t ts_ns = 0;
  int64_t bytes = 0;
  uint64_t address = 0;
  std::string op, module;
  std::optional<int64_t> freed_ns;  // when the trace freed its address; none: alive at the end
};

struct MemoryStep {
  int64_t step = 0;  // N of ProfilerStep#N
  int64_t start_ns = 0, end_ns = 0;
  int64_t allocated_start_bytes = 0, allocated_end_bytes = 0;
  std::optional<int64_t> reserved_start_bytes, reserved_end_bytes;  // allocator totals only
};

struct DeviceMemory {
  int input = 0;
  std::string device;                    // DeviceLabel, or "cpu" for host records
  std::optional<uint32_t> device_index;  // into that input's Trace::devices
  std::string basis;                     // "allocator totals" or "running sum"
  uint64_t records = 0, allocations = 0, frees = 0;
  int64_t allocated_bytes = 0, freed_bytes = 0;  // summed over the records
  int64_t allocated_before_bytes = 0;            // allocated before the first record (totals basis)
  int64_t peak_allocated_bytes = 0, peak_allocated_ns = 0;
  std::optional<int64_t> peak_reserved_bytes, peak_reserved_ns;
  std::optional<int64_t> reserved_at_peak_bytes;  // reserved when allocated peaked
  int64_t alive_from_before_bytes = 0;            // of allocated_before, what was still alive then
  std::optional<int64_t> capacity_bytes;
  std::string capacity_source;  // "trace" (the device's reported memory) or "device database: KEY"
  std::vector<MemoryOpRow> at_peak;       // alive at the peak, by op, most bytes first
  uint64_t at_peak_ops = 0;               // rows before the top
  std::vector<MemoryOpRow> alive_at_end;  // never freed in the trace, by op (a leak's suspects)
  uint64_t alive_at_end_ops = 0;
  std::vector<MemoryOpRow> by_op;  // every allocation, by op, most bytes first
  uint64_t by_op_ops = 0;
  std::vector<MemoryAllocation> largest;
  std::vector<MemoryStep> steps;
  std::vector<MemorySample> series;  // with MemoryQuery::series: after each record, in time order
};

struct MemoryResult {
  std::vector<DeviceMemory> devices;  // by input, then device (host records last)
  uint64_t records = 0;               // [memory] records read
  uint64_t skipped = 0;               // records without a readable Bytes or device
};

// What the allocator reserved beyond the most that was ever allocated at once: the peak reserved
// less the peak allocated (allocator totals only; none otherwise). Memory no set of live tensors
// needed: blocks cached on other streams and the unusable remainders of split segments
// (fragmentation), which a larger batch or another process cannot use. None too where the
// reserved peak is below the allocated one: an allocator that does not count what it reserves
// (PyTorch's CPU allocator writes Total Reserved 0).
inline std::optional<int64_t> ReservedBeyondPeakAllocated(const DeviceMemory& d) {
  if (!d.peak_reserved_bytes || d.basis != "allocator totals" ||
      *d.peak_reserved_bytes < d.peak_allocated_bytes) {
    return std::nullopt;
  }
  return *d.peak_reserved_bytes - d.peak_allocated_bytes;
}

// One allocator record as the input holds it (Python's Trace.memory), with the device and op it
// was given by AnalyzeMemory's rules.
struct MemoryRecordRow {
  int64_t ts_ns = 0;
  uint32_t track = 0;
  std::string device;                      // as DeviceMemory::device
  std::optional<uint32_t> device_index;    // into Trace::devices
  int64_t device_type = 0, device_id = 0;  // as the record wrote them
  uint64_t address = 0;
  int64_t bytes = 0;  // negative on free
  std::optional<int64_t> total_allocated, total_reserved;
  std::string op, module;
};

// Every readable record of one input, in time order (ties as the input wrote them).
std::vector<MemoryRecordRow> ListMemoryRecords(const LinkedTrace& linked);

MemoryResult AnalyzeMemory(const std::vector<const LinkedTrace*>& inputs, const MemoryQuery& query);

}  // namespace tensormorph
