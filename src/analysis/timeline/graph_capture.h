// CUDA/HIP stream capture. Between cudaStreamBeginCapture and cudaStreamEndCapture (hip..., cu...,
// ...ToGraph) on one host thread, launches record a graph and run nothing; the graph runs later,
// on replay. A trace recorded while a program captures its graphs (vLLM's start-up, a
// torch.cuda.graphs warm-up) therefore shows the device idle for as long as the host captures:
// that idle time is the capture, a one-time cost, not a host too slow to launch.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph {

bool IsBeginCaptureCall(std::string_view name);  // the name contains "BeginCapture"
bool IsEndCaptureCall(std::string_view name);    // ... "EndCapture"

struct CaptureWindow {
  uint32_t track = 0;  // the capturing host thread
  int64_t start_ns = 0;
  int64_t end_ns = 0;  // the end of the EndCapture call; the trace's end when it never came
};

// Every capture window of the trace, by track then start. A Begin without its End (a trace cut
// off mid-capture) lasts to the end of the trace; an End without a Begin is ignored.
std::vector<CaptureWindow> GraphCaptureWindows(const Trace& trace);
// The same from the Begin/End capture calls a caller already picked out of trace.api_calls.
std::vector<CaptureWindow> PairCaptureCalls(const Trace& trace,
                                            const std::vector<const ApiCall*>& capture_calls);

struct GraphCaptureSummary {
  uint64_t windows = 0;
  int64_t total_ns = 0;  // the windows' summed length
};
GraphCaptureSummary SummarizeGraphCapture(const Trace& trace);

}  // namespace tensormorph
