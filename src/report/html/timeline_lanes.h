// The report's timeline data: one lane per (input, device, stream) holding its kernels and copies
// (memcpy, memset), each with a level-of-detail pyramid of time buckets and, up to a global
// budget, the raw boxes; and the host threads' lanes (host_lanes.h).
//
// Invariants the page's script relies on (assets/js/timeline_*.js):
//  - times are ns relative to `t0_ns` (the earliest kernel or copy start over all inputs; each
//    input on its own clock);
//  - a lane's boxes are sorted by start; `s` holds start deltas (first one from 0), `d` durations,
//    `v` indices into `variants`, arrays whose fields (what a tooltip shows and what findings
//    name) timeline_variant_fields.h declares, in the order the page reads them by name;
//  - raw boxes cover exactly the kernels, copies and host items that start before `raw_until_ns`
//  (one cut
//    for every lane, device or host, so a window left of it is complete on every lane);
//    `raw_complete` says whether that is all of both;
//  - `host_lanes` are the host threads' lanes (host_lanes.h); a raw box's `lb` and `ob` give the
//    host box ids of its launch call and its op, each as the difference from the last id given on
//    the lane before it (ids mostly grow by a few: short numbers), null for none or not embedded;
//    both are absent on a lane whose boxes have neither;
//  - each lane's `lod` is a pyramid as lane_lod.h describes (buckets of bucket_ns[0] * 4^i from
//    t0, busy fraction 0..255), `dom` the variant index + 1 of the box with the most time in it.
#pragma once

#include <cstddef>
#include <vector>

#include "report/json_output.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

struct LaneOptions {
  size_t max_raw_boxes =
      100'000;  // kernels and copies over all lanes: a million-kernel report stays a few MB
  size_t max_raw_host_boxes = 200'000;  // host items over all host lanes
  size_t finest_buckets = 8192;         // buckets of the finest LOD level over the whole span
};

// `occupancy` supplies the theoretical occupancy per launch shape.
Json BuildTimelineLanes(const std::vector<const LinkedTrace*>& inputs,
                        const KernelOccupancySummary& occupancy, const LaneOptions& options);

}  // namespace tensormorph
