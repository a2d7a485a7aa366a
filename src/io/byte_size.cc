#include "io/byte_size.h"

#include <cctype>
#include <cstring>

namespace tensormorph {

std::optional<uint64_t> ParseByteSize(std::string text) {
  for (const char* suffix : {"ib", "iB", "IB", "b", "B"}) {
    if (text.size() > std::strlen(suffix) && text.ends_with(suffix) &&
        std::isalpha(static_cast<unsigned char>(text[text.size() - std::strlen(suffix) - 1]))) {
      text.resize(text.size() - std::strlen(suffix));
      break;
    }
  }
  int shift = 0;
  if (!text.empty()) {
    switch (std::toupper(static_cast<unsigned char>(text.back()))) {
      case 'K':
        shift = 10;
        break;
      case 'M':
        shift = 20;
        break;
      case 'G':
        shift = 30;
        break;
      case 'T':
        shift = 40;
        break;
      default:
        break;
    }
    if (shift > 0) text.pop_back();
  }
  if (text.empty() || text.size() > 15) return std::nullopt;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + static_cast<uint64_t>(c - '0');
  }
  if (shift > 0 && value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

}  // namespace tensormorph
