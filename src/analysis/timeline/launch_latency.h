// How long kernels waited between their launch call and their start, and which kernels are
// launch-bound (Holistic Trace Analysis's "short kernels": the kernel ran for less time than the
// host spent launching it, so the GPU cannot be kept busy by such kernels, however many streams).
// A graph replay is one launch for all its kernels: they are not compared with its call one by
// one, but summarised per replay (GraphLaunch).
#pragma once

#include <vector>

#include "analysis/common/device_work.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {

// Nearest-rank percentile of sorted values: the ceil(p/100 * n)-th smallest (the smallest for
// p = 0). 0 for no values.
int64_t NearestRankPercentile(const std::vector<int64_t>& sorted, double percent);

// Launch latency and launch-bound kernels over the kernels in `work` (transfers are skipped).
LaunchLatency MeasureLaunchLatency(const Trace& trace, const TraceLinks& links,
                                   const std::vector<WorkItem>& work);

}  // namespace tensormorph
