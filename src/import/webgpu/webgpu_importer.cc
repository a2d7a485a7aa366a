#include "import/webgpu/webgpu_importer.h"

#include <fmt/format.h>

#include <cctype>

#include "import/webgpu/json_profiles.h"
#include "import/webgpu/ort_console_log.h"
#include "import/webgpu/tfjs_debug_log.h"
#include "import/webgpu/trace_builder.h"
#include "tensormorph/io/block_reader.h"

namespace tensormorph::webgpu {
namespace {

bool Has(std::string_view head, std::string_view key) {
  return head.find(key) != std::string_view::npos;
}

// Whether some line holds a whole ORT-web profiling record: the marker, then "execution time:
// <digits> ns". The marker alone is not enough: documentation quoting it (this project's
// docs/inputs.md) is not a log.
bool HasProfilingRecord(std::string_view head) {
  for (size_t at = head.find(kOrtProfilingMarker); at != std::string_view::npos;
       at = head.find(kOrtProfilingMarker, at + 1)) {
    const size_t end = head.find('\n', at);
    std::string_view line =
        head.substr(at, end == std::string_view::npos ? head.size() - at : end - at);
    if (line.ends_with('\r')) line.remove_suffix(1);
    constexpr std::string_view kTime = "execution time: ";
    const size_t time = line.rfind(kTime);
    if (time == std::string_view::npos || !line.ends_with(" ns")) continue;
    const std::string_view digits =
        line.substr(time + kTime.size(), line.size() - 3 - time - kTime.size());
    if (!digits.empty() && digits.find_first_not_of("0123456789") == std::string_view::npos) {
      return true;
    }
  }
  return false;
}

// Whether the content starts as JSON does: "{", or "[" followed by a JSON value rather than a
// console tag such as "[profiling]" or "[harness]".
bool StartsLikeJson(std::string_view head) {
  size_t i = head.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (i < head.size() && std::string_view(" \t\r\n").find(head[i]) != std::string_view::npos) {
    ++i;
  }
  if (i >= head.size()) return false;
  if (head[i] == '{') return true;
  if (head[i] != '[') return false;
  std::string_view rest = head.substr(i + 1);
  while (!rest.empty() &&
         std::string_view(" \t\r\n").find(rest.front()) != std::string_view::npos) {
    rest.remove_prefix(1);
  }
  if (rest.empty()) return true;
  const char c = rest.front();
  if (!std::isalpha(static_cast<unsigned char>(c))) return true;
  for (std::string_view literal : {"true", "false", "null"}) {
    if (rest.starts_with(literal) &&
        (rest.size() == literal.size() ||
         !std::isalnum(static_cast<unsigned char>(rest[literal.size()])))) {
      return true;
    }
  }
  return false;
}

// Some line of `head` (the last one only when complete) is a TF.js DEBUG kernel line.
bool HasTfjsDebugLine(std::string_view head) {
  for (size_t from = 0; from < head.size();) {
    const size_t end = head.find('\n', from);
    if (end == std::string_view::npos) return false;
    if (IsTfjsDebugLine(head.substr(from, end - from))) return true;
    from = end + 1;
  }
  return false;
}

// An ONNX model (ModelProto): field 1 ir_version (a small varint), then another ModelProto field
// (producer_name, producer_version, domain, model_version, doc_string, graph, opset_import).
bool LooksLikeOnnxModel(std::string_view head) {
  if (head.size() < 16 || head[0] != '\x08' || head[1] < 1 || head[1] > 30) return false;
  return std::string_view("\x12\x1a\x22\x28\x32\x3a\x42").find(head[2]) != std::string_view::npos;
}

}  // namespace

WebGpuInput SniffWebGpu(std::string_view head) {
  const bool record = HasProfilingRecord(head);
  if (!StartsLikeJson(head)) {
    if (record) return WebGpuInput::kOrtConsoleLog;
    if (HasTfjsDebugLine(head)) return WebGpuInput::kTfjsDebugLog;
    if (LooksLikeOnnxModel(head)) return WebGpuInput::kOnnxModel;
    return WebGpuInput::kNone;
  }
  if (Has(head, "\"programName\"") && Has(head, "\"startTime\"") && Has(head, "\"kernelType\"")) {
    return WebGpuInput::kOrtProfilingData;
  }
  // kernelNames follows a result's kernels: in a long profile it may lie past the head.
  if (Has(head, "\"kernels\"") && (Has(head, "\"kernelNames\"") || Has(head, "\"kernelTimeMs\""))) {
    return WebGpuInput::kTfjsProfile;
  }
  if (Has(head, "\"kernelMs\"") && Has(head, "\"wallMs\"")) return WebGpuInput::kTfjsTime;
  // Trace events ("traceEvents", "ph") are a Chrome trace's, whatever their args hold.
  if (Has(head, "\"traceEvents\"") || Has(head, "\"ph\"")) {
    return record ? WebGpuInput::kOrtConsoleLog : WebGpuInput::kNone;
  }
  if (Has(head, "\"isFallbackAdapter\"") || Has(head, "\"wgslLanguageFeatures\"") ||
      (Has(head, "\"architecture\"") && Has(head, "\"maxComputeWorkgroupSizeX\""))) {
    return WebGpuInput::kAdapterInfo;
  }
  // A console that starts with the session profile ORT printed, its profiling lines further on.
  return record ? WebGpuInput::kOrtConsoleLog : WebGpuInput::kNone;
}

int WebGpuImporter::Sniff(std::string_view head) const {
  switch (SniffWebGpu(head)) {
    case WebGpuInput::kOrtConsoleLog:
      // Above the onnxruntime importer's 95: a whole console may hold the session profile ORT
      // printed, whose events that importer recognises.
      return 97;
    case WebGpuInput::kOrtProfilingData:
    case WebGpuInput::kTfjsProfile:
    case WebGpuInput::kTfjsTime:
    case WebGpuInput::kAdapterInfo:
    case WebGpuInput::kTfjsDebugLog:
      return 95;
    case WebGpuInput::kOnnxModel:
      return 5;  // below every importer that reads something
    case WebGpuInput::kNone:
      return 0;
  }
  return 0;
}

StatusOr<Trace> WebGpuImporter::Import(const Input& input, const ImportOptions& options) const {
  const std::string& path = input.path();
  std::string gzip_warning;
  TM_ASSIGN_OR_RETURN(const std::string text, input.Content(&gzip_warning));

  Trace trace;
  trace.path = path;
  trace.format = "webgpu";
  StatusOr<DispatchList> list = DispatchList{};
  switch (SniffWebGpu(std::string_view(text).substr(0, 64 << 10))) {
    case WebGpuInput::kOrtConsoleLog:
      list = ReadOrtConsoleLog(text);
      trace.format = "ort-web-log";
      break;
    case WebGpuInput::kOrtProfilingData:
      list = ReadOrtProfilingData(text);
      trace.format = "ort-web-profiling";
      break;
    case WebGpuInput::kTfjsProfile:
      list = ReadTfjsProfile(text);
      trace.format = "tfjs-profile";
      break;
    case WebGpuInput::kTfjsDebugLog:
      list = ReadTfjsDebugLog(text);
      trace.format = "tfjs-debug-log";
      break;
    case WebGpuInput::kTfjsTime:
      return UnreadableInput(TfjsTimeRefusal(), SourcePosition{1, 1});
    case WebGpuInput::kAdapterInfo:
      return UnreadableInput(
          "a WebGPU adapter description (adapter.info, features, limits), not a profile: it "
          "times no dispatch; profile with ONNX Runtime Web (env.webgpu.profiling) or "
          "TensorFlow.js (tf.profile()) and read that output",
          SourcePosition{1, 1});
    case WebGpuInput::kOnnxModel:
      return UnreadableInput(
          "an ONNX model (ModelProto), not a profile: run it with profiling on (ONNX Runtime "
          "enableProfiling, or ONNX Runtime Web env.webgpu.profiling) and read that output",
          SourcePosition{1, 1});
    case WebGpuInput::kNone:
      return UnreadableInput(
          "not a WebGPU profile: expected ONNX Runtime Web '[profiling] kernel \"...\"' console "
          "lines, its ondata objects (JSON array or NDJSON), TensorFlow.js tf.profile() results "
          "(JSON, JSON array or NDJSON) or a TensorFlow.js DEBUG mode console log",
          SourcePosition{1, 1});
  }
  TM_ASSIGN_OR_RETURN(DispatchList dispatches, std::move(list));
  if (!gzip_warning.empty()) {
    dispatches.warnings.insert(dispatches.warnings.begin(), gzip_warning);
  }
  BuildWebGpuTrace(std::move(dispatches), &trace);
  return trace;
}

}  // namespace tensormorph::webgpu
