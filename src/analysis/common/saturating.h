// Sums of durations and sizes read from untrusted files saturate instead of overflowing (which is
// undefined behaviour): a corrupt value shows as a huge total, never as a crash or a wrapped sign.
#pragma once

#include <cstdint>

namespace tensormorph {

// a + b, or the int64 bound in b's direction when that overflows.
inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? INT64_MAX : INT64_MIN;
}

}  // namespace tensormorph
