// Process-wide counters behind LinkStageRunCounts() (linked_trace.h): incremented by the
// functions that compute each part of the linking stage, read by tests.
#pragma once

#include <atomic>
#include <cstdint>

namespace tensormorph::link_stage {

inline std::atomic<uint64_t> links_computed{0};
inline std::atomic<uint64_t> steps_computed{0};
inline std::atomic<uint64_t> slice_work_computed{0};

}  // namespace tensormorph::link_stage
