// The FLOP counter over a whole trace: an estimate per framework-op slice.
#pragma once

#include "tensormorph/link/op_work.h"
#include "tensormorph/link/work_links.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

// Parallel to Trace::slices: the estimate of each op call whose recorded shapes the FLOP counter
// knows, null for every other slice. Estimates are computed once per distinct name and shapes
// (shapes repeat every step).
SliceWork EstimateSliceWork(const Trace& trace);

// The same for the memory-bound ops (EstimateOpTraffic): set for the op calls the FLOP counter
// does not know and whose traffic is known. `links` give each op's kernels, whose names state the
// element size of tensor lists the trace records without one (ListElementBytesOfKernel).
SliceWork EstimateSliceTraffic(const Trace& trace, const TraceLinks& links);

}  // namespace tensormorph
