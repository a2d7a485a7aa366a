// Timestamps are int64 nanoseconds everywhere. Trace formats write microseconds as decimal text
// ("1716923416123.456", "45356.5771", "1.7e15"); these helpers convert that text exactly, without
// passing through a double (a double keeps ~16 significant digits; epoch µs with 3 decimals need
// 19).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tensormorph {

// Returns the decimal number in `text` multiplied by 10^scale, rounded half away from zero.
// Accepts an optional sign, digits with an optional fraction and an optional exponent (e/E).
// Returns nullopt for malformed text or a result outside int64.
std::optional<int64_t> ParseScaledDecimal(std::string_view text, int scale);

// Microseconds as decimal text -> integer nanoseconds (the Chrome trace unit for ts and dur).
inline std::optional<int64_t> ParseMicrosAsNanos(std::string_view text) {
  return ParseScaledDecimal(text, 3);
}

// Formats a duration for people: "812 ns", "12.350 us", "4.210 ms", "1.502 s".
std::string FormatDuration(double nanoseconds);

}  // namespace tensormorph
