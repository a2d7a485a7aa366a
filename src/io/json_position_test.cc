#include "io/json_position.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(JsonPosition, FindsNestedValuesByPointer) {
  const std::string text = "{\"a\": [1, {\"b~/c\": 22}, [3]],\n \"d\": \"x\"}";
  EXPECT_EQ(OffsetOfJsonValue(text, ""), 0u);
  EXPECT_EQ(OffsetOfJsonValue(text, "/a"), 6u);
  EXPECT_EQ(OffsetOfJsonValue(text, "/a/0"), 7u);
  EXPECT_EQ(OffsetOfJsonValue(text, "/a/1"), 10u);
  EXPECT_EQ(OffsetOfJsonValue(text, "/a/1/b~0~1c"), 19u);
  EXPECT_EQ(OffsetOfJsonValue(text, "/a/2/0"), 25u);
  EXPECT_EQ(OffsetOfJsonValue(text, "/d"), 36u);
  EXPECT_EQ(OffsetOfJsonValue(text, "/nothing"), SourcePosition::kNoOffset);
  const SourcePosition p = PositionInText(text, 36);
  EXPECT_EQ(p.line, 2u);
  EXPECT_EQ(p.column, 7u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
