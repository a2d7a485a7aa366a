// ONNX Runtime profile JSON (SessionOptions.enable_profiling): a top-level JSON array of Chrome
// "complete" events, ts/dur in integer microseconds relative to the session's creation.
//
// How events map to the model: trace_builder.h.
#pragma once

#include <optional>
#include <string_view>

#include "tensormorph/import/importer.h"

namespace tensormorph::onnxruntime {

class OnnxRuntimeImporter final : public Importer {
 public:
  std::string_view name() const override { return "onnxruntime"; }
  std::string_view description() const override {
    return "ONNX Runtime profile JSON (enable_profiling)";
  }
  // 95 (above generic Chrome JSON's 90) for an array whose first events are ORT Session/Node
  // events; 0 otherwise.
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

// The backend an execution provider name runs on: CPUExecutionProvider -> cpu, CUDA/TensorRT ->
// cuda, ROCm/MIGraphX -> rocm, WebGPU/JS -> webgpu, CoreML -> metal, anything else -> other.
Backend ProviderBackend(std::string_view provider);

}  // namespace tensormorph::onnxruntime
