// CUPTI_ACTIVITY_KIND_RUNTIME: the CUDA runtime and driver API calls, one ApiCall row each, on the
// track of the calling thread (globalTid), with the correlation id that links a call to the GPU
// work it launched. CUPTI_ACTIVITY_KIND_SYNCHRONIZATION records are counted as sync events.
#pragma once

#include <string_view>

#include "import/nsys/context.h"

namespace tensormorph::nsys {

Status ReadApiCalls(ImportContext& context);

// "cudaLaunchKernel_v7000" → "cudaLaunchKernel": Nsight appends the API version that introduced
// the entry point; Kineto and the CUDA documentation use the plain name.
std::string_view StripApiVersion(std::string_view name);

}  // namespace tensormorph::nsys
