#include "import/webgpu/tfjs_debug_log.h"

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
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

// A field without the "%c" a console keeps when it prints the raw format string.
std::string_view Field(std::string_view field) {
  field = Trim(field);
  if (field.starts_with("%c")) field.remove_prefix(2);
  return Trim(field);
}

std::vector<std::string_view> SplitTabs(std::string_view line) {
  std::vector<std::string_view> fields;
  for (size_t from = 0;;) {
    const size_t tab = line.find('\t', from);
    fields.push_back(line.substr(from, tab == std::string_view::npos ? tab : tab - from));
    if (tab == std::string_view::npos) break;
    from = tab + 1;
  }
  return fields;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && s.size() <= 18 &&
         s.find_first_not_of("0123456789") == std::string_view::npos;
}

// "<rank>D" at the start of `s`, followed by the end or a space: the rank, else nullopt.
std::optional<int64_t> Rank(std::string_view s) {
  const size_t d = s.find('D');
  if (d == std::string_view::npos || !AllDigits(s.substr(0, d)) || d > 2) return std::nullopt;
  if (d + 1 < s.size() && s[d + 1] != ' ') return std::nullopt;
  return ParseScaledDecimal(s.substr(0, d), 0);
}

// The op's arguments (dims [[1,32,32,3], [3,3,3,8]]) from "x: 4D 1,32,32,3 filter: 4D 3,3,3,8 ";
// none when the text does not read as "<name>: <rank>D <dims>" entries.
std::optional<OpInputs> InputsFromDescription(std::string_view text) {
  std::vector<std::string_view> tokens;
  for (size_t from = 0; from < text.size();) {
    const size_t space = text.find(' ', from);
    const size_t end = space == std::string_view::npos ? text.size() : space;
    if (end > from) tokens.push_back(text.substr(from, end - from));
    from = end + 1;
  }
  nlohmann::json dims = nlohmann::json::array();
  for (size_t i = 0; i < tokens.size();) {
    if (!tokens[i].ends_with(':') || i + 1 >= tokens.size()) return {};
    const std::optional<int64_t> rank = Rank(tokens[i + 1]);
    if (!rank) return {};
    i += 2;
    nlohmann::json shape = nlohmann::json::array();
    if (*rank > 0) {
      if (i >= tokens.size()) return {};
      for (size_t from = 0; from <= tokens[i].size();) {
        size_t comma = tokens[i].find(',', from);
        if (comma == std::string_view::npos) comma = tokens[i].size();
        const std::string_view digits = tokens[i].substr(from, comma - from);
        if (!AllDigits(digits)) return {};
        shape.push_back(*ParseScaledDecimal(digits, 0));
        from = comma + 1;
      }
      if (static_cast<int64_t>(shape.size()) != *rank) return {};
      ++i;
    }
    dims.push_back(std::move(shape));
  }
  if (dims.empty()) return std::nullopt;
  return OpInputsFromValues(dims);
}

// At most `limit` bytes of `text` for a message, bytes outside printable ASCII as '?'.
std::string Printable(std::string_view text, size_t limit) {
  std::string out;
  for (char c : text.substr(0, limit)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  if (text.size() > limit) out += "...";
  return out;
}

}  // namespace

bool IsTfjsDebugLine(std::string_view line) {
  const std::vector<std::string_view> fields = SplitTabs(line);
  return fields.size() >= 6 && Rank(Field(fields[2])).has_value() && AllDigits(Field(fields[3]));
}

DispatchList ReadTfjsDebugLog(std::string_view text) {
  DispatchList list;
  list.format_version = "TensorFlow.js DEBUG mode console log";
  list.host_track_name = "TensorFlow.js";
  list.synthetic_starts = true;
  uint64_t line_number = 0, untimed = 0, first_other_line = 0;
  std::string first_other, first_error;
  for (size_t from = 0; from < text.size();) {
    size_t end = text.find('\n', from);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(from, end - from);
    from = end + 1;
    ++line_number;
    if (Trim(line).empty()) continue;
    if (!IsTfjsDebugLine(line)) {
      if (++list.other == 1) {
        first_other = Printable(Trim(line), 60);
        first_other_line = line_number;
      }
      continue;
    }
    const std::vector<std::string_view> fields = SplitTabs(line);
    // The name is the text after the last "%c" of the first field (a console may put a source
    // location before it), or the whole field in a console saved without the "%c"s.
    std::string_view name = fields[0];
    if (const size_t c = name.rfind("%c"); c != std::string_view::npos) name = name.substr(c + 2);
    name = Trim(name);
    Dispatch d;
    d.kernel = name.empty() ? "(unnamed kernel)" : std::string(name);
    d.op = d.kernel;
    d.inputs = InputsFromDescription(Field(fields[4]));
    const std::string_view time = Field(fields[1]);
    std::optional<int64_t> ns;
    if (time.ends_with("ms")) ns = ParseScaledDecimal(Trim(time.substr(0, time.size() - 2)), 6);
    if (ns && *ns >= 0) {
      d.duration_ns = *ns;
    } else {  // tfjs prints the timer's error text instead of a time
      ++untimed;
      if (first_error.empty()) first_error = Printable(time, 120);
    }
    list.dispatches.push_back(std::move(d));
  }
  if (untimed > 0) {
    list.warnings.push_back(fmt::format(
        "{} of {} kernels have no time (\"{}\"): they count as kernels and ops but add nothing "
        "to kernel time",
        untimed, list.dispatches.size(), first_error));
  }
  if (list.other > 0) {
    list.metadata["other_console_lines"] = std::to_string(list.other);
    list.warnings.push_back(fmt::format(
        "{} console lines that are not TensorFlow.js DEBUG kernel lines skipped (the first, line "
        "{}: \"{}\")",
        list.other, first_other_line, first_other));
  }
  return list;
}

}  // namespace tensormorph::webgpu
