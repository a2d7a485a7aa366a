#include "export/chrome_json/slice_inputs.h"

#include <nlohmann/json.hpp>

namespace tensormorph::chrome_json {
namespace {

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

}  // namespace

bool SplitSliceInputs(std::string_view text, SliceInputs* out) {
  *out = {};
  if (!nlohmann::json::accept(text)) return false;
  size_t i = 0;
  SkipSpace(text, &i);
  if (i >= text.size() || text[i] != '{') return false;
  ++i;
  while (true) {
    SkipSpace(text, &i);
    if (i >= text.size() || text[i] == '}') return true;
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
      out->dims = value;
    } else if (key == "\"types\"") {
      out->types = value;
    } else if (key == "\"concrete\"") {
      out->concrete = value;
    }
  }
}

}  // namespace tensormorph::chrome_json
