// Builds a Baseline from linked traces: kernel rows as `tensormorph kernels` groups them (name and
// backend), op rows per framework op name (analysis/ops), and per-step samples from the
// ProfilerStep#N windows (link/steps.h): a kernel counts in the step whose host window holds its
// launch, an op call in the step whose window holds its start.
#pragma once

#include <string>
#include <vector>

#include "tensormorph/analysis/profile/profile.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

Baseline BuildBaseline(const std::vector<const LinkedTrace*>& traces,
                       const std::string& created_by);

}  // namespace tensormorph
