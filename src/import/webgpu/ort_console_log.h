// ONNX Runtime Web's WebGPU profiling console output (env.webgpu.profiling = {mode: 'default'}
// without an ondata callback), saved as text, other console lines mixed in. Three generations:
//   [profiling] kernel "<kernelId>|<kernelType>|<kernelName>|<programName>" input[0]: [1,3] |
//       float32, output[0]: [1,3] | float32, [start time: <N> ns, ]execution time: <N> ns
//   [profiling] kernel "<kernelId>|[<kernelType>] <kernelName>" <shapes>execution time: <N> ns
//   [profiling] kernel "<kernelId>|<kernelName>" execution time: <N> ns
// ("start time": in 1.30, not in 1.17.3; ns from the first timestamp the session saw). The line may
// carry a console prefix (source location, timestamp) before "[profiling]". A whole browser console
// also holds page output and, with enableProfiling, the session profile ORT prints one event a
// line: both are counted as other lines, named in a warning, never read as dispatches.
#pragma once

#include <string_view>

#include "import/webgpu/dispatch.h"

namespace tensormorph::webgpu {

inline constexpr std::string_view kOrtProfilingMarker = "[profiling] kernel \"";

// One line -> a dispatch. kernel = programName, else kernelType, else kernelName (earliest
// format); op = kernelType, else kernelName. False (with `why`) for a malformed profiling line.
bool ParseOrtProfilingLine(std::string_view line, Dispatch* dispatch, std::string* why);

// Every line of `text`: profiling lines become dispatches, at their start times when every line has
// one, else laid end to end (synthetic starts); other lines are counted (and the printed session
// profile's events apart), malformed profiling lines skipped with a warning giving the first one's
// line and column.
DispatchList ReadOrtConsoleLog(std::string_view text);

}  // namespace tensormorph::webgpu
