#include "io/utf8.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(RepairUtf8, KeepsValidText) {
  size_t replaced = 99;
  EXPECT_EQ(RepairUtf8("gemm \xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", &replaced),
            "gemm \xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80");
  EXPECT_EQ(replaced, 0u);
}

TEST(RepairUtf8, ReplacesEachBadByte) {
  size_t replaced = 0;
  // A lone continuation byte, a truncated 3-byte sequence, an overlong "/", a surrogate.
  EXPECT_EQ(RepairUtf8("a\x80"
                       "b\xE2\x82"
                       "c\xC0\xAF"
                       "d\xED\xA0\x80",
                       &replaced),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD\xEF\xBF\xBD"
            "c\xEF\xBF\xBD\xEF\xBF\xBD"
            "d\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(replaced, 8u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
