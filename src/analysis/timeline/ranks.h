// The ranks section of the timeline: with several inputs (or one input of several processes), each
// rank's step times as figures and, when the inputs are one job, the waits it caused and suffered
// in collectives (analysis/job/collectives.h). A straggler is a rank of a job whose wait caused
// exceeds the threshold percent of the straggler basis: the median over ranks of their median
// step, else of their device span. Inputs that are not one job are listed as inputs, without
// ranks or stragglers.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tensormorph/analysis/timeline/timeline.h"

namespace tensormorph {

// Fills result->ranks, median_rank_step_ns, is_job, job_verdict and straggler_basis_ns; leaves
// them empty for one input of one process. The waits of a job's ranks come from `collectives`,
// or from AnalyzeCollectives here when it is null.
void DescribeRanks(const std::vector<const LinkedTrace*>& inputs, const TimelineOptions& options,
                   const CollectivesResult* collectives, TimelineResult* result);

}  // namespace tensormorph
