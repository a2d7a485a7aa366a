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

// Median of integer ns values: the middle one, or for an even count the mean of the two middle
// ones rounded down to the ns (nsys stats' median, kept integer). None for no values.
std::optional<int64_t> MedianNs(std::vector<int64_t> values);

// Fills result->ranks, median_rank_step_ns, is_job, job_verdict and straggler_basis_ns; leaves
// them empty for one input of one process.
void DescribeRanks(const std::vector<const LinkedTrace*>& inputs, const TimelineOptions& options,
                   TimelineResult* result);

}  // namespace tensormorph
