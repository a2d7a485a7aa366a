#include "analysis/timeline/graph_capture.h"

#include <algorithm>
#include <map>

namespace tensormorph {

bool IsBeginCaptureCall(std::string_view name) {
  return name.find("BeginCapture") != std::string_view::npos;
}

bool IsEndCaptureCall(std::string_view name) {
  return name.find("EndCapture") != std::string_view::npos;
}

std::vector<CaptureWindow> GraphCaptureWindows(const Trace& trace) {
  std::vector<const ApiCall*> capture_calls;
  for (const ApiCall& call : trace.api_calls) {
    const std::string_view name = trace.str(call.name);
    if (IsBeginCaptureCall(name) || IsEndCaptureCall(name)) capture_calls.push_back(&call);
  }
  return PairCaptureCalls(trace, capture_calls);
}

std::vector<CaptureWindow> PairCaptureCalls(const Trace& trace,
                                            const std::vector<const ApiCall*>& capture_calls) {
  std::map<uint32_t, std::vector<const ApiCall*>> by_track;
  for (const ApiCall* call : capture_calls) by_track[call->track].push_back(call);
  std::vector<CaptureWindow> windows;
  for (auto& [track, calls] : by_track) {
    std::stable_sort(calls.begin(), calls.end(),
                     [](const ApiCall* a, const ApiCall* b) { return a->start_ns < b->start_ns; });
    const ApiCall* open = nullptr;
    for (const ApiCall* call : calls) {
      if (IsBeginCaptureCall(trace.str(call->name))) {
        if (open == nullptr) open = call;  // nested Begins on one thread: the outermost counts
      } else if (open != nullptr) {
        windows.push_back({track, open->start_ns, call->start_ns + call->duration_ns});
        open = nullptr;
      }
    }
    if (open != nullptr) {
      windows.push_back({track, open->start_ns, std::max(open->start_ns, trace.span_end_ns)});
    }
  }
  return windows;
}

GraphCaptureSummary SummarizeGraphCapture(const Trace& trace) {
  GraphCaptureSummary summary;
  for (const CaptureWindow& w : GraphCaptureWindows(trace)) {
    ++summary.windows;
    summary.total_ns += w.end_ns - w.start_ns;
  }
  return summary;
}

}  // namespace tensormorph
