// The build step of the WebGPU importer: the dispatches its readers found (dispatch.h, which
// describes the model) into a Trace.
#pragma once

#include "import/webgpu/dispatch.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::webgpu {

// Fills `trace` (path and format already set) from the dispatches, sorted and with its span.
void BuildWebGpuTrace(DispatchList list, Trace* trace);

}  // namespace tensormorph::webgpu
