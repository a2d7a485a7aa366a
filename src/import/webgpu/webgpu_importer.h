// WebGPU profiles from the tools that time dispatches with timestamp queries (docs/webgpu.md):
// ONNX Runtime Web's profiling console lines (alone or in a whole browser console) and `ondata`
// objects, TensorFlow.js tf.profile() results (one, a JSON array, or NDJSON) and its DEBUG mode
// console. All become one WebGPU device with a kernel per dispatch and an op per dispatch
// (dispatch.h). Quantized timestamps (Dawn 65,536 ns, Chrome 100 us) are detected and recorded in
// Trace::timestamp_resolution_ns. Browser output that holds no dispatch times (tf.time() results,
// a WebGPU adapter description, the ONNX model itself) is claimed so that it gets a refusal that
// says what to save instead, never an empty trace from a generic JSON reader.
#pragma once

#include <string_view>

#include "tensormorph/import/importer.h"

namespace tensormorph::webgpu {

enum class WebGpuInput {
  kNone,
  kOrtConsoleLog,
  kOrtProfilingData,
  kTfjsProfile,
  kTfjsDebugLog,
  // Refused, each with what to save instead:
  kTfjsTime,
  kAdapterInfo,
  kOnnxModel,
};

// Which of them the start of some content is.
WebGpuInput SniffWebGpu(std::string_view head);

class WebGpuImporter final : public Importer {
 public:
  std::string_view name() const override { return "webgpu"; }
  std::vector<std::string_view> format_names() const override {
    return {"webgpu", "ort-web-log", "ort-web-profiling", "tfjs-profile", "tfjs-debug-log"};
  }
  std::string_view description() const override {
    return "ONNX Runtime Web WebGPU profiling (console log or ondata JSON/NDJSON), TensorFlow.js "
           "tf.profile() JSON";
  }
  // 97 for a text log with an ORT-web profiling line in its first 64 KiB (which may start with
  // "[", like JSON, and may hold a printed ORT session profile, which the onnxruntime importer
  // claims at 95); 95 for ondata JSON, tf.profile() and tf.time() JSON, adapter descriptions
  // (keys no other format has) and TF.js DEBUG logs; 5 for an ONNX model.
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

}  // namespace tensormorph::webgpu
