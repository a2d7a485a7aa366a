#include "export/native/json_text.h"

#include <simdjson.h>

#include <cmath>

#include "io/utf8.h"

namespace tensormorph::native {
namespace {

void AppendEscaped(fmt::memory_buffer* out, std::string_view text) {
  static constexpr char kHex[] = "0123456789abcdef";
  size_t plain_from = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(text.substr(plain_from, i - plain_from));
    plain_from = i + 1;
    switch (c) {
      case '"':
        out->append(std::string_view("\\\""));
        break;
      case '\\':
        out->append(std::string_view("\\\\"));
        break;
      case '\n':
        out->append(std::string_view("\\n"));
        break;
      case '\t':
        out->append(std::string_view("\\t"));
        break;
      case '\r':
        out->append(std::string_view("\\r"));
        break;
      default: {
        const char escape[] = {'\\', 'u', '0', '0', kHex[c >> 4], kHex[c & 15]};
        out->append(std::string_view(escape, sizeof escape));
      }
    }
  }
  out->append(text.substr(plain_from));
}

}  // namespace

void AppendJsonString(fmt::memory_buffer* out, std::string_view text) {
  out->push_back('"');
  if (simdjson::validate_utf8(text.data(), text.size())) {
    AppendEscaped(out, text);
  } else {
    size_t replaced = 0;
    AppendEscaped(out, RepairUtf8(text, &replaced));
  }
  out->push_back('"');
}

void AppendJsonDouble(fmt::memory_buffer* out, double value) {
  if (std::isnan(value)) {
    out->append(std::string_view("\"NaN\""));
  } else if (std::isinf(value)) {
    out->append(std::string_view(value > 0 ? "\"Infinity\"" : "\"-Infinity\""));
  } else {
    fmt::format_to(std::back_inserter(*out), "{}", value);
  }
}

}  // namespace tensormorph::native
