// WebGPU profiles from the tools that time dispatches with timestamp queries (docs/webgpu.md):
// ONNX Runtime Web's profiling console lines and `ondata` objects, and TensorFlow.js tf.profile()
// results. All become one WebGPU device with a kernel per dispatch and an op per dispatch
// (dispatch.h). Quantized timestamps (Dawn 65,536 ns, Chrome 100 us) are detected and recorded in
// Trace::timestamp_resolution_ns.
#pragma once

#include <string_view>

#include "import/importer.h"

namespace tensormorph::webgpu {

enum class WebGpuInput { kNone, kOrtConsoleLog, kOrtProfilingData, kTfjsProfile };

// Which of the three the start of some content is.
WebGpuInput SniffWebGpu(std::string_view head);

class WebGpuImporter final : public Importer {
 public:
  std::string_view name() const override { return "webgpu"; }
  std::string_view description() const override {
    return "ONNX Runtime Web WebGPU profiling (console log or ondata JSON/NDJSON), TensorFlow.js "
           "tf.profile() JSON";
  }
  // 95 for ondata JSON and tf.profile() JSON (keys no other format has) and for a text log with
  // an ORT-web profiling line in its first 64 KiB (which may start with "[", like JSON).
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const std::string& path, const ImportOptions& options) const override;
};

}  // namespace tensormorph::webgpu
