// Turns the events of an ONNX Runtime profile into the Trace model.
//
// Node events (<node>_kernel_time) become framework ops named by their op_name (ONNX op type),
// on the thread that ran them, with input shapes from input_type_shape. The node's provider
// (execution provider) gives its backend; since the file has no device timing of its own unless
// the build profiled GPU kernels, every node also becomes a kernel named by the node on a device
// of that backend with the node's time, linked to its op. Kernel events (CUDA/ROCm builds with
// GPU profiling) and Api events (native WebGPU EP dispatches) are real device times: nodes of a
// provider that has them get no node-time kernel. Session events become annotations, model_run
// as model_run#N. Warm-up runs (warm_up.h) are left out and summarised in a warning and in the
// metadata key "warm_up_runs".
#pragma once

#include <nlohmann/json.hpp>

#include "tensormorph/model/trace.h"

namespace tensormorph::onnxruntime {

// `skip_runs`: model runs to leave out, in time order; -1 = the first when there are several.
void BuildOnnxRuntimeTrace(const nlohmann::json& events, int skip_runs, Trace* trace);

}  // namespace tensormorph::onnxruntime
