// Timestamps of rocprof-compute files, parsed exactly into integer ns. A spreadsheet that opened
// and saved a workload rewrites them in scientific notation with few significant digits
// ("8.1097E+14" in the MI300X_A1 fixture): such a value is kept as the integer it denotes, with
// the resolution its last digit stands for (1e10 ns there), never as if it were exact.
#pragma once

#include <cstdint>
#include <string_view>

namespace tensormorph::rocprof::compute {

struct ParsedTime {
  enum class Kind : uint8_t { kExact, kRounded, kUnreadable } kind = Kind::kUnreadable;
  int64_t ns = 0;
  int64_t resolution_ns = 1;  // kRounded: the step between values the text can express
};

// "1411551767635712" and "1411551767635712.0" are exact; "8.1097E+14" is rounded to 1e10 ns;
// anything else (negative, fractional ns, over 2^62) is unreadable.
ParsedTime ParseTime(std::string_view text);

}  // namespace tensormorph::rocprof::compute
