// TensorFlow.js DEBUG mode console output (tf.env().set('DEBUG', true)): tfjs-core's Logger prints
// one line per kernel output,
//   %c<name padded to 25>\t%c<"<ms>ms" padded to 9, or the timing error>\t%c<rank>D <shape>\t
//   %c<size>\t%c<input>: <rank>D <shape> ...\t%c<extraInfo>
// and a console that keeps the format arguments appends the six CSS styles ("font-weight:bold
// color:red ..."). A console saved from DevTools drops the "%c"s; both read the same. A line is a
// kernel line when it has six tab-separated fields whose third is "<rank>D ..." and fourth an
// integer; its time is decimal ms, converted to integer ns exactly. Other lines are counted.
//
// A kernel with several outputs prints a line per output: each is read as a kernel (the log cannot
// tell them from repeated kernels). Times are durations only: the dispatches are laid end to end.
#pragma once

#include <string_view>

#include "import/webgpu/dispatch.h"

namespace tensormorph::webgpu {

// Whether `line` is a DEBUG kernel line (the sniffer's test).
bool IsTfjsDebugLine(std::string_view line);

DispatchList ReadTfjsDebugLog(std::string_view text);

}  // namespace tensormorph::webgpu
