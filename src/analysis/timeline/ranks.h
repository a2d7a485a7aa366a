// Several inputs of one job (its ranks): each rank's median step time, and the stragglers, the
// ranks whose median step time exceeds the median over ranks by more than a threshold.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tensormorph/analysis/timeline/timeline.h"

namespace tensormorph {

// Median of integer ns values: the middle one, or for an even count the mean of the two middle
// ones rounded down to the ns (nsys stats' median, kept integer). None for no values.
std::optional<int64_t> MedianNs(std::vector<int64_t> values);

// `step_ns[i]`: the host step durations of ranks[i]. Fills each rank's step_count, median and
// straggler flag; returns the median over the ranks that have steps (none when no rank has).
std::optional<int64_t> MarkStragglers(const std::vector<std::vector<int64_t>>& step_ns,
                                      double threshold_percent, std::vector<RankSteps>* ranks);

}  // namespace tensormorph
