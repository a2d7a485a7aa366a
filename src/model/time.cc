#include "model/time.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tensormorph {
namespace {

constexpr int64_t kMaxDigitsInt64 = 19;

bool IsDigit(char c) {
  return c >= '0' && c <= '9';
}

constexpr int64_t kPowersOfTen[] = {1, 10, 100, 1000, 10000, 100000, 1000000};

// The shape nearly every timestamp has ("1716923416123.456", "812"): unsigned digits with at most
// `scale` fraction digits, so no rounding. Anything else goes to the general parser.
std::optional<int64_t> ParsePlainDecimal(std::string_view text, int scale) {
  if (scale < 0 || scale > 6 || text.empty() || text.size() > 19) return std::nullopt;
  // Unsigned: 19 digits (no point) reach 9.99e18, beyond int64 but within uint64; those are
  // refused below, after the loop, without signed overflow on the way.
  uint64_t value = 0;
  int fraction_digits = -1;  // -1: no point seen
  for (char c : text) {
    if (IsDigit(c)) {
      value = value * 10 + static_cast<uint64_t>(c - '0');
      if (fraction_digits >= 0) ++fraction_digits;
    } else if (c == '.' && fraction_digits < 0) {
      fraction_digits = 0;
    } else {
      return std::nullopt;
    }
  }
  if (fraction_digits < 0 && text.size() > 18) return std::nullopt;  // 19 digits may overflow
  if (fraction_digits > scale || (fraction_digits == 0 && text.size() == 1)) return std::nullopt;
  int64_t result = 0;
  // At most 18 digits remain: value < 10^18 fits in int64.
  if (__builtin_mul_overflow(static_cast<int64_t>(value),
                             kPowersOfTen[scale - std::max(fraction_digits, 0)], &result)) {
    return std::nullopt;
  }
  return result;
}

}  // namespace

std::optional<int64_t> ParseScaledDecimal(std::string_view text, int scale) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\n' ||
                           text.back() == '\r')) {
    text.remove_suffix(1);
  }
  if (auto fast = ParsePlainDecimal(text, scale)) return fast;
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
    negative = text[pos] == '-';
    ++pos;
  }
  // Significant digits without the decimal point; `fraction_digits` of them follow the point.
  char digits[64];
  int digit_count = 0;
  int fraction_digits = 0;
  int dropped_integer_digits = 0;  // integer digits beyond our buffer (only zeros can matter)
  bool seen_point = false;
  bool any_digit = false;
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (IsDigit(c)) {
      any_digit = true;
      if (digit_count == 0 && c == '0') {  // leading zeros carry no value
        if (seen_point) ++fraction_digits;
        continue;
      }
      if (digit_count < static_cast<int>(sizeof(digits))) {
        digits[digit_count++] = c;
        if (seen_point) ++fraction_digits;
      } else if (!seen_point) {
        ++dropped_integer_digits;  // the number is far beyond int64 anyway
      }
    } else if (c == '.' && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (!any_digit) return std::nullopt;
  int exponent = 0;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    bool exponent_negative = false;
    if (pos < text.size() && (text[pos] == '-' || text[pos] == '+')) {
      exponent_negative = text[pos] == '-';
      ++pos;
    }
    if (pos >= text.size() || !IsDigit(text[pos])) return std::nullopt;
    for (; pos < text.size() && IsDigit(text[pos]); ++pos) {
      if (exponent > 100000) return std::nullopt;
      exponent = exponent * 10 + (text[pos] - '0');
    }
    if (exponent_negative) exponent = -exponent;
  }
  if (pos != text.size()) return std::nullopt;
  if (dropped_integer_digits > 0) return std::nullopt;

  // value = digits * 10^shift; the first `cut` digits form the integer part.
  const int64_t shift = static_cast<int64_t>(exponent) - fraction_digits + scale;
  const int64_t cut = digit_count + shift;
  if (cut > kMaxDigitsInt64 + 1) return std::nullopt;

  // Accumulate as unsigned so that INT64_MIN's magnitude fits.
  uint64_t magnitude = 0;
  auto push_digit = [&](int d) -> bool {
    if (magnitude > (UINT64_MAX - static_cast<uint64_t>(d)) / 10) return false;
    magnitude = magnitude * 10 + static_cast<uint64_t>(d);
    return true;
  };
  for (int64_t i = 0; i < cut; ++i) {
    if (!push_digit(i < digit_count ? digits[i] - '0' : 0)) return std::nullopt;
  }
  if (cut >= 0 && cut < digit_count && digits[cut] >= '5') {  // half away from zero
    if (magnitude == UINT64_MAX) return std::nullopt;
    ++magnitude;
  }
  const uint64_t limit = negative ? (static_cast<uint64_t>(INT64_MAX) + 1) : INT64_MAX;
  if (magnitude > limit) return std::nullopt;
  if (negative) return static_cast<int64_t>(0 - magnitude);
  return static_cast<int64_t>(magnitude);
}

std::string FormatDuration(double ns) {
  char buf[48];
  double a = std::fabs(ns);
  if (a < 999.5) {  // so that 999.6 ns prints as 1.000 us, not 1000 ns
    std::snprintf(buf, sizeof buf, "%.0f ns", ns);
  } else if (a < 999999.5) {
    std::snprintf(buf, sizeof buf, "%.3f us", ns / 1e3);
  } else if (a < 999999999.5) {
    std::snprintf(buf, sizeof buf, "%.3f ms", ns / 1e6);
  } else {
    std::snprintf(buf, sizeof buf, "%.3f s", ns / 1e9);
  }
  return buf;
}

}  // namespace tensormorph
