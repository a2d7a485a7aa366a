#include "import/webgpu/json_profiles.h"

#include <fmt/format.h>

#include "import/webgpu/json_decimal.h"

namespace tensormorph::webgpu {
namespace {

using nlohmann::json;

size_t FirstNonSpace(std::string_view text) {
  size_t i = text.starts_with("\xEF\xBB\xBF") ? 3 : 0;
  while (i < text.size() &&
         (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t')) {
    ++i;
  }
  return i;
}

Status JsonStatus(const JsonError& error, uint64_t base_offset) {
  return UnreadableInput(fmt::format("not valid JSON: {}", error.message),
                         SourcePosition::AtOffset(base_offset + error.byte_offset));
}

// {"dims": [...], "types": [...]} from [{dims, dataType}, ...] (ORT) when it has any entry.
std::string InputsFromMetadata(const json& metadata) {
  if (!metadata.is_array() || metadata.empty()) return {};
  json dims = json::array(), types = json::array();
  for (const json& entry : metadata) {
    dims.push_back(Member(entry, "dims"));
    types.push_back(StringMember(entry, "dataType"));
  }
  return fmt::format("{{\"dims\": {}, \"types\": {}}}", dims.dump(), types.dump());
}

// One WebGpuProfilingDataV1 object; false when it has no usable startTime/endTime.
bool ReadProfilingData(const json& object, Dispatch* d, std::string* why) {
  const std::optional<int64_t> start = ScaledNumber(Member(object, "startTime"), 0);
  const std::optional<int64_t> end = ScaledNumber(Member(object, "endTime"), 0);
  if (!object.is_object() || !start || !end) {
    *why = "no numeric startTime/endTime";
    return false;
  }
  if (*end < *start) {  // timestamp counters may reset (gpuweb #4069): no valid duration
    *why = fmt::format("endTime {} before startTime {}", *end, *start);
    return false;
  }
  const std::string type = StringMember(object, "kernelType");
  const std::string name = StringMember(object, "kernelName");
  const std::string program = StringMember(object, "programName");
  d->kernel = !program.empty() ? program : !type.empty() ? type : name;
  d->op = !type.empty() ? type : name;
  if (d->kernel.empty()) d->kernel = "(unnamed kernel)";
  if (d->op.empty()) d->op = d->kernel;
  d->inputs = InputsFromMetadata(Member(object, "inputsMetadata"));
  d->start_ns = *start;
  d->duration_ns = *end - *start;
  return true;
}

}  // namespace

StatusOr<DispatchList> ReadOrtProfilingData(std::string_view text) {
  DispatchList list;
  list.format_version = "ONNX Runtime Web WebGPU profiling data (ondata)";
  list.host_track_name = "ONNX Runtime Web";
  std::string first_problem;
  auto add = [&](const json& object, uint64_t line) {
    Dispatch d;
    std::string why;
    if (ReadProfilingData(object, &d, &why)) {
      list.dispatches.push_back(std::move(d));
      return;
    }
    ++list.skipped;
    if (first_problem.empty()) {
      first_problem = line > 0
                          ? fmt::format("line {}: {}", line, why)
                          : fmt::format("entry {}: {}", list.dispatches.size() + list.skipped, why);
    }
  };
  JsonError error;
  const size_t first = FirstNonSpace(text);
  if (first < text.size() && text[first] == '[') {
    std::optional<json> doc = ParseJsonKeepingDecimals(text, &error);
    if (!doc) return JsonStatus(error, 0);
    for (const json& object : *doc) add(object, 0);
    list.format_version += ", JSON array";
  } else {
    // NDJSON: a bad line (often the last one of a log cut short) is skipped and reported.
    uint64_t line = 0, bad_lines = 0;
    std::optional<Status> first_bad;
    for (size_t from = 0; from < text.size();) {
      size_t end = text.find('\n', from);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view row = text.substr(from, end - from);
      const size_t row_offset = from;
      from = end + 1;
      ++line;
      if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      std::optional<json> object = ParseJsonKeepingDecimals(row, &error);
      if (!object) {
        ++bad_lines;
        if (!first_bad) first_bad = JsonStatus(error, row_offset);
        if (first_problem.empty()) {
          first_problem = fmt::format("line {}: not valid JSON: {}", line, error.message);
        }
        continue;
      }
      add(*object, line);
    }
    if (list.dispatches.empty() && first_bad) return *first_bad;
    list.skipped += bad_lines;
    list.format_version += ", NDJSON";
  }
  if (list.skipped > 0) {
    list.warnings.push_back(
        fmt::format("{} profiling entries skipped; the first: {}", list.skipped, first_problem));
  }
  return list;
}

StatusOr<DispatchList> ReadTfjsProfile(std::string_view text) {
  JsonError error;
  std::optional<json> doc = ParseJsonKeepingDecimals(text, &error);
  if (!doc) return JsonStatus(error, 0);
  const json& kernels = Member(*doc, "kernels");
  if (!kernels.is_array()) {
    return UnreadableInput("not a tf.profile() result: no \"kernels\" array", {1, 1});
  }
  DispatchList list;
  list.format_version = "TensorFlow.js tf.profile() result";
  list.host_track_name = "TensorFlow.js";
  list.synthetic_starts = true;
  for (const char* key : {"newBytes", "newTensors", "peakBytes"}) {
    if (std::optional<int64_t> v = ScaledNumber(Member(*doc, key), 0)) {
      list.metadata[key] = std::to_string(*v);
    }
  }
  uint64_t untimed = 0;
  std::string first_error;
  for (const json& kernel : kernels) {
    const std::string name = StringMember(kernel, "name");
    if (!kernel.is_object() || name.empty()) {
      ++list.skipped;
      continue;
    }
    Dispatch d;
    d.kernel = name;
    d.op = name;
    const json& shapes = Member(kernel, "inputShapes");
    if (shapes.is_array() && !shapes.empty()) {
      d.inputs = fmt::format("{{\"dims\": {}}}", shapes.dump());
    }
    const json& time = Member(kernel, "kernelTimeMs");
    const std::optional<int64_t> ns = ScaledNumber(time, 6);
    if (ns && *ns >= 0) {
      d.duration_ns = *ns;
    } else {
      ++untimed;
      if (first_error.empty()) {
        first_error = Member(time, "error").is_string()
                          ? StringMember(time, "error")
                          : fmt::format("kernelTimeMs {}", time.dump());
      }
    }
    list.dispatches.push_back(std::move(d));
  }
  if (untimed > 0) {
    list.warnings.push_back(fmt::format(
        "{} of {} kernels have no time (\"{}\"): they count as kernels and ops but add nothing "
        "to kernel time",
        untimed, list.dispatches.size(), first_error));
  }
  if (list.skipped > 0) {
    list.warnings.push_back(fmt::format("{} kernels entries without a name skipped", list.skipped));
  }
  return list;
}

}  // namespace tensormorph::webgpu
