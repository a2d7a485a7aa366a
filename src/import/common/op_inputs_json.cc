#include "import/common/op_inputs_json.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>

namespace tensormorph {
namespace {

using nlohmann::json;

// A flat list of non-negative integers that fit in int64; anything else is not a shape.
std::optional<std::vector<int64_t>> ParseShape(const json& j) {
  if (!j.is_array()) return std::nullopt;
  std::vector<int64_t> s;
  s.reserve(j.size());
  for (const json& d : j) {
    if (d.is_number_unsigned()) {
      if (d.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
        return std::nullopt;
      }
      s.push_back(static_cast<int64_t>(d.get<uint64_t>()));
    } else if (d.is_number_integer()) {
      if (d.get<int64_t>() < 0) return std::nullopt;
      s.push_back(d.get<int64_t>());
    } else {
      return std::nullopt;
    }
  }
  return s;
}

// A negative or fractional dimension is never a real tensor: a list holding one is corrupt.
bool HasBadNumber(const json& j) {
  if (!j.is_array()) return false;
  for (const json& d : j) {
    if (d.is_number_integer() && !d.is_number_unsigned() && d.get<int64_t>() < 0) return true;
    if (d.is_number_float()) return true;
  }
  return false;
}

// A flat list of integers (strides), else nothing.
std::vector<int64_t> Integers(const json& j) {
  std::vector<int64_t> out;
  if (!j.is_array()) return out;
  for (const json& d : j) {
    if (d.is_number_unsigned() &&
        d.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      out.push_back(static_cast<int64_t>(d.get<uint64_t>()));
    } else if (d.is_number_integer() && !d.is_number_unsigned()) {
      out.push_back(d.get<int64_t>());
    } else {
      return {};
    }
  }
  return out;
}

std::string Compact(const json& j) {
  return j.dump(-1, ' ', false, json::error_handler_t::replace);
}

// Fills one string column ("types" or "concrete"); absent or null: not recorded. Present but not
// a list of strings as long as the dims: the trace disagrees with itself.
void ReadStrings(const json* list, std::string OpInput::*field, bool* present, OpInputs* out) {
  if (list == nullptr || list->is_null()) return;
  if (!list->is_array() || list->size() != out->args.size()) {
    out->consistent = false;
    return;
  }
  for (size_t i = 0; i < list->size(); ++i) {
    const json& v = (*list)[i];
    if (!v.is_string()) {
      out->consistent = false;
      return;
    }
    out->args[i].*field = v.get<std::string>();
  }
  *present = true;
}

void Fill(const json* dims, const json* types, const json* values, const json* strides,
          OpInputs* out) {
  if (dims == nullptr || !dims->is_array()) {
    out->consistent = false;
    return;
  }
  out->args.resize(dims->size());
  for (size_t i = 0; i < dims->size(); ++i) {
    const json& entry = (*dims)[i];
    OpInput& arg = out->args[i];
    if (HasBadNumber(entry)) out->consistent = false;
    if (std::optional<std::vector<int64_t>> shape = ParseShape(entry)) {
      arg.form = OpInput::DimsForm::kShape;
      arg.dims = std::move(*shape);
    } else if (entry.is_null()) {
      arg.form = OpInput::DimsForm::kNull;
    } else {
      arg.form = OpInput::DimsForm::kOther;
      arg.dims_json = Compact(entry);
    }
  }
  ReadStrings(types, &OpInput::dtype, &out->has_types, out);
  ReadStrings(values, &OpInput::value, &out->has_values, out);
  if (strides != nullptr && strides->is_array() && strides->size() == out->args.size()) {
    out->has_strides = true;
    for (size_t i = 0; i < strides->size(); ++i) out->args[i].strides = Integers((*strides)[i]);
  }
}

// Parses one list's text; nullopt when it is not JSON (a missing list is a null json).
std::optional<json> ParseList(std::string_view text) {
  if (text.empty()) return json();
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

bool IsSpace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

void SkipSpace(std::string_view text, size_t* i) {
  while (*i < text.size() && IsSpace(text[*i])) ++*i;
}

// From the opening quote at text[*i] to just past the closing one.
std::string_view ScanString(std::string_view text, size_t* i) {
  const size_t start = *i;
  ++*i;
  while (*i < text.size() && text[*i] != '"') *i += text[*i] == '\\' ? 2 : 1;
  ++*i;
  return text.substr(start, *i - start);
}

// A value starting at text[*i], up to the ',' or '}' that ends it at depth 0 (exclusive,
// trailing space trimmed). Only called on text that nlohmann accepted, so brackets balance.
std::string_view ScanValue(std::string_view text, size_t* i) {
  const size_t start = *i;
  int depth = 0;
  while (*i < text.size()) {
    const char c = text[*i];
    if (c == '"') {
      ScanString(text, i);
      continue;
    }
    if (c == '[' || c == '{') ++depth;
    if (c == ']' || c == '}') {
      if (depth == 0) break;
      --depth;
    }
    if (c == ',' && depth == 0) break;
    ++*i;
  }
  size_t end = *i;
  while (end > start && IsSpace(text[end - 1])) --end;
  return text.substr(start, end - start);
}

// The members' texts of an object that nlohmann accepted, byte for byte as written.
OpInputs::Spelling SplitObject(std::string_view text) {
  OpInputs::Spelling out;
  size_t i = 0;
  SkipSpace(text, &i);
  ++i;  // '{'
  while (true) {
    SkipSpace(text, &i);
    if (i >= text.size() || text[i] == '}') return out;
    if (text[i] == ',') {
      ++i;
      continue;
    }
    const std::string_view key = ScanString(text, &i);
    SkipSpace(text, &i);
    ++i;  // ':'
    SkipSpace(text, &i);
    const std::string_view value = ScanValue(text, &i);
    if (key == "\"dims\"") {
      out.dims = value;
    } else if (key == "\"types\"") {
      out.types = value;
    } else if (key == "\"concrete\"") {
      out.values = value;
    }
  }
}

OpInputs NotJson(std::string text) {
  OpInputs out;
  out.consistent = false;
  out.spelling = OpInputs::Spelling{std::move(text), "", "", /*json=*/false};
  return out;
}

const json* Member(const json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

}  // namespace

OpInputs OpInputsFromLists(std::string_view dims, std::string_view types, std::string_view values,
                           std::string_view strides) {
  std::optional<json> d = ParseList(dims), t = ParseList(types), v = ParseList(values);
  if (!d || !t || !v) {
    // As the model kept it before the table: the three lists in one object, which is not JSON.
    std::string whole = "{\"dims\": ";
    whole.append(dims);
    if (!types.empty()) whole.append(", \"types\": ").append(types);
    if (!values.empty()) whole.append(", \"concrete\": ").append(values);
    whole.push_back('}');
    return NotJson(std::move(whole));
  }
  OpInputs out;
  out.spelling = OpInputs::Spelling{std::string(dims), std::string(types), std::string(values)};
  std::optional<json> s = ParseList(strides);
  Fill(dims.empty() ? nullptr : &*d, types.empty() ? nullptr : &*t, values.empty() ? nullptr : &*v,
       s && !strides.empty() ? &*s : nullptr, &out);
  return out;
}

OpInputs OpInputsFromObjectText(std::string_view text) {
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return NotJson(std::string(text));
  OpInputs out;
  out.spelling = SplitObject(text);
  Fill(Member(root, "dims"), Member(root, "types"), Member(root, "concrete"), nullptr, &out);
  return out;
}

OpInputs OpInputsFromValues(const json& dims, const json* types) {
  OpInputs out;
  Fill(&dims, types, nullptr, nullptr, &out);
  return out;
}

}  // namespace tensormorph
