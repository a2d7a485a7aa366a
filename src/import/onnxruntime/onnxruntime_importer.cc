#include "import/onnxruntime/onnxruntime_importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "import/common/finish_import.h"
#include "import/onnxruntime/trace_builder.h"
#include "tensormorph/io/block_reader.h"

namespace tensormorph::onnxruntime {
namespace {

using nlohmann::json;

std::string_view SkipSpace(std::string_view s, size_t* i) {
  while (*i < s.size() && (s[*i] == ' ' || s[*i] == '\n' || s[*i] == '\r' || s[*i] == '\t')) ++*i;
  return s.substr(*i);
}

// Whether `head` has a "cat" member whose value is one of ORT's "Session" / "Node", however the
// writer spaced it ("cat" : "Node").
bool HasOrtCategory(std::string_view head) {
  for (size_t at = head.find("\"cat\""); at != std::string_view::npos;
       at = head.find("\"cat\"", at + 5)) {
    size_t i = at + 5;
    SkipSpace(head, &i);
    if (i >= head.size() || head[i] != ':') continue;
    ++i;
    std::string_view rest = SkipSpace(head, &i);
    if (rest.starts_with("\"Session\"") || rest.starts_with("\"Node\"")) return true;
  }
  return false;
}

// (line, column), 1-based, of byte `offset` of `text`.
std::pair<uint64_t, uint64_t> LineColumn(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  const uint64_t line = 1 + std::count(text.begin(), text.begin() + offset, '\n');
  const size_t newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  const size_t line_start = newline == std::string::npos ? 0 : newline + 1;
  return {line, offset - line_start + 1};
}

}  // namespace

Backend ProviderBackend(std::string_view provider) {
  auto is = [&](std::string_view prefix) { return provider.starts_with(prefix); };
  if (is("CPUExecutionProvider")) return Backend::kCpu;
  if (is("CUDAExecutionProvider") || is("TensorrtExecutionProvider") || is("NvTensorRT"))
    return Backend::kCuda;
  if (is("ROCMExecutionProvider") || is("MIGraphXExecutionProvider")) return Backend::kRocm;
  if (is("WebGpuExecutionProvider") || is("JsExecutionProvider")) return Backend::kWebGpu;
  if (is("CoreMLExecutionProvider")) return Backend::kMetal;
  return Backend::kOther;
}

int OnnxRuntimeImporter::Sniff(std::string_view head) const {
  size_t i = 0;
  if (head.starts_with("\xEF\xBB\xBF")) i = 3;
  SkipSpace(head, &i);
  if (i >= head.size() || head[i] != '[') return 0;
  if (!HasOrtCategory(head)) return 0;
  for (std::string_view marker : {"\"op_name\"", "\"provider\"", "\"model_loading_uri\"",
                                  "\"model_loading_array\"", "\"session_initialization\""}) {
    if (head.find(marker) != std::string_view::npos) return 95;
  }
  return 0;
}

StatusOr<Trace> OnnxRuntimeImporter::Import(const Input& input,
                                            const ImportOptions& options) const {
  const std::string& path = input.path();
  std::string gzip_warning;
  TM_ASSIGN_OR_RETURN(const std::string text, input.Content(&gzip_warning));

  Trace trace;
  trace.path = path;
  if (!gzip_warning.empty()) trace.warnings.push_back(gzip_warning);
  trace.format = "onnxruntime";
  json doc;
  std::string recovered_warning;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& error) {
    const size_t at = error.byte == 0 ? 0 : error.byte - 1;
    // ORT writes one event per line: a file cut off (or never closed) keeps every line before
    // the last complete "}," one.
    // First try the whole text closed (every event complete, the closing "]" missing).
    size_t cut = std::min(at, text.size());
    while (cut > 0 && std::string_view(" \t\r\n,").find(text[cut - 1]) != std::string::npos) {
      --cut;
    }
    json partial;
    if (cut > 0 && text[cut - 1] == '}') {
      partial = json::parse(text.substr(0, cut) + "\n]", nullptr, /*allow_exceptions=*/false);
      --cut;
    }
    if (!partial.is_array()) {
      cut = text.rfind("},\n", at);
      if (cut == std::string::npos) cut = text.rfind("},\r\n", at);
      if (cut != std::string::npos) {
        partial = json::parse(text.substr(0, cut + 1) + "\n]", nullptr, false);
      }
    }
    if (cut == std::string::npos || !partial.is_array()) {
      return UnreadableInput(fmt::format("not valid JSON: {}", error.what()),
                             SourcePosition::AtOffset(at));
    }
    const auto [line, column] = LineColumn(text, std::min(cut + 3, text.size()));
    recovered_warning = fmt::format(
        "{}:{}:{}: the file is cut off or not valid JSON after this point; read the {} events "
        "before it",
        path, line, column, partial.size());
    doc = std::move(partial);
  } catch (const json::exception& error) {  // a number beyond double's range (found by fuzzing)
    return UnreadableInput(fmt::format("not readable JSON: {}", error.what()));
  }
  if (!doc.is_array()) {
    return UnreadableInput("not an ONNX Runtime profile: expected a JSON array of events",
                           SourcePosition{1, 1});
  }
  BuildOnnxRuntimeTrace(doc, options.skip_runs, &trace);
  if (!recovered_warning.empty()) trace.warnings.insert(trace.warnings.begin(), recovered_warning);
  // The host is always traced; every provider's device is listed (FinishImport's backends).
  FinishImport(&trace, {.backends = {.host_traced = true, .every_device = true}});
  return trace;
}

}  // namespace tensormorph::onnxruntime
