// The allocator records of a trace: Kineto's `[memory]` instants (cat cpu_instant_event), their
// args read from the JSON text the importer kept (Instant::args). Internal to analysis/memory.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph {

struct MemoryRecord {
  int64_t ts_ns = 0;
  uint32_t track = 0;       // the allocating thread
  int64_t device_type = 0;  // c10::DeviceType: 0 CPU, 1 CUDA, 6 HIP, ...
  int64_t device_id = -1;
  uint64_t address = 0;
  int64_t bytes = 0;                                       // negative on free
  std::optional<int64_t> total_allocated, total_reserved;  // after this record (since ~2022)
};

struct MemoryRecords {
  std::vector<MemoryRecord> rows;  // in the trace's time order (ties: as the trace wrote them)
  // [memory] instants without readable Bytes, Device Type or Id, or with a size beyond 1 PiB
  uint64_t skipped = 0;
};

// True for the instants that are allocator records.
bool IsMemoryRecord(const Trace& trace, const Instant& instant);

// `concurrent`: parse on every core (LinkedTrace::concurrent()); the rows are the same either way.
MemoryRecords ReadMemoryRecords(const Trace& trace, bool concurrent);

}  // namespace tensormorph
