// Training / inference steps from the profiler's own step annotations (PyTorch's ProfilerStep#N
// record_function ranges). Device work belongs to the step during which the host launched it, not
// the one during which it ran: GPU work lags the host, often by most of a step.
#pragma once

#include <cstdint>
#include <vector>

#include "tensormorph/link/work_links.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

struct Step {
  int64_t number = 0;  // N of ProfilerStep#N
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint32_t slice = 0;  // index into Trace::slices
};

// The ProfilerStep#N host annotations, ordered by start. When several threads carry them, the
// thread with the most steps wins (the others mirror it). Empty when the trace has none.
std::vector<Step> FindSteps(const Trace& trace);

// The index into `steps` (ordered, not overlapping) of the step whose [start, end] holds
// `time_ns`, or -1.
int32_t StepIndexAt(const std::vector<Step>& steps, int64_t time_ns);

// Parallel to Trace::kernels (ForTransfers: Trace::transfers): the index into `steps` of the step
// whose host window holds the launch call's start (the work's own start when it has no launch
// call), or -1 outside every step.
std::vector<int32_t> StepOfKernels(const Trace& trace, const TraceLinks& links,
                                   const std::vector<Step>& steps);
std::vector<int32_t> StepOfTransfers(const Trace& trace, const TraceLinks& links,
                                     const std::vector<Step>& steps);

}  // namespace tensormorph
