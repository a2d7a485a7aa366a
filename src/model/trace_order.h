// The last step of every importer: put the tables in the model's order and record the span.
#pragma once

#include "tensormorph/model/trace.h"

namespace tensormorph {

// Sorts device tables by (device, stream, start) and host tables by (track, start, longer first).
// In place: std::sort needs no buffer, unlike stable_sort, whose buffer would be the peak of a
// whole import. Rows that tie on every key (same place, time, duration and name, differing only
// in ids or launch configuration) keep no particular order; results stay deterministic because
// importers hand rows over in a fixed order (the Kineto importer merges chunks in file order).
void SortTraceTables(Trace* trace);

// Adds `offset_ns` to every timestamp (a profiler's time base: Kineto's baseTimeNanoseconds,
// Nsight's session start). The caller checks the offset keeps times in range; importers keep
// timestamps within ±2^62 ns, so any offset in [0, 2^62) is safe.
void ShiftTraceTimes(int64_t offset_ns, Trace* trace);

// Earliest start and latest end over every timed row; {0, 0} for a trace without any.
void ComputeTraceSpan(Trace* trace);

}  // namespace tensormorph
