#include "export/chrome_json/slice_inputs.h"

#include <gtest/gtest.h>

namespace tensormorph::chrome_json {
namespace {

TEST(ChromeJsonSliceInputs, SplitsTheMembersVerbatim) {
  SliceInputs parts;
  ASSERT_TRUE(SplitSliceInputs(
      R"({"dims": [[2048, 4096], [], [1]], "types": ["float", "", "Scalar"], "concrete": ["", "", "1"]})",
      &parts));
  EXPECT_EQ(parts.dims, "[[2048, 4096], [], [1]]");
  EXPECT_EQ(parts.types, R"(["float", "", "Scalar"])");
  EXPECT_EQ(parts.concrete, R"(["", "", "1"])");
}

TEST(ChromeJsonSliceInputs, BracketsAndCommasInsideStringsDoNotEndAValue) {
  SliceInputs parts;
  ASSERT_TRUE(SplitSliceInputs(R"({"dims":[[1]],"types":["a,]}\"b"]})", &parts));
  EXPECT_EQ(parts.dims, "[[1]]");
  EXPECT_EQ(parts.types, R"(["a,]}\"b"])");
  EXPECT_EQ(parts.concrete, "");
}

TEST(ChromeJsonSliceInputs, RejectsTextThatIsNotAJsonObject) {
  SliceInputs parts;
  EXPECT_FALSE(SplitSliceInputs("{\"dims\": [[1, 2]", &parts));      // truncated
  EXPECT_FALSE(SplitSliceInputs("[[1, 2]]", &parts));                // not an object
  EXPECT_FALSE(SplitSliceInputs("{\"dims\": [\"\xFF\"]}", &parts));  // invalid UTF-8
}

}  // namespace
}  // namespace tensormorph::chrome_json
