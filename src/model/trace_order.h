// The last step of every importer: put the tables in the model's order and record the span.
#pragma once

#include "model/trace.h"

namespace tensormorph {

// Sorts device tables by (device, stream, start) and host tables by (track, start, longer first).
// In place: std::sort needs no buffer, unlike stable_sort, whose buffer would be the peak of a
// whole import. The keys order rows completely (up to identical rows), so the result does not
// depend on the order the importer produced them in.
void SortTraceTables(Trace* trace);

// Earliest start and latest end over every timed row; {0, 0} for a trace without any.
void ComputeTraceSpan(Trace* trace);

}  // namespace tensormorph
