#include "export/native/json_text.h"

#include <gtest/gtest.h>

#include <limits>

namespace tensormorph::native {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

std::string Str(std::string_view text) {
  fmt::memory_buffer out;
  AppendJsonString(&out, text);
  return fmt::to_string(out);
}

std::string Num(double v) {
  fmt::memory_buffer out;
  AppendJsonDouble(&out, v);
  return fmt::to_string(out);
}

TEST(NativeJsonText, EscapesControlsQuotesAndBadUtf8) {
  EXPECT_EQ(Str("a\"b\\c\n\t\x01"), R"("a\"b\\c\n\t\u0001")");
  EXPECT_EQ(Str("caf\xC3\xA9"), "\"caf\xC3\xA9\"");
  EXPECT_EQ(Str("bad\xFF"), "\"bad\xEF\xBF\xBD\"");  // U+FFFD
}

TEST(NativeJsonText, DoublesRoundTripAndNonFiniteAreStrings) {
  EXPECT_EQ(Num(0.1), "0.1");
  EXPECT_EQ(Num(3.0), "3");
  EXPECT_EQ(Num(1e300), "1e+300");
  EXPECT_EQ(Num(std::numeric_limits<double>::quiet_NaN()), "\"NaN\"");
  EXPECT_EQ(Num(-std::numeric_limits<double>::infinity()), "\"-Infinity\"");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::native
