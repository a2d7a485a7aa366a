#include "import/common/op_inputs_json.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(OpInputsJson, ListsAreTypedAndTheirSpellingKept) {
  const OpInputs in = OpInputsFromLists("[[2048, 4096], [], [[1], [2, 3]], null]",
                                        R"(["c10::BFloat16", "Scalar", "TensorList", ""])",
                                        R"(["", "1", "", ""])", "[[4096, 1], [], [], []]");
  ASSERT_EQ(in.args.size(), 4u);
  EXPECT_TRUE(in.consistent);
  EXPECT_TRUE(in.has_types);
  EXPECT_TRUE(in.has_values);
  EXPECT_TRUE(in.has_strides);
  EXPECT_EQ(in.args[0].form, OpInput::DimsForm::kShape);
  EXPECT_EQ(in.args[0].dims, (std::vector<int64_t>{2048, 4096}));
  EXPECT_EQ(in.args[0].strides, (std::vector<int64_t>{4096, 1}));
  EXPECT_EQ(in.args[0].dtype, "c10::BFloat16");
  EXPECT_EQ(in.args[1].form, OpInput::DimsForm::kShape);
  EXPECT_TRUE(in.args[1].dims.empty());
  EXPECT_EQ(in.args[1].value, "1");
  EXPECT_EQ(in.args[2].form, OpInput::DimsForm::kOther);
  EXPECT_EQ(in.args[2].dims_json, "[[1],[2,3]]");
  EXPECT_EQ(in.args[3].form, OpInput::DimsForm::kNull);
  ASSERT_TRUE(in.spelling);
  EXPECT_EQ(in.spelling->dims, "[[2048, 4096], [], [[1], [2, 3]], null]");
  EXPECT_EQ(OpInputsText(in),
            R"({"dims": [[2048, 4096], [], [[1], [2, 3]], null], "types": ["c10::BFloat16", )"
            R"("Scalar", "TensorList", ""], "concrete": ["", "1", "", ""]})");
}

TEST(OpInputsJson, TheObjectIsSplitVerbatim) {
  const OpInputs in = OpInputsFromObjectText(
      R"({"dims": [[2048, 4096], [], [1]], "types": ["float", "", "Scalar"], "concrete": ["", "", "1"]})");
  ASSERT_TRUE(in.spelling);
  EXPECT_EQ(in.spelling->dims, "[[2048, 4096], [], [1]]");
  EXPECT_EQ(in.spelling->types, R"(["float", "", "Scalar"])");
  EXPECT_EQ(in.spelling->values, R"(["", "", "1"])");
  EXPECT_TRUE(in.consistent);
  EXPECT_EQ(in.args.size(), 3u);
}

TEST(OpInputsJson, BracketsAndCommasInsideStringsDoNotEndAValue) {
  const OpInputs in = OpInputsFromObjectText(R"({"dims":[[1]],"types":["a,]}\"b"]})");
  ASSERT_TRUE(in.spelling);
  EXPECT_EQ(in.spelling->dims, "[[1]]");
  EXPECT_EQ(in.spelling->types, R"(["a,]}\"b"])");
  EXPECT_EQ(in.spelling->values, "");
  EXPECT_EQ(in.args.at(0).dtype, "a,]}\"b");
}

TEST(OpInputsJson, TextThatIsNotAJsonObjectIsKeptWhole) {
  for (const char* text : {"{\"dims\": [[1, 2]", "[[1, 2]]", "{\"dims\": [\"\xFF\"]}"}) {
    const OpInputs in = OpInputsFromObjectText(text);
    ASSERT_TRUE(in.spelling) << text;
    EXPECT_FALSE(in.spelling->json) << text;
    EXPECT_EQ(in.spelling->dims, text);
    EXPECT_EQ(OpInputsText(in), text);
    EXPECT_FALSE(in.consistent) << text;
    EXPECT_TRUE(in.args.empty()) << text;
  }
}

TEST(OpInputsJson, ATraceThatDisagreesWithItselfIsMarked) {
  EXPECT_FALSE(OpInputsFromObjectText(R"({"dims": [[-1, 2]]})").consistent);
  EXPECT_FALSE(OpInputsFromObjectText(R"({"dims": [[1.5, 2]]})").consistent);
  EXPECT_FALSE(OpInputsFromObjectText(R"({"dims": [[1], [2]], "types": ["float"]})").consistent);
  EXPECT_FALSE(OpInputsFromObjectText(R"({"dims": [[1]], "concrete": [null]})").consistent);
  EXPECT_FALSE(OpInputsFromObjectText(R"({"types": ["float"]})").consistent);
  // A size beyond int64 is no shape, but not a contradiction either.
  const OpInputs big = OpInputsFromObjectText(R"({"dims": [[18446744073709551615]]})");
  EXPECT_TRUE(big.consistent);
  EXPECT_EQ(big.args.at(0).form, OpInput::DimsForm::kOther);
}

TEST(OpInputsJson, ValuesAreRenderedAsTheirCompactJson) {
  const nlohmann::json dims = nlohmann::json::parse("[[1,32,32,3],[3,3,3,8],[8],null,[1.5]]");
  const OpInputs in = OpInputsFromValues(dims);
  EXPECT_FALSE(in.spelling);
  EXPECT_EQ(OpInputsText(in), R"({"dims": )" + dims.dump() + "}");
}

TEST(OpInputsJson, EqualSetsShareAnId) {
  OpInputTable table;
  const OpInputsId a = table.Add(OpInputsFromLists("[[1, 2]]", R"(["float"])", ""));
  const OpInputsId b = table.Add(OpInputsFromLists("[[1, 2]]", R"(["float"])", ""));
  const OpInputsId c = table.Add(OpInputsFromLists("[[1,2]]", R"(["float"])", ""));
  EXPECT_EQ(a, 1u);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);  // spelled differently: exported differently
  EXPECT_EQ(table.size(), 2u);
  EXPECT_EQ(table.Find(0), nullptr);
  EXPECT_EQ(table.Find(3), nullptr);
  EXPECT_EQ(table.Find(c)->spelling->dims, "[[1,2]]");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
