// The report's timeline data: one lane per (input, device, stream), each with a level-of-detail
// pyramid of time buckets and, up to a global budget, the raw kernel boxes.
//
// Invariants the page's script relies on (assets/report.js):
//  - times are ns relative to `t0_ns` (the earliest kernel start over all inputs);
//  - a lane's boxes are sorted by start; `s` holds start deltas (first one from 0), `d` durations,
//    `v` indices into `variants` (name, op, grid, block, occupancy: what a tooltip shows);
//  - raw boxes cover exactly the kernels that start before `raw_until_ns` (one cut for every lane,
//    so a window left of it is complete on every lane); `raw_complete` says whether that is all;
//  - LOD level i has buckets of `bucket_ns[i]` = bucket_ns[0] * 4^i, starting at t0; per bucket
//    `busy` is the covered fraction in 0..255 (kernels of one stream may overlap: capped at 255)
//    and `dom` the variant index + 1 of the kernel with the most time in it (0: empty).
#pragma once

#include <cstddef>
#include <vector>

#include "report/json_output.h"
#include "tensormorph/analysis/linking/linked_trace.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

struct LaneOptions {
  size_t max_raw_boxes = 100'000;  // over all lanes; keeps a million-kernel report a few MB
  size_t finest_buckets = 8192;    // buckets of the finest LOD level over the whole span
};

// `occupancy` supplies the theoretical occupancy per launch shape.
Json BuildTimelineLanes(const std::vector<const LinkedTrace*>& inputs,
                        const KernelOccupancySummary& occupancy, const LaneOptions& options);

}  // namespace tensormorph
