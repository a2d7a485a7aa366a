#include "import/webgpu/ort_console_log.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "model/time.h"

namespace tensormorph::webgpu {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// {"dims": [[1,3,224,224], ...], "types": ["float32", ...]} from the inputs of
// "input[0]: [1,3,224,224] | float32, input[1]: [...] | float32, output[0]: ..."; empty when the
// text has no inputs or does not read as shapes.
std::string InputsFromShapes(std::string_view text) {
  nlohmann::json dims = nlohmann::json::array(), types = nlohmann::json::array();
  for (size_t at = text.find("input["); at != std::string_view::npos;
       at = text.find("input[", at + 1)) {
    if (at > 0 && text[at - 1] != ' ' && text[at - 1] != ',' && text[at - 1] != '"') continue;
    const size_t open = text.find(": [", at);
    const size_t close = open == std::string_view::npos ? open : text.find(']', open + 3);
    if (close == std::string_view::npos) return {};
    nlohmann::json shape = nlohmann::json::parse(text.substr(open + 2, close - open - 1), nullptr,
                                                 /*allow_exceptions=*/false);
    if (!shape.is_array()) return {};
    std::string_view type;
    if (const size_t bar = text.find(" | ", close); bar == close + 1) {
      type = text.substr(bar + 3);
      type = Trim(type.substr(0, type.find(',')));
    }
    dims.push_back(std::move(shape));
    types.push_back(std::string(type));
  }
  if (dims.empty()) return {};
  // The log is text, not JSON: a type name may hold bytes that are not UTF-8, which dump() would
  // throw on (found by fuzzing).
  constexpr auto kReplace = nlohmann::json::error_handler_t::replace;
  return fmt::format("{{\"dims\": {}, \"types\": {}}}", dims.dump(-1, ' ', false, kReplace),
                     types.dump(-1, ' ', false, kReplace));
}

}  // namespace

bool ParseOrtProfilingLine(std::string_view line, Dispatch* dispatch, std::string* why) {
  const size_t marker = line.find(kOrtProfilingMarker);
  if (marker == std::string_view::npos) {
    *why = "not a profiling line";
    return false;
  }
  const size_t label_start = marker + kOrtProfilingMarker.size();
  const size_t label_end = line.find('"', label_start);
  if (label_end == std::string_view::npos) {
    *why = "the kernel label has no closing quote";
    return false;
  }
  const std::string_view label = line.substr(label_start, label_end - label_start);
  const std::string_view rest = line.substr(label_end + 1);
  static constexpr std::string_view kTime = "execution time:";
  const size_t time_at = rest.rfind(kTime);
  if (time_at == std::string_view::npos) {
    *why = "no \"execution time: <N> ns\"";
    return false;
  }
  std::string_view number = Trim(rest.substr(time_at + kTime.size()));
  if (!number.ends_with("ns")) {
    *why = "the execution time is not in ns";
    return false;
  }
  number = Trim(number.substr(0, number.size() - 2));
  const std::optional<int64_t> ns = ParseScaledDecimal(number, 0);
  if (!ns || *ns < 0) {
    *why = fmt::format("execution time '{}' is not a non-negative number of ns", number);
    return false;
  }

  std::vector<std::string_view> parts;
  for (size_t from = 0;;) {
    const size_t bar = label.find('|', from);
    parts.push_back(label.substr(from, bar == std::string_view::npos ? bar : bar - from));
    if (bar == std::string_view::npos) break;
    from = bar + 1;
  }
  std::string_view type, name, program;
  if (parts.size() >= 4) {  // id|type|name|program
    type = parts[1];
    name = parts[2];
    program = label.substr(parts[0].size() + parts[1].size() + parts[2].size() + 3);
  } else if (parts.size() == 3) {
    type = parts[1];
    name = parts[2];
  } else if (parts.size() == 2 && parts[1].starts_with('[') &&
             parts[1].find(']') != std::string_view::npos) {  // id|[type] name
    const size_t close = parts[1].find(']');
    type = parts[1].substr(1, close - 1);
    name = Trim(parts[1].substr(close + 1));
  } else {  // id|name, or a bare label
    name = parts.back();
  }
  dispatch->kernel = std::string(!program.empty() ? program : !type.empty() ? type : name);
  dispatch->op = std::string(!type.empty() ? type : name);
  if (dispatch->kernel.empty()) dispatch->kernel = "(unnamed kernel)";
  if (dispatch->op.empty()) dispatch->op = dispatch->kernel;
  dispatch->inputs = InputsFromShapes(rest.substr(0, time_at));
  dispatch->start_ns.reset();
  dispatch->duration_ns = *ns;
  return true;
}

DispatchList ReadOrtConsoleLog(std::string_view text) {
  DispatchList list;
  list.format_version = "ONNX Runtime Web WebGPU profiling console log";
  list.host_track_name = "ONNX Runtime Web";
  list.synthetic_starts = true;
  std::string first_problem;
  uint64_t line_number = 0;
  for (size_t from = 0; from < text.size();) {
    size_t end = text.find('\n', from);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(from, end - from);
    from = end + 1;
    ++line_number;
    if (Trim(line).empty()) continue;
    const size_t marker = line.find(kOrtProfilingMarker);
    if (marker == std::string_view::npos) {
      ++list.other;
      continue;
    }
    Dispatch d;
    std::string why;
    if (!ParseOrtProfilingLine(line, &d, &why)) {
      ++list.skipped;
      if (first_problem.empty()) {
        first_problem = fmt::format("line {} column {}: {}", line_number, marker + 1, why);
      }
      continue;
    }
    list.dispatches.push_back(std::move(d));
  }
  if (list.skipped > 0) {
    list.warnings.push_back(fmt::format("{} malformed [profiling] lines skipped; the first at {}",
                                        list.skipped, first_problem));
  }
  if (list.other > 0) {
    list.metadata["other_console_lines"] = std::to_string(list.other);
  }
  return list;
}

}  // namespace tensormorph::webgpu
