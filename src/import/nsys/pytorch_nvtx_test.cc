#include "import/nsys/pytorch_nvtx.h"

#include <gtest/gtest.h>

namespace tensormorph::nsys {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(PytorchNvtxRange, ReadsTheEmitNvtxForms) {
  // As in nsysai_h100_2gpu_1s_2026.2.sqlite's NVTX_EVENTS.text.
  auto plain = ParsePytorchNvtxRange("aten::view, op_id = 314290");
  ASSERT_TRUE(plain);
  EXPECT_EQ(plain->name, "aten::view");
  EXPECT_EQ(plain->op_id, 314290);
  EXPECT_EQ(plain->sizes, "");
  // With seq and record_shapes (torch/csrc/profiler's NVTX string: seq, op_id, sizes, inputs).
  auto shaped = ParsePytorchNvtxRange(
      "aten::mm, seq = 12, op_id = 40, sizes = [[128, 64], [64, 32]], input_op_ids = [(38,0)]");
  ASSERT_TRUE(shaped);
  EXPECT_EQ(shaped->name, "aten::mm");
  EXPECT_EQ(shaped->op_id, 40);
  EXPECT_EQ(shaped->sizes, "[[128, 64], [64, 32]]");
}

TEST(PytorchNvtxRange, LeavesOtherRangesAlone) {
  EXPECT_FALSE(ParsePytorchNvtxRange("forward"));
  EXPECT_FALSE(ParsePytorchNvtxRange("epoch 3, step 7"));
  EXPECT_FALSE(ParsePytorchNvtxRange(", op_id = 3"));
  EXPECT_FALSE(ParsePytorchNvtxRange("x, op_id = nope"));
  auto unbalanced = ParsePytorchNvtxRange("aten::mm, op_id = 1, sizes = [[2, 3]");
  ASSERT_TRUE(unbalanced);
  EXPECT_EQ(unbalanced->sizes, "");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::nsys
