#include "model/time.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(ParseMicrosAsNanos, IntegerAndFractionalMicroseconds) {
  EXPECT_EQ(ParseMicrosAsNanos("1661203462598738"), 1661203462598738000);
  EXPECT_EQ(ParseMicrosAsNanos("4203669604595.407"), 4203669604595407);
  EXPECT_EQ(ParseMicrosAsNanos("0.5"), 500);
  EXPECT_EQ(ParseMicrosAsNanos("-1"), -1000);
  EXPECT_EQ(ParseMicrosAsNanos("+2.25"), 2250);
}

// An absolute epoch in µs with 3 decimals has 19 significant digits: a double would lose the ns.
TEST(ParseMicrosAsNanos, KeepsNanosecondsThatADoubleLoses) {
  EXPECT_EQ(ParseMicrosAsNanos("1712195495505543.213"), 1712195495505543213);
  EXPECT_NE(static_cast<int64_t>(1712195495505543.213 * 1000), 1712195495505543213);
}

TEST(ParseMicrosAsNanos, RoundsSubNanosecondDigitsHalfAwayFromZero) {
  EXPECT_EQ(ParseMicrosAsNanos("45356.5771"), 45356577);  // JAX writes picosecond precision
  EXPECT_EQ(ParseMicrosAsNanos("45356.5775"), 45356578);
  EXPECT_EQ(ParseMicrosAsNanos("-0.0005"), -1);
  EXPECT_EQ(ParseMicrosAsNanos("0.0004999"), 0);
}

TEST(ParseMicrosAsNanos, Exponents) {
  EXPECT_EQ(ParseMicrosAsNanos("1.5e3"), 1500000);
  EXPECT_EQ(ParseMicrosAsNanos("1716923416123456E-3"), 1716923416123456);
  EXPECT_EQ(ParseMicrosAsNanos("5e-4"), 1);
}

TEST(ParseMicrosAsNanos, RejectsMalformedAndOutOfRange) {
  for (const char* bad : {"", "-", ".", "abc", "1.2.3", "1e", "1e+", "NaN", "Infinity", "0x10",
                          "12 34", "1e300", "99999999999999999999", "-9999999999999999999"}) {
    EXPECT_FALSE(ParseMicrosAsNanos(bad).has_value()) << bad;
  }
  EXPECT_EQ(ParseScaledDecimal("9223372036854775807", 0), INT64_MAX);
  EXPECT_EQ(ParseScaledDecimal("-9223372036854775808", 0), INT64_MIN);
  EXPECT_FALSE(ParseScaledDecimal("9223372036854775808", 0).has_value());
}

TEST(ParseMicrosAsNanos, IgnoresTrailingWhitespaceOfRawTokens) {
  EXPECT_EQ(ParseMicrosAsNanos("12.5 \n"), 12500);
}

TEST(FormatDuration, PicksAUnit) {
  EXPECT_EQ(FormatDuration(812), "812 ns");
  EXPECT_EQ(FormatDuration(999.6), "1.000 us");
  EXPECT_EQ(FormatDuration(12345), "12.345 us");
  EXPECT_EQ(FormatDuration(4210000), "4.210 ms");
  EXPECT_EQ(FormatDuration(1.5e9), "1.500 s");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
