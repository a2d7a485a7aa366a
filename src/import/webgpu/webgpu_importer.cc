#include "import/webgpu/webgpu_importer.h"

#include <fmt/format.h>

#include "import/webgpu/json_profiles.h"
#include "import/webgpu/ort_console_log.h"
#include "io/block_reader.h"

namespace tensormorph::webgpu {
namespace {

bool Has(std::string_view head, std::string_view key) {
  return head.find(key) != std::string_view::npos;
}

char FirstChar(std::string_view head) {
  size_t i = head.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (i < head.size() && std::string_view(" \t\r\n").find(head[i]) != std::string_view::npos) {
    ++i;
  }
  return i < head.size() ? head[i] : '\0';
}

// Whether some line holds a whole ORT-web profiling record: the marker, then "execution time:
// <digits> ns". The marker alone is not enough: documentation quoting it (this project's README)
// is not a log.
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

}  // namespace

WebGpuInput SniffWebGpu(std::string_view head) {
  // A saved console often starts with a profiling line, whose "[" is not JSON.
  if (HasProfilingRecord(head) && FirstChar(head) == '[' && !Has(head, "\"kernelType\"") &&
      !Has(head, "\"kernelNames\"")) {
    return WebGpuInput::kOrtConsoleLog;
  }
  const char first = FirstChar(head);
  if (first == '[' || first == '{') {
    if (Has(head, "\"programName\"") && Has(head, "\"startTime\"") && Has(head, "\"kernelType\"")) {
      return WebGpuInput::kOrtProfilingData;
    }
    if (first == '{' && Has(head, "\"kernelNames\"") && Has(head, "\"kernels\"")) {
      return WebGpuInput::kTfjsProfile;
    }
    return WebGpuInput::kNone;
  }
  return HasProfilingRecord(head) ? WebGpuInput::kOrtConsoleLog : WebGpuInput::kNone;
}

int WebGpuImporter::Sniff(std::string_view head) const {
  switch (SniffWebGpu(head)) {
    case WebGpuInput::kOrtProfilingData:
    case WebGpuInput::kTfjsProfile:
      return 95;
    case WebGpuInput::kOrtConsoleLog:
      // Above a JSON guess (a log may start with "[profiling]"), below formats with a signature.
      return 95;
    case WebGpuInput::kNone:
      return 0;
  }
  return 0;
}

StatusOr<Trace> WebGpuImporter::Import(const std::string& path,
                                       const ImportOptions& options) const {
  std::string gzip_warning;
  StatusOr<std::string> content = ReadContent(path, options.max_input_bytes, &gzip_warning);
  if (!content.ok()) return content.status();
  const std::string& text = *content;

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
    case WebGpuInput::kNone:
      return UnreadableInput(
          "not a WebGPU profile: expected ONNX Runtime Web '[profiling] kernel \"...\"' console "
          "lines, its ondata objects (JSON array or NDJSON) or a TensorFlow.js tf.profile() JSON",
          SourcePosition{1, 1});
  }
  if (!list.ok()) return list.status();
  if (!gzip_warning.empty()) list->warnings.insert(list->warnings.begin(), gzip_warning);
  BuildDispatchTrace(std::move(list.value()), &trace);
  return trace;
}

}  // namespace tensormorph::webgpu
