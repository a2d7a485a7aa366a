#include "import/webgpu/json_profiles.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>

#include "import/common/op_inputs_json.h"
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

// The op's arguments (dims and types) from [{dims, dataType}, ...] (ORT) when it has any entry.
std::optional<OpInputs> InputsFromMetadata(const json& metadata) {
  if (!metadata.is_array() || metadata.empty()) return std::nullopt;
  json dims = json::array(), types = json::array();
  for (const json& entry : metadata) {
    dims.push_back(Member(entry, "dims"));
    types.push_back(StringMember(entry, "dataType"));
  }
  return OpInputsFromValues(dims, &types);
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

// The error for a JSON value where a tf.profile() result was expected.
std::string NotAProfile(const json& value) {
  if (value.is_object() && value.contains("kernelMs") && value.contains("wallMs")) {
    return TfjsTimeRefusal();
  }
  return "not a tf.profile() result: no \"kernels\" array";
}

// What the results of one input add up to.
struct TfjsTotals {
  uint64_t results = 0, untimed = 0, unnamed = 0;
  std::string first_error;  // of the first untimed kernel
  // newBytes and newTensors summed over the results (each is what its call left allocated),
  // peakBytes the largest.
  std::map<std::string, int64_t> memory;
};

// One tf.profile() result (an object with a "kernels" array): its kernels become dispatches,
// and a run when the input holds several.
void AddTfjsProfile(const json& doc, DispatchList* list, TfjsTotals* totals) {
  ++totals->results;
  for (const char* key : {"newBytes", "newTensors", "peakBytes"}) {
    const std::optional<int64_t> v = ScaledNumber(Member(doc, key), 0);
    if (!v) continue;
    auto [it, added] = totals->memory.emplace(key, *v);
    if (added) continue;
    if (std::string_view(key) == "peakBytes") {
      it->second = std::max(it->second, *v);
    } else if ((*v > 0 && it->second > INT64_MAX - *v) || (*v < 0 && it->second < INT64_MIN - *v)) {
      it->second = *v > 0 ? INT64_MAX : INT64_MIN;  // saturate: never wrap
    } else {
      it->second += *v;
    }
  }
  const size_t first = list->dispatches.size();
  for (const json& kernel : Member(doc, "kernels")) {
    const std::string name = StringMember(kernel, "name");
    if (!kernel.is_object() || name.empty()) {
      ++totals->unnamed;
      continue;
    }
    Dispatch d;
    d.kernel = name;
    d.op = name;
    const json& shapes = Member(kernel, "inputShapes");
    if (shapes.is_array() && !shapes.empty()) {
      d.inputs = OpInputsFromValues(shapes);
    }
    const json& time = Member(kernel, "kernelTimeMs");
    const std::optional<int64_t> ns = ScaledNumber(time, 6);
    if (ns && *ns >= 0) {
      d.duration_ns = *ns;
    } else {
      ++totals->untimed;
      if (totals->first_error.empty()) {
        totals->first_error = Member(time, "error").is_string()
                                  ? StringMember(time, "error")
                                  : fmt::format("kernelTimeMs {}", time.dump());
      }
    }
    list->dispatches.push_back(std::move(d));
  }
  list->runs.push_back(DispatchRun{fmt::format("tf.profile() #{}", totals->results), first,
                                   list->dispatches.size() - first});
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
  DispatchList list;
  list.host_track_name = "TensorFlow.js";
  list.synthetic_starts = true;
  TfjsTotals totals;
  JsonError error;
  const size_t first = FirstNonSpace(text);
  const size_t first_line_end = text.find('\n', first);
  const bool more_lines =
      first_line_end != std::string_view::npos &&
      text.find_first_not_of(" \t\r\n", first_line_end) != std::string_view::npos;
  std::optional<json> first_line;
  if (first < text.size() && text[first] == '{' && more_lines) {
    first_line = ParseJsonKeepingDecimals(text.substr(first, first_line_end - first), &error);
  }
  if (first_line && first_line->is_object()) {
    // NDJSON, one result a line: a bad line (often the last one, cut short) is skipped, reported.
    uint64_t line = 0, bad_lines = 0;
    std::optional<Status> first_bad;
    std::string first_problem;
    for (size_t from = 0; from < text.size();) {
      size_t end = text.find('\n', from);
      if (end == std::string_view::npos) end = text.size();
      const std::string_view row = text.substr(from, end - from);
      const size_t row_offset = from;
      from = end + 1;
      ++line;
      if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
      std::optional<json> object = ParseJsonKeepingDecimals(row, &error);
      std::string why = object ? "" : fmt::format("not valid JSON: {}", error.message);
      if (object && !Member(*object, "kernels").is_array()) why = "no \"kernels\" array";
      if (!why.empty()) {
        ++bad_lines;
        if (!first_bad) {
          first_bad = object ? UnreadableInput(NotAProfile(*object), {line, 1})
                             : JsonStatus(error, row_offset);
        }
        if (first_problem.empty()) first_problem = fmt::format("line {}: {}", line, why);
        continue;
      }
      AddTfjsProfile(*object, &list, &totals);
    }
    if (totals.results == 0 && first_bad) return *first_bad;
    list.skipped += bad_lines;
    if (bad_lines > 0) {
      list.warnings.push_back(
          fmt::format("{} lines that are not tf.profile() results skipped; the "
                      "first: {}",
                      bad_lines, first_problem));
    }
    list.format_version =
        fmt::format("TensorFlow.js tf.profile() results ({}, NDJSON)", totals.results);
  } else {
    std::optional<json> doc = ParseJsonKeepingDecimals(text, &error);
    if (!doc) return JsonStatus(error, 0);
    if (doc->is_array()) {
      // JSON.stringify of several results.
      uint64_t entry = 0;
      for (const json& result : *doc) {
        ++entry;
        if (!Member(result, "kernels").is_array()) {
          return UnreadableInput(
              fmt::format("entry {} of the array: {}", entry, NotAProfile(result)), {1, 1});
        }
        AddTfjsProfile(result, &list, &totals);
      }
      if (totals.results == 0) {
        return UnreadableInput("an empty JSON array: no tf.profile() result in it", {1, 1});
      }
      list.format_version =
          fmt::format("TensorFlow.js tf.profile() results ({}, JSON array)", totals.results);
    } else {
      if (!Member(*doc, "kernels").is_array()) return UnreadableInput(NotAProfile(*doc), {1, 1});
      AddTfjsProfile(*doc, &list, &totals);
      list.format_version = "TensorFlow.js tf.profile() result";
    }
  }
  if (totals.results < 2) list.runs.clear();
  for (const auto& [key, value] : totals.memory) list.metadata[key] = std::to_string(value);
  if (totals.results > 1) list.metadata["profile_results"] = std::to_string(totals.results);
  if (totals.untimed > 0) {
    list.warnings.push_back(fmt::format(
        "{} of {} kernels have no time (\"{}\"): they count as kernels and ops but add nothing "
        "to kernel time",
        totals.untimed, list.dispatches.size(), totals.first_error));
  }
  if (totals.unnamed > 0) {
    list.skipped += totals.unnamed;
    list.warnings.push_back(
        fmt::format("{} kernels entries without a name skipped", totals.unnamed));
  }
  return list;
}

std::string TfjsTimeRefusal() {
  return "TensorFlow.js tf.time() results: they hold a total kernel time per call (kernelMs) and "
         "unnamed per-dispatch times (extraProfileInfo), no kernel names, so no kernel can be "
         "placed; save tf.profile() results instead (JSON.stringify of the info without "
         "info.result)";
}

}  // namespace tensormorph::webgpu
