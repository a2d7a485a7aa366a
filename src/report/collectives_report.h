// `tensormorph collectives`: renders a CollectivesResult as tables (the job, the ranks' clocks and
// waits, the types, the instances), JSON (schema tensormorph.collectives/1, README "Collectives")
// or CSV (one row per instance and rank).
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/job/collectives.h"

namespace tensormorph {

// The parts of the document other job commands share (critical-path, the report): the job layout,
// the ranks with their clock offsets, and an input's path ("" when out of range).
Json JobJson(const JobLayout& job);
Json RankClocksJson(const std::vector<const Trace*>& traces, const JobLayout& job,
                    const std::vector<RankClock>& clocks);
std::string InputPathOf(const std::vector<const Trace*>& traces, int input);

// `collectives --format json`'s document.
Json CollectivesJson(const std::vector<const Trace*>& traces, const CollectivesResult& result);

void RenderCollectives(std::ostream& out, const std::vector<const Trace*>& traces,
                       const CollectivesResult& result, OutputFormat format, size_t limit);

}  // namespace tensormorph
