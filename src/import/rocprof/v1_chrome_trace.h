// rocprof v1's Chrome trace (`results.json`, written by `rocprof --hip-trace` / `--stats` beside
// results.csv). It looks like Chrome trace JSON but is read as rocprof: `ts`/`dur` are quoted
// strings in truncated microseconds, so the times come from the exact `BeginNs`/`EndNs` of each
// dispatch's `args`, which carry results.csv's columns (KernelName, gpu-id, queue-id, grd, wgr,
// lds, scr, arch_vgpr, accum_vgpr, sgpr, wave_size, DispatchNs, ...) as strings. Dispatches sit
// on pids named "GPU<gpu-id>" by process_name metadata; the document may start with an empty
// event `{}`; `otherData` holds rocminfo flattened ("Agent2.Name" = the gfx target,
// "Agent2.MarketingName" with its spaces removed, "Agent2.Node", "Agent2.DeviceType",
// "Agent2.ComputeUnit", "Agent2.MemoryProperties.WavefrontSize" = "32(0x20)"). gpu-id is the
// HSA agent's node id (CPU agents first), as in results.csv.
//
// Events on other pids (COPY, GPU Barriers, HIP API rows of --hip-trace) are counted and named
// in a warning, not read: no real file with them was available to check their fields against.
// The file is parsed whole (nlohmann-json): v1 traces are results.csv-sized.
#pragma once

#include <string_view>

#include "tensormorph/io/input.h"
#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof {

// Whether the first bytes of a JSON document look like rocprof v1's Chrome trace: a traceEvents
// document with rocprof v1's COPY / GPU<N> process rows or its dispatch args.
bool LooksLikeV1ChromeTrace(std::string_view head);

StatusOr<Trace> ImportV1ChromeTrace(const Input& input);

}  // namespace tensormorph::rocprof
