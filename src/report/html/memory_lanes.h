// The memory lanes of the report's timeline: per device with allocator records, allocated (and
// reserved) memory after each record as a step function over the timeline's time, in the JSON the
// page draws (assets/js/timeline_memory.js).
//
// Invariants:
//  - every point is a real sample (a record's time and the memory after it); none is invented
//    or averaged;
//  - at most about kMaxMemoryPoints points per device: over more, the samples are bucketed by
//    time into kMaxMemoryPoints / 2 buckets and each bucket keeps its sample with the most
//    allocated memory and its last sample, so the peak (and the level each bucket ends at)
//    survives; `dropped` counts the samples left out;
//  - times are relative to the timeline's t0 and delta-encoded (`t`), as the lanes' starts are.
#pragma once

#include <cstdint>
#include <vector>

#include "report/json_output.h"
#include "tensormorph/analysis/memory/memory.h"

namespace tensormorph {

inline constexpr size_t kMaxMemoryPoints = 4096;

// One entry per device of `result` (in its order): {"t": [...], "a": [...], "r": [...] | null,
// "dropped"}; DeviceMemory::series must have been kept (MemoryQuery::series).
Json MemoryLanes(const MemoryResult& result, int64_t t0_ns);

// The samples kept for one device (the invariants above), in time order.
std::vector<MemorySample> KeepMemorySamples(const std::vector<MemorySample>& series);

}  // namespace tensormorph
