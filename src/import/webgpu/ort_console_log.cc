#include "import/webgpu/ort_console_log.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "import/common/op_inputs_json.h"
#include "model/time.h"

namespace tensormorph::webgpu {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// The op's arguments (dims [[1,3,224,224], ...], types ["float32", ...]) from the inputs of
// "input[0]: [1,3,224,224] | float32, input[1]: [...] | float32, output[0]: ..."; none when the
// text has no inputs or does not read as shapes.
std::optional<OpInputs> InputsFromShapes(std::string_view text) {
  nlohmann::json dims = nlohmann::json::array(), types = nlohmann::json::array();
  for (size_t at = text.find("input["); at != std::string_view::npos;
       at = text.find("input[", at + 1)) {
    if (at > 0 && text[at - 1] != ' ' && text[at - 1] != ',' && text[at - 1] != '"') continue;
    const size_t open = text.find(": [", at);
    const size_t close = open == std::string_view::npos ? open : text.find(']', open + 3);
    if (close == std::string_view::npos) return std::nullopt;
    nlohmann::json shape = nlohmann::json::parse(text.substr(open + 2, close - open - 1), nullptr,
                                                 /*allow_exceptions=*/false);
    if (!shape.is_array()) return std::nullopt;
    std::string_view type;
    if (const size_t bar = text.find(" | ", close); bar == close + 1) {
      type = text.substr(bar + 3);
      type = Trim(type.substr(0, type.find(',')));
    }
    dims.push_back(std::move(shape));
    types.push_back(std::string(type));
  }
  if (dims.empty()) return std::nullopt;
  // The log is text, not JSON: a type name may hold bytes that are not UTF-8, which the exporters
  // write as U+FFFD (found by fuzzing).
  return OpInputsFromValues(dims, &types);
}

// A line of the session profile ORT-web prints with enableProfiling: the "[" and "]" around it, and
// one Chrome-trace event a line ({"cat" : "Node", ...},).
bool IsSessionProfileLine(std::string_view trimmed) {
  if (trimmed == "[" || trimmed == "]") return true;
  if (!trimmed.starts_with('{')) return false;
  const std::string_view key = trimmed.substr(1, 6);
  return key.starts_with("\"cat\"") && trimmed.find("\"ph\"") != std::string_view::npos;
}

// At most `limit` bytes of `text` for a message, bytes outside printable ASCII as '?'.
std::string Printable(std::string_view text, size_t limit) {
  std::string out;
  for (char c : text.substr(0, limit)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (text.size() > limit) out += "...";
  return out;
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

  // ORT-web >= 1.2x: "..., start time: <N> ns, execution time: <N> ns", N relative to the first
  // timestamp the session saw.
  static constexpr std::string_view kStart = "start time:";
  std::string_view shapes = rest.substr(0, time_at);
  std::optional<int64_t> start;
  if (const size_t start_at = shapes.rfind(kStart); start_at != std::string_view::npos) {
    std::string_view text = Trim(shapes.substr(start_at + kStart.size()));
    if (text.ends_with(',')) text.remove_suffix(1);
    text = Trim(text);
    if (!text.ends_with("ns")) {
      *why = "the start time is not in ns";
      return false;
    }
    text = Trim(text.substr(0, text.size() - 2));
    start = ParseScaledDecimal(text, 0);
    if (!start || *start < 0) {
      *why = fmt::format("start time '{}' is not a non-negative number of ns", text);
      return false;
    }
    shapes = shapes.substr(0, start_at);
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
  dispatch->inputs = InputsFromShapes(shapes);
  dispatch->start_ns = start;
  dispatch->duration_ns = *ns;
  return true;
}

DispatchList ReadOrtConsoleLog(std::string_view text) {
  DispatchList list;
  list.format_version = "ONNX Runtime Web WebGPU profiling console log";
  list.host_track_name = "ONNX Runtime Web";
  std::string first_problem, first_other;
  uint64_t line_number = 0, first_other_line = 0, profile_lines = 0, profile_events = 0;
  size_t with_start = 0;
  for (size_t from = 0; from < text.size();) {
    size_t end = text.find('\n', from);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(from, end - from);
    from = end + 1;
    ++line_number;
    const std::string_view trimmed = Trim(line);
    if (trimmed.empty()) continue;
    const size_t marker = line.find(kOrtProfilingMarker);
    if (marker == std::string_view::npos) {
      ++list.other;
      if (IsSessionProfileLine(trimmed)) {
        ++profile_lines;
        if (trimmed.starts_with('{')) ++profile_events;
      } else if (first_other.empty()) {
        first_other = Printable(trimmed, 60);
        first_other_line = line_number;
      }
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
    if (d.start_ns) ++with_start;
    list.dispatches.push_back(std::move(d));
  }
  // Real start times only when every line has one: a partial timeline would mix two clocks.
  list.synthetic_starts = with_start < list.dispatches.size();
  if (with_start > 0 && list.synthetic_starts) {
    list.warnings.push_back(fmt::format(
        "only {} of {} [profiling] lines have a start time: all are laid end to end instead",
        with_start, list.dispatches.size()));
  }
  if (list.skipped > 0) {
    list.warnings.push_back(fmt::format("{} malformed [profiling] lines skipped; the first at {}",
                                        list.skipped, first_problem));
  }
  if (list.other > 0) {
    list.metadata["other_console_lines"] = std::to_string(list.other);
    std::string what;
    if (profile_lines > 0) {
      list.metadata["session_profile_events"] = std::to_string(profile_events);
      what = fmt::format(
          "the ONNX Runtime session profile printed in the console: {} lines ({} events; its node "
          "times are host-measured on another clock: save it alone to read it as an onnxruntime "
          "profile)",
          profile_lines, profile_events);
    }
    if (list.other > profile_lines) {
      if (!what.empty()) what += ", ";
      what += fmt::format("other output: {} (the first, line {}: \"{}\")",
                          list.other - profile_lines, first_other_line, first_other);
    }
    list.warnings.push_back(fmt::format(
        "{} console lines that are not [profiling] lines skipped: {}", list.other, what));
  }
  return list;
}

}  // namespace tensormorph::webgpu
