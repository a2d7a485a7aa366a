// The build step of the ncu importer: the launches read by raw_layout.cc / details_layout.cc
// into the model (trace_builder.cc says how).
#pragma once

#include <vector>

#include "import/ncu/launch.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::ncu {

// The model: one kernel per launch with synthetic start times (see launch.cc), a device per
// "Device" ordinal, and the counters of each launch in trace->kernel_counters.
void BuildNcuTrace(std::vector<Launch>& launches, Diagnostics* diagnostics, Trace* trace);

}  // namespace tensormorph::ncu
