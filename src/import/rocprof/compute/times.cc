#include "import/rocprof/compute/times.h"

#include <charconv>

#include "import/rocprof/common/columns.h"

namespace tensormorph::rocprof::compute {
namespace {

constexpr int64_t kMaxNs = int64_t{1} << 62;

bool AllDigits(std::string_view text, bool allow_empty) {
  if (text.empty()) return allow_empty;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

}  // namespace

ParsedTime ParseTime(std::string_view text) {
  ParsedTime out;
  // Exact: an integer, optionally with a fraction of zeros (rocprofv3 writes floats).
  const size_t dot = text.find('.');
  const size_t e = text.find_first_of("eE");
  if (e == std::string_view::npos) {
    std::string_view whole = text.substr(0, dot);
    if (dot != std::string_view::npos &&
        text.substr(dot + 1).find_first_not_of('0') != std::string_view::npos) {
      return out;  // fractional nanoseconds
    }
    std::optional<int64_t> v = ParseTimestamp(whole);
    if (!v) return out;
    out.kind = ParsedTime::Kind::kExact;
    out.ns = *v;
    return out;
  }
  // Scientific: <digits>[.<digits>]E[+]<digits>, the value mantissa x 10^exponent.
  std::string_view mantissa = text.substr(0, e);
  std::string_view exponent = text.substr(e + 1);
  if (!exponent.empty() && exponent.front() == '+') exponent.remove_prefix(1);
  const size_t mdot = mantissa.find('.');
  std::string_view int_part = mantissa.substr(0, mdot);
  std::string_view frac_part =
      mdot == std::string_view::npos ? std::string_view() : mantissa.substr(mdot + 1);
  if (!AllDigits(int_part, false) || !AllDigits(frac_part, true) || !AllDigits(exponent, false) ||
      exponent.size() > 2) {
    return out;
  }
  int exp = 0;
  std::from_chars(exponent.data(), exponent.data() + exponent.size(), exp);
  const int scale = exp - static_cast<int>(frac_part.size());
  if (scale < 0 || int_part.size() + frac_part.size() > 18) return out;
  int64_t digits = 0;
  for (char c : int_part) digits = digits * 10 + (c - '0');
  for (char c : frac_part) digits = digits * 10 + (c - '0');
  int64_t step = 1;
  for (int i = 0; i < scale; ++i) {
    if (step > kMaxNs / 10) return out;
    step *= 10;
  }
  if (digits > kMaxNs / step) return out;
  out.ns = digits * step;
  out.resolution_ns = step;
  out.kind = step == 1 ? ParsedTime::Kind::kExact : ParsedTime::Kind::kRounded;
  return out;
}

}  // namespace tensormorph::rocprof::compute
