// ONNX Runtime profile JSON (SessionOptions.enable_profiling): a top-level JSON array of Chrome
// "complete" events, ts/dur in integer microseconds relative to the session's creation.
//
// Node events (<node>_kernel_time) become framework ops named by their op_name (ONNX op type),
// on the thread that ran them, with input shapes from input_type_shape. The node's provider
// (execution provider) gives its backend; since the file has no device timing of its own unless
// the build profiled GPU kernels, every node also becomes a kernel on a device of that backend
// with the node's time, linked to its op. Kernel events (CUDA/ROCm builds with GPU profiling) and
// Api events (native WebGPU EP dispatches) are real device times: nodes of a provider that has
// them get no node-time kernel. Session events become annotations, model_run as model_run#N.
#pragma once

#include <optional>
#include <string_view>

#include "import/importer.h"

namespace tensormorph::onnxruntime {

class OrtImporter final : public Importer {
 public:
  std::string_view name() const override { return "onnxruntime"; }
  std::string_view description() const override {
    return "ONNX Runtime profile JSON (enable_profiling)";
  }
  // 95 (above generic Chrome JSON's 90) for an array whose first events are ORT Session/Node
  // events; 0 otherwise.
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const std::string& path, const ImportOptions& options) const override;
};

// The backend an execution provider name runs on: CPUExecutionProvider -> cpu, CUDA/TensorRT ->
// cuda, ROCm/MIGraphX -> rocm, WebGPU/JS -> webgpu, CoreML -> metal, anything else -> other.
Backend ProviderBackend(std::string_view provider);

}  // namespace tensormorph::onnxruntime
