#include "import/native/native_importer.h"
#include "import/native/native_schema.h"

namespace tensormorph::native {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

}  // namespace

bool HasNativeSchema(std::string_view head) {
  constexpr std::string_view kKey = "\"schema\"";
  for (size_t at = head.find(kKey); at != std::string_view::npos;
       at = head.find(kKey, at + kKey.size())) {
    size_t i = at + kKey.size();
    while (i < head.size() && IsSpace(head[i])) ++i;
    if (i >= head.size() || head[i] != ':') continue;
    ++i;
    while (i < head.size() && IsSpace(head[i])) ++i;
    if (i < head.size() && head[i] == '"' && head.substr(i + 1).starts_with(kSchemaPrefix)) {
      return true;
    }
  }
  return false;
}

bool IsCompleteObject(std::string_view line) {
  size_t i = 0;
  while (i < line.size() && IsSpace(line[i])) ++i;
  if (i >= line.size() || line[i] != '{') return false;
  int64_t depth = 0;
  bool in_string = false, escaped = false;
  for (; i < line.size(); ++i) {
    const char c = line[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) break;
    }
  }
  if (i >= line.size()) return false;
  for (++i; i < line.size(); ++i) {
    if (!IsSpace(line[i])) return false;
  }
  return true;
}

int NativeImporter::Sniff(std::string_view head) const {
  if (head.empty() || head.front() != '{') return 0;
  return HasNativeSchema(head) ? 100 : 0;
}

}  // namespace tensormorph::native
