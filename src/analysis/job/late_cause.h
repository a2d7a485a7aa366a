// Per rank of a job: the wait it suffered and caused in collectives, and why it was late where it
// arrived last (collectives.h states the definitions).
#pragma once

#include <vector>

#include "tensormorph/analysis/job/collectives.h"

namespace tensormorph {

// `clocks` and each instance's ranks are in job.ranks' order; instances by index.
std::vector<RankWaits> RankWaitsOf(const std::vector<const LinkedTrace*>& inputs,
                                   const JobLayout& job, const std::vector<RankClock>& clocks,
                                   const std::vector<CollectiveInstance>& collectives);

}  // namespace tensormorph
