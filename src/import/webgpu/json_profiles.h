// The JSON WebGPU profiles:
//  * ONNX Runtime Web `ondata` objects (WebGpuProfilingDataV1: version, kernelId, kernelType,
//    kernelName, programName, startTime, endTime, inputsMetadata, outputsMetadata), saved as a
//    JSON array or as NDJSON, one object a line; times are ns relative to the first timestamp
//    the session saw;
//  * TensorFlow.js tf.profile() results ({newBytes, newTensors, peakBytes, kernels: [{name,
//    kernelTimeMs, inputShapes, outputShapes, ...}], kernelNames}); kernelTimeMs is ms, or
//    {error: "..."} when the backend could not time the kernel. One result, a JSON array of
//    results, or NDJSON, one result a line; several results become one run each (dispatch.h),
//    laid end to end in input order. tf.time() results ({kernelMs, wallMs, extraProfileInfo})
//    name no kernel: they are refused with TfjsTimeRefusal().
#pragma once

#include <string>
#include <string_view>

#include "import/webgpu/dispatch.h"
#include "tensormorph/model/status.h"

namespace tensormorph::webgpu {

StatusOr<DispatchList> ReadOrtProfilingData(std::string_view text);
StatusOr<DispatchList> ReadTfjsProfile(std::string_view text);

// Why tf.time() results cannot be read, and what to save instead.
std::string TfjsTimeRefusal();

}  // namespace tensormorph::webgpu
