#include "export/chrome_json/slice_inputs.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "import/common/op_inputs_json.h"

namespace tensormorph::chrome_json {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(ChromeJsonSliceInputs, WritesTheListsAsTheSourceSpelledThem) {
  const OpInputs inputs = OpInputsFromLists("[[2048, 4096], [], [1]]", R"(["float", "", "Scalar"])",
                                            R"(["", "", "1"])");
  EXPECT_EQ(InputArgs(inputs),
            R"(,"Input Dims":[[2048, 4096], [], [1]],"Input type":["float", "", "Scalar"])"
            R"(,"Concrete Inputs":["", "", "1"])");
}

TEST(ChromeJsonSliceInputs, WritesListsBuiltFromValuesAsCompactJson) {
  const nlohmann::json dims = nlohmann::json::parse("[[1, 3, 8, 8], null, [[2], [3]]]");
  const nlohmann::json types = nlohmann::json::parse(R"(["float32", "", "a\"b"])");
  EXPECT_EQ(InputArgs(OpInputsFromValues(dims, &types)),
            R"(,"Input Dims":[[1,3,8,8],null,[[2],[3]]],"Input type":["float32","","a\"b"])");
  EXPECT_EQ(InputArgs(OpInputsFromValues(dims)), R"(,"Input Dims":[[1,3,8,8],null,[[2],[3]]])");
}

TEST(ChromeJsonSliceInputs, TextThatIsNotJsonIsWrittenAsAString) {
  EXPECT_EQ(InputArgs(OpInputsFromLists("[[2, 3], None]", "", "")),
            R"(,"Inputs":"{\"dims\": [[2, 3], None]}")");
  EXPECT_EQ(InputArgs(OpInputsFromObjectText("[[1, 2]]")), R"(,"Inputs":"[[1, 2]]")");
  EXPECT_EQ(InputArgs(OpInputsFromObjectText("{}")), "");  // an object without lists: nothing
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::chrome_json
