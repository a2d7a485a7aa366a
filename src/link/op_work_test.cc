#include "tensormorph/link/op_work.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <string_view>

#include "import/common/op_inputs_json.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// The op's arguments as the native format spells them ({"dims": ..., "types": ..., "concrete":
// ...}), read into the model's table the way the importers read them.
std::optional<OpWork> Estimate(std::string_view op_name, std::string_view inputs_json) {
  return EstimateOpWork(op_name, OpInputsFromObjectText(inputs_json));
}

// Real events are quoted from the shared Kineto traces (name, Input Dims, Input type, Concrete
// Inputs); every expected number is computed by hand from the formula in the comment.

TEST(OpWorkMatmul, MmFromHtaControlTrace) {
  // hta/trace_diff/control.json.gz: aten::mm [[1024, 512], [512, 9375]] ["float", "float"]
  auto w = Estimate("aten::mm", R"({"dims": [[1024, 512], [512, 9375]],
                                          "types": ["float", "float"]})");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->flops, 2.0 * 1024 * 9375 * 512);  // 9,830,400,000
  // (1024*512 + 512*9375 + 1024*9375) * 4 bytes
  EXPECT_DOUBLE_EQ(w->bytes, 59697152);
  EXPECT_EQ(w->precision, Precision::kFp32);
  EXPECT_EQ(w->formula, "2*M*N*K (M=1024, N=9375, K=512)");
}

TEST(OpWorkMatmul, AddmmFromHtaControlTrace) {
  // aten::addmm [[512], [1024, 64], [64, 512], [], []] ["float", "float", "float", "Scalar",
  // "Scalar"]: bias [512] is read once, like the two matrices.
  auto w = Estimate("aten::addmm", R"({"dims": [[512], [1024, 64], [64, 512], [], []],
      "types": ["float", "float", "float", "Scalar", "Scalar"]})");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->flops, 67108864);                              // 2*1024*512*64
  EXPECT_DOUBLE_EQ(w->bytes, (512 + 65536 + 32768 + 524288) * 4.0);  // bias, A, B, out
  EXPECT_EQ(w->precision, Precision::kFp32);
}

TEST(OpWorkMatmul, BmmFromHtaControlTrace) {
  // aten::bmm [[1024, 647, 30], [1024, 30, 96]] ["float", "float"]
  auto w = Estimate("aten::bmm", R"({"dims": [[1024, 647, 30], [1024, 30, 96]],
                                           "types": ["float", "float"]})");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->flops, 3816161280);  // 2*1024*647*96*30
  EXPECT_DOUBLE_EQ(w->bytes, 345710592);   // (1024*647*30 + 1024*30*96 + 1024*647*96) * 4
  EXPECT_EQ(w->formula, "2*B*M*N*K (B=1024, M=647, N=96, K=30)");
}

TEST(OpWorkMatmul, LinearMatmulAndMmAgreeOnTheSameProduct) {
  // The control trace records one product at three levels: aten::linear [[1024, 96, 50], [15, 50],
  // [15]], aten::matmul [[1024, 96, 50], [50, 15]] and aten::mm [[98304, 50], [50, 15]].
  const double expected = 2.0 * 98304 * 15 * 50;  // 147,456,000
  auto linear = Estimate("aten::linear", R"({"dims": [[1024, 96, 50], [15, 50], [15]],
      "types": ["float", "float", "float"]})");
  auto matmul = Estimate("aten::matmul", R"({"dims": [[1024, 96, 50], [50, 15]],
      "types": ["float", "float"]})");
  auto mm = Estimate("aten::mm", R"({"dims": [[98304, 50], [50, 15]],
      "types": ["float", "float"]})");
  ASSERT_TRUE(linear && matmul && mm);
  EXPECT_DOUBLE_EQ(linear->flops, expected);
  EXPECT_DOUBLE_EQ(matmul->flops, expected);
  EXPECT_DOUBLE_EQ(mm->flops, expected);
  // linear also reads the bias [15]; output [1024, 96, 15].
  EXPECT_DOUBLE_EQ(linear->bytes, (4915200 + 750 + 15 + 1474560) * 4.0);
  EXPECT_DOUBLE_EQ(matmul->bytes, (4915200 + 750 + 1474560) * 4.0);
  EXPECT_EQ(matmul->formula, "2*batch*M*N*K (batch=[1024]=1024, M=96, N=15, K=50)");
}

TEST(OpWorkMatmul, Mi250MiniToyTrace) {
  // hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz, all 2*5*128*128 = 163,840 FLOPs:
  // aten::addmm [[128], [5, 128], [128, 128], [], []] concrete ["", "", "", "1", "1"]
  auto addmm = Estimate("aten::addmm", R"({"dims": [[128], [5, 128], [128, 128], [], []],
      "types": ["float", "float", "float", "Scalar", "Scalar"],
      "concrete": ["", "", "", "1", "1"]})");
  // aten::linear [[5, 128], [128, 128], [128]] concrete ["", "", ""]
  auto linear = Estimate("aten::linear", R"({"dims": [[5, 128], [128, 128], [128]],
      "types": ["float", "float", "float"], "concrete": ["", "", ""]})");
  // aten::mm [[128, 5], [5, 128]] (the weight gradient in the backward pass)
  auto mm = Estimate("aten::mm", R"({"dims": [[128, 5], [5, 128]],
      "types": ["float", "float"], "concrete": ["", ""]})");
  ASSERT_TRUE(addmm && linear && mm);
  EXPECT_DOUBLE_EQ(addmm->flops, 163840);
  EXPECT_DOUBLE_EQ(linear->flops, 163840);
  EXPECT_DOUBLE_EQ(mm->flops, 163840);
  EXPECT_DOUBLE_EQ(addmm->bytes, linear->bytes);  // same tensors either way
}

TEST(OpWorkMatmul, TorchCompileMmWithOutTensorCountsOutputOnce) {
  // tracelens/rocm_torch_compile_triton.json.gz: aten::mm [[32768, 2048], [2048, 8192],
  // [32768, 8192]] ["c10::BFloat16" x3] concrete ["", "", ""]; the third is the out= tensor.
  auto w = Estimate("aten::mm", R"({"dims": [[32768, 2048], [2048, 8192], [32768, 8192]],
      "types": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"], "concrete": ["", "", ""]})");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->flops, 1099511627776.0);  // 2 * 2^15 * 2^13 * 2^11 = 2^40
  EXPECT_DOUBLE_EQ(w->bytes, 704643072);        // (2^26 + 2^24 + 2^28) elements * 2 bytes
  EXPECT_EQ(w->precision, Precision::kBf16);
}

TEST(OpWorkMatmul, MatmulBroadcastingAndVectors) {
  auto dot = Estimate("aten::matmul", R"({"dims": [[7], [7]]})");
  ASSERT_TRUE(dot);
  EXPECT_DOUBLE_EQ(dot->flops, 14);
  auto mv = Estimate("aten::matmul", R"({"dims": [[5, 7], [7]], "types": ["float", "float"]})");
  ASSERT_TRUE(mv);
  EXPECT_DOUBLE_EQ(mv->flops, 70);
  EXPECT_DOUBLE_EQ(mv->bytes, (35 + 7 + 5) * 4.0);  // output [5]
  auto vm = Estimate("aten::matmul", R"({"dims": [[7], [2, 7, 3]], "types": ["float", "float"]})");
  ASSERT_TRUE(vm);
  EXPECT_DOUBLE_EQ(vm->flops, 2.0 * 2 * 3 * 7);
  EXPECT_DOUBLE_EQ(vm->bytes, (7 + 42 + 6) * 4.0);  // output [2, 3]
  // [2, 1, 5, 4] x [3, 4, 7]: batch broadcasts to [2, 3].
  auto bc = Estimate("aten::matmul", R"({"dims": [[2, 1, 5, 4], [3, 4, 7]]})");
  ASSERT_TRUE(bc);
  EXPECT_DOUBLE_EQ(bc->flops, 2.0 * 6 * 5 * 7 * 4);
  EXPECT_FALSE(Estimate("aten::matmul", R"({"dims": [[2, 5, 4], [3, 4, 7]]})"));
  EXPECT_FALSE(Estimate("aten::matmul", R"({"dims": [[5, 4], [5, 7]]})"));
}

TEST(OpWorkMatmul, InconsistentShapesGiveNothing) {
  EXPECT_FALSE(Estimate("aten::mm", R"({"dims": [[1024, 512], [511, 9375]]})"));
  EXPECT_FALSE(Estimate("aten::mm", R"({"dims": [[1024, 512, 1], [512, 9375]]})"));
  EXPECT_FALSE(Estimate("aten::mm", R"({"dims": [[1024, 512]]})"));
  EXPECT_FALSE(Estimate("aten::bmm", R"({"dims": [[8, 4, 5], [9, 5, 6]]})"));
  // addmm bias [3] cannot broadcast to [4, 6].
  EXPECT_FALSE(Estimate("aten::addmm", R"({"dims": [[3], [4, 5], [5, 6], [], []]})"));
  EXPECT_FALSE(Estimate("aten::linear", R"({"dims": [[4, 5], [6, 4], [6]]})"));
  // A "Scalar" where a tensor must be.
  EXPECT_FALSE(Estimate("aten::mm", R"({"dims": [[4, 5], [5, 6]],
                                            "types": ["float", "Scalar"]})"));
}

TEST(OpWorkAttention, FlashSdpaFromTorchCompileTrace) {
  // aten::_scaled_dot_product_flash_attention [[8, 16, 4096, 128] x3, [], [], [], []]
  // ["c10::BFloat16" x3, "Scalar" x4] concrete ["", "", "", "0.", "False", "False", "0.0883..."]
  auto w = Estimate("aten::_scaled_dot_product_flash_attention",
                    R"({"dims": [[8, 16, 4096, 128], [8, 16, 4096, 128], [8, 16, 4096, 128],
                                       [], [], [], []],
      "types": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar", "Scalar",
                "Scalar"],
      "concrete": ["", "", "", "0.", "False", "False", "0.088388347648318433"]})");
  ASSERT_TRUE(w.has_value());
  // 2*B*H*Lq*Lk*D + 2*B*H*Lq*Lk*Dv = 4 * 8 * 16 * 4096^2 * 128 = 2^40
  EXPECT_DOUBLE_EQ(w->flops, 1099511627776.0);
  EXPECT_DOUBLE_EQ(w->bytes, 536870912);  // q, k, v, out: 4 * 2^26 elements * 2 bytes
  EXPECT_EQ(w->precision, Precision::kBf16);
  EXPECT_EQ(w->formula,
            "2*B*H*Lq*Lk*D + 2*B*H*Lq*Lk*Dv (B=8, H=16, Lq=4096, Lk=4096, D=128, Dv=128)");
}

TEST(OpWorkAttention, FlashForwardReadsBatchSeqHeadDim) {
  // The same call one level down: aten::_flash_attention_forward [[8, 4096, 16, 128] x3, [] x12]
  // types ["c10::BFloat16" x3, "", "", "Scalar" x6, "", "", "", ""]: [B, L, H, D], so the same
  // 2^40 (read as [B, H, L, D] it would be 4*8*4096*16*16*128 = 2^36).
  auto w = Estimate("aten::_flash_attention_forward",
                    R"({"dims": [[8, 4096, 16, 128], [8, 4096, 16, 128], [8, 4096, 16, 128],
                                       [], [], [], [], [], [], [], [], [], [], [], []],
      "types": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "", "Scalar", "Scalar",
                "Scalar", "Scalar", "Scalar", "Scalar", "", "", "", ""],
      "concrete": ["", "", "", "", "", "4096", "4096", "0.", "False", "False",
                   "0.088388347648318433", "", "", "", ""]})");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->flops, 1099511627776.0);
  EXPECT_DOUBLE_EQ(w->bytes, 536870912);
  EXPECT_EQ(w->formula,
            "2*B*H*Lq*Lk*D + 2*B*H*Lq*Lk*Dv (B=8, H=16, Lq=4096, Lk=4096, D=128, Dv=128)");
}

TEST(OpWorkAttention, GroupedQueryAndRejections) {
  // 32 query heads sharing 8 K/V heads: counted per query head.
  auto gqa = Estimate("aten::scaled_dot_product_attention",
                      R"({"dims": [[2, 32, 128, 64], [2, 8, 128, 64], [2, 8, 128, 64]]})");
  ASSERT_TRUE(gqa);
  EXPECT_DOUBLE_EQ(gqa->flops, 268435456);  // 2*2*32*128*128*64 * 2
  EXPECT_EQ(gqa->bytes, 0);                 // no types: bytes unknown, and the formula says so
  EXPECT_NE(gqa->formula.find("bytes unknown"), std::string::npos);
  EXPECT_EQ(gqa->precision, Precision::kUnknown);
  // 32 query heads cannot share 12 K/V heads.
  EXPECT_FALSE(Estimate("aten::scaled_dot_product_attention",
                        R"({"dims": [[2, 32, 128, 64], [2, 12, 128, 64], [2, 12, 128, 64]]})"));
  // Head dim of q and k differ.
  EXPECT_FALSE(Estimate("aten::_scaled_dot_product_efficient_attention",
                        R"({"dims": [[2, 8, 128, 64], [2, 8, 128, 32], [2, 8, 128, 64]]})"));
  // Variable-length flash attention ([total, H, D] plus cum_seq_q) needs offsets we do not have.
  EXPECT_FALSE(Estimate("aten::_flash_attention_forward",
                        R"({"dims": [[1000, 16, 128], [1000, 16, 128], [1000, 16, 128],
                                           [9], [9]],
      "types": ["c10::Half", "c10::Half", "c10::Half", "int", "int"]})"));
}

// ResNet-50's first convolution: x [32, 3, 224, 224], w [64, 3, 7, 7], stride 2, padding 3 ->
// out [32, 64, 112, 112]; 112*112*64*3*49 = 118,013,952 MACs per image, the published figure.
constexpr double kResnetConv1Flops = 2.0 * 32 * 118013952;               // 7,552,892,928
constexpr double kResnetConv1Bytes = (4816896.0 + 9408 + 25690112) * 4;  // x, w, out (float)

TEST(OpWorkConv, ConvolutionWithConcreteInputs) {
  // convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
  auto w = Estimate("aten::convolution",
                    R"({"dims": [[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []],
      "types": ["float", "float", "", "GenericList", "GenericList", "GenericList", "Scalar",
                "GenericList", "Scalar"],
      "concrete": ["", "", "", "[2, 2]", "[3, 3]", "[1, 1]", "False", "[0, 0]", "1"]})");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->flops, kResnetConv1Flops);
  EXPECT_DOUBLE_EQ(w->bytes, kResnetConv1Bytes);
  EXPECT_EQ(w->formula,
            "2*N*Cout*prod(out)*(Cin/groups)*prod(kernel) (N=32, Cout=64, out=[112, 112], "
            "Cin/groups=3, kernel=[7, 7])");
  // Without "Concrete Inputs" the output size is unknown: nothing.
  EXPECT_FALSE(
      Estimate("aten::convolution",
               R"({"dims": [[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []]})"));
}

TEST(OpWorkConv, CudnnAndMiopenArgumentOrders) {
  // cudnn_convolution(self, weight, padding, stride, dilation, groups, benchmark, deterministic,
  // allow_tf32): padding comes before stride. Swapped, the output would be 74x74, not 112x112.
  auto cudnn = Estimate("aten::cudnn_convolution",
                        R"({"dims": [[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []],
      "types": ["float", "float", "GenericList", "GenericList", "GenericList", "Scalar", "Scalar",
                "Scalar", "Scalar"],
      "concrete": ["", "", "[3, 3]", "[2, 2]", "[1, 1]", "1", "False", "False", "True"]})");
  ASSERT_TRUE(cudnn);
  EXPECT_DOUBLE_EQ(cudnn->flops, kResnetConv1Flops);
  // miopen_convolution(self, weight, bias?, padding, stride, dilation, groups, benchmark,
  // deterministic), here with a bias [64] that is read too.
  auto miopen =
      Estimate("aten::miopen_convolution",
               R"({"dims": [[32, 3, 224, 224], [64, 3, 7, 7], [64], [], [], [], [], [], []],
      "types": ["float", "float", "float", "GenericList", "GenericList", "GenericList", "Scalar",
                "Scalar", "Scalar"],
      "concrete": ["", "", "", "[3, 3]", "[2, 2]", "[1, 1]", "1", "False", "False"]})");
  ASSERT_TRUE(miopen);
  EXPECT_DOUBLE_EQ(miopen->flops, kResnetConv1Flops);
  EXPECT_DOUBLE_EQ(miopen->bytes, kResnetConv1Bytes + 64 * 4);
}

TEST(OpWorkConv, DepthwiseSameAndTransposed) {
  // Depthwise conv2d(input, weight, bias, stride, padding, dilation, groups): w [32, 1, 3, 3],
  // 32 groups, padding 1 keeps 56x56: 2*8*32*56*56*1*9.
  auto dw = Estimate("aten::conv2d",
                     R"({"dims": [[8, 32, 56, 56], [32, 1, 3, 3], [], [], [], [], []],
      "types": ["c10::Half", "c10::Half", "", "GenericList", "GenericList", "GenericList", "Scalar"],
      "concrete": ["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "32"]})");
  ASSERT_TRUE(dw);
  EXPECT_DOUBLE_EQ(dw->flops, 14450688);
  EXPECT_EQ(dw->precision, Precision::kFp16);
  // padding="same" gives the same output; with groups 1 the weight would not fit 32 channels.
  auto same = Estimate("aten::conv2d",
                       R"({"dims": [[8, 32, 56, 56], [32, 1, 3, 3], [], [], [], [], []],
      "concrete": ["", "", "", "1", "same", "1", "32"]})");
  ASSERT_TRUE(same);
  EXPECT_DOUBLE_EQ(same->flops, 14450688);
  EXPECT_FALSE(Estimate("aten::conv2d",
                        R"({"dims": [[8, 32, 56, 56], [32, 1, 3, 3], [], [], [], [], []],
      "concrete": ["", "", "", "1", "1", "1", "1"]})"));
  // Transposed: x [1, 16, 8, 8], w [16, 8, 4, 4], stride 2, padding 1 -> out [1, 8, 16, 16];
  // torch counts input points: 2 * 1 * 64 * 16 * 8 * 16.
  auto tr = Estimate("aten::convolution",
                     R"({"dims": [[1, 16, 8, 8], [16, 8, 4, 4], [], [], [], [], [], [], []],
      "types": ["float", "float", "", "", "", "", "", "", ""],
      "concrete": ["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "True", "[0, 0]", "1"]})");
  ASSERT_TRUE(tr);
  EXPECT_DOUBLE_EQ(tr->flops, 262144);
  EXPECT_DOUBLE_EQ(tr->bytes, (1024 + 2048 + 2048) * 4.0);  // x, w, out [1, 8, 16, 16]
  // A kernel larger than the padded input has no output.
  EXPECT_FALSE(Estimate("aten::conv1d", R"({"dims": [[1, 4, 3], [4, 4, 5], [], [], [], [], []],
      "concrete": ["", "", "", "1", "0", "1", "1"]})"));
}

TEST(OpWorkTypes, PrecisionAndElementSizes) {
  auto mm = [](const char* type) {
    std::string t = type;
    return Estimate("aten::mm",
                    R"({"dims": [[2, 3], [3, 4]], "types": [")" + t + R"(", ")" + t + R"("]})");
  };
  // 2x3 + 3x4 + 2x4 = 26 elements.
  EXPECT_EQ(mm("double")->precision, Precision::kFp64);
  EXPECT_DOUBLE_EQ(mm("double")->bytes, 26 * 8);
  EXPECT_EQ(mm("c10::Half")->precision, Precision::kFp16);
  EXPECT_DOUBLE_EQ(mm("c10::Half")->bytes, 26 * 2);
  EXPECT_EQ(mm("c10::Float8_e4m3fn")->precision, Precision::kFp8);
  EXPECT_EQ(mm("c10::Float8_e5m2fnuz")->precision, Precision::kFp8);
  EXPECT_DOUBLE_EQ(mm("c10::Float8_e5m2")->bytes, 26);
  EXPECT_EQ(mm("signed char")->precision, Precision::kInt8);
  // A type not in the table: FLOPs still known, bytes and precision not.
  auto odd = mm("c10::qint8");
  ASSERT_TRUE(odd);
  EXPECT_DOUBLE_EQ(odd->flops, 48);
  EXPECT_EQ(odd->bytes, 0);
  EXPECT_EQ(odd->precision, Precision::kUnknown);
  EXPECT_EQ(odd->formula, "2*M*N*K (M=2, N=4, K=3); bytes unknown (element type \"c10::qint8\")");
  EXPECT_STREQ(PrecisionName(Precision::kTf32), "tf32");
  EXPECT_STREQ(PrecisionName(Precision::kBf16), "bf16");
  EXPECT_STREQ(PrecisionName(Precision::kInt8), "int8");
  EXPECT_STREQ(PrecisionName(Precision::kUnknown), "unknown");
}

TEST(OpWorkNames, KnownAndUnknownOps) {
  EXPECT_TRUE(IsFlopCountedOp("aten::mm"));
  EXPECT_TRUE(IsFlopCountedOp("aten::_flash_attention_forward"));
  EXPECT_TRUE(IsFlopCountedOp("aten::cudnn_convolution"));
  EXPECT_FALSE(IsFlopCountedOp("aten::add"));
  EXPECT_FALSE(IsFlopCountedOp("AddmmBackward0"));
  // hta/cpu_only_rank34.pt.trace.json.gz records only aten::empty with shapes.
  EXPECT_FALSE(IsFlopCountedOp("aten::empty"));
  EXPECT_FALSE(Estimate("aten::empty", R"({"dims": [[], [], [], [], [], []],
      "types": ["", "", "", "", "Scalar", ""], "concrete": ["", "", "", "", "False", ""]})"));
}

TEST(OpWorkMalformed, NeverThrowsAndGivesNothing) {
  const char* bad[] = {
      "",
      R"({"dims": [[1024, 512], [512, 9375]])",     // truncated
      R"([[1024, 512], [512, 9375]])",              // not an object
      R"({"types": ["float", "float"]})",           // no dims
      R"({"dims": "[[1024, 512], [512, 9375]]"})",  // dims as a string
      R"({"dims": [["1024", 512], [512, 9375]]})",  // a dim as a string
      R"({"dims": [[-1024, 512], [512, 9375]]})",   // negative dim
      R"({"dims": [[1024.5, 512], [512, 9375]]})",  // fractional dim
      R"({"dims": [[1024, 512], [512, 9375]], "types": "float"})",
      R"({"dims": [[1024, 512], [512, 9375]], "types": ["float"]})",  // length mismatch
      R"({"dims": [[1024, 512], [512, 9375]], "types": [1, 2]})",
      R"({"dims": [[1024, 512], [512, 9375]], "concrete": [null, ""]})",
      R"({"dims": [[99999999999999999999, 512], [512, 9375]]})",  // beyond uint64
      R"({"dims": [[18446744073709551615, 512], [512, 9375]]})",  // beyond int64
  };
  for (const char* text : bad) {
    EXPECT_FALSE(Estimate("aten::mm", text)) << text;
  }
  // Each dimension is valid, but the product of 30 batch dimensions of 2^62 overflows a double.
  std::string batch;
  for (int i = 0; i < 30; ++i) batch += "4611686018427387904, ";
  std::string huge = R"({"dims": [[)" + batch + R"(2, 3], [3, 4]]})";
  EXPECT_FALSE(Estimate("aten::matmul", huge));
  // Large but finite is fine: 2^62 x 2^62 x 2^62 = 2^187 FLOPs.
  auto big = Estimate("aten::mm", R"({"dims": [[4611686018427387904, 4611686018427387904],
                                          [4611686018427387904, 4611686018427387904]]})");
  ASSERT_TRUE(big);
  EXPECT_DOUBLE_EQ(big->flops, std::ldexp(1.0, 187));
}

// FP8 and FP4 GEMMs (issue 40): shapes as the profiler records them (Input Dims, Input type,
// Concrete Inputs), every number computed by hand. An optional tensor that was None is recorded
// as [] with type ""; a 0-dim scale tensor as [] with its dtype; out_dtype as c10::ScalarType's
// number (15 = BFloat16).
TEST(OpWorkScaled, Fp8ScaledMmUsesTheFp8RoofAndWritesItsOutDtype) {
  auto w =
      Estimate("aten::_scaled_mm", R"({"dims": [[16, 4096], [4096, 1024], [], [], [], [], [], []],
      "types": ["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", "", "", "Scalar", "Scalar"],
      "concrete": ["", "", "", "", "", "", "15", "False"]})");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->flops, 2.0 * 16 * 1024 * 4096);  // 134,217,728
  EXPECT_EQ(w->precision, Precision::kFp8);
  // A 16x4096 and B 4096x1024 at 1 byte, two fp32 scales, the bf16 output 16x1024 at 2 bytes.
  EXPECT_DOUBLE_EQ(w->bytes, 65536 + 4194304 + 4 + 4 + 32768);
}

TEST(OpWorkScaled, Fp4PackedOperandsCountTwoValuesPerElement) {
  // torch.float4_e2m1fn_x2 [128, 2048] x [2048, 256]: K = 4096 values; MX scales e8m0 [.., 128].
  auto w = Estimate("aten::_scaled_mm",
                    R"({"dims": [[128, 2048], [2048, 256], [128, 128], [256, 128], [], [], [], []],
      "types": ["c10::Float4_e2m1fn_x2", "c10::Float4_e2m1fn_x2", "c10::Float8_e8m0fnu", "c10::Float8_e8m0fnu", "", "", "Scalar", "Scalar"],
      "concrete": ["", "", "", "", "", "", "15", "False"]})");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->flops, 2.0 * 128 * 256 * 4096);  // 268,435,456
  EXPECT_EQ(w->precision, Precision::kFp4);
  EXPECT_DOUBLE_EQ(w->bytes, 128 * 2048 + 2048 * 256 + 128 * 128 + 256 * 128 + 128 * 256 * 2.0);
  EXPECT_NE(w->formula.find("K=4096"), std::string::npos) << w->formula;
}

TEST(OpWorkScaled, GroupedGemmsOfMixturesOfExperts) {
  // 2D x 3D: 512 routed tokens over 8 experts (offs [8]), K 2048, N 1024, bf16 out.
  auto moe =
      Estimate("aten::_scaled_grouped_mm",
               R"({"dims": [[512, 2048], [8, 2048, 1024], [512], [8, 1024], [8], [], [], [], []],
      "types": ["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", "int", "", "", "Scalar", "Scalar"],
      "concrete": ["", "", "", "", "", "", "", "15", "True"]})");
  ASSERT_TRUE(moe.has_value());
  EXPECT_DOUBLE_EQ(moe->flops, 2.0 * 512 * 1024 * 2048);  // 2,147,483,648
  EXPECT_EQ(moe->precision, Precision::kFp8);
  EXPECT_DOUBLE_EQ(
      moe->bytes, 512 * 2048 + 8 * 2048 * 1024 + 512 * 4 + 8 * 1024 * 4 + 8 * 4 + 512 * 1024 * 2.0);
  // 3D x 3D bf16, no offs: a batched product.
  auto batched =
      Estimate("aten::_grouped_mm", R"({"dims": [[4, 64, 128], [4, 128, 256], [], [], []],
      "types": ["c10::BFloat16", "c10::BFloat16", "", "", "Scalar"], "concrete": ["", "", "", "", ""]})");
  ASSERT_TRUE(batched.has_value());
  EXPECT_DOUBLE_EQ(batched->flops, 2.0 * 4 * 64 * 256 * 128);  // 16,777,216
  EXPECT_DOUBLE_EQ(batched->bytes, (4 * 64 * 128 + 4 * 128 * 256 + 4 * 64 * 256) * 2.0);
  EXPECT_EQ(batched->precision, Precision::kBf16);
}

TEST(OpWorkScaled, AiterAndCutlassBlockScaledGemms) {
  // aiter::gemm_a8w8_blockscale(XQ [M,K], WQ [N,K], x_scale, w_scale, dtype=bf16, preshuffled).
  auto a8w8 = Estimate("aiter::gemm_a8w8_blockscale",
                       R"({"dims": [[32, 7168], [2112, 7168], [32, 56], [17, 56], [], []],
      "types": ["c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", "float", "float", "Scalar", "Scalar"],
      "concrete": ["", "", "", "", "15", "False"]})");
  ASSERT_TRUE(a8w8.has_value());
  EXPECT_DOUBLE_EQ(a8w8->flops, 2.0 * 32 * 2112 * 7168);  // 968,884,224
  EXPECT_EQ(a8w8->precision, Precision::kFp8);
  EXPECT_DOUBLE_EQ(a8w8->bytes,
                   32 * 7168 + 2112 * 7168 + 32 * 56 * 4 + 17 * 56 * 4 + 32 * 2112 * 2.0);
  // Older aiter::gemm_a4w4 takes its bf16 output tensor; FP4 packed two per uint8 along K.
  auto a4w4 = Estimate("aiter::gemm_a4w4",
                       R"({"dims": [[64, 1024], [512, 1024], [64, 64], [512, 64], [64, 512], []],
      "types": ["unsigned char", "unsigned char", "unsigned char", "unsigned char", "c10::BFloat16", ""]})");
  ASSERT_TRUE(a4w4.has_value());
  EXPECT_DOUBLE_EQ(a4w4->flops, 2.0 * 64 * 512 * 2048);  // 134,217,728
  EXPECT_EQ(a4w4->precision, Precision::kFp4);
  EXPECT_DOUBLE_EQ(a4w4->bytes, 64 * 1024 + 512 * 1024 + 64 * 64 + 512 * 64 + 64 * 512 * 2.0);
  // vLLM's _C::cutlass_scaled_mm(out, a, b, a_scales, b_scales, bias): out comes first.
  auto cutlass = Estimate("_C::cutlass_scaled_mm",
                          R"({"dims": [[8, 4096], [8, 14336], [14336, 4096], [8, 1], [1, 4096], []],
      "types": ["c10::BFloat16", "c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", ""]})");
  ASSERT_TRUE(cutlass.has_value());
  EXPECT_DOUBLE_EQ(cutlass->flops, 2.0 * 8 * 4096 * 14336);  // 939,524,096
  EXPECT_EQ(cutlass->precision, Precision::kFp8);
  EXPECT_DOUBLE_EQ(cutlass->bytes, 8 * 14336 + 14336 * 4096.0 + 8 * 4 + 4096 * 4 + 8 * 4096 * 2);
}

// Memory-bound ops (EstimateOpTraffic): events quoted from the shared traces; every number is the
// rule's bytes computed by hand (each tensor read once, each output written once).
std::optional<OpWork> Traffic(std::string_view op_name, std::string_view inputs_json) {
  return EstimateOpTraffic(op_name, OpInputsFromObjectText(inputs_json));
}

TEST(OpWorkConvolution, BackwardCountsEachAskedGradientAsOneForwardPass) {
  // tracelens_more/mi300x_resnet18_train_no_mempool: a 3x3 convolution's backward, output_mask
  // [True, True, False] (grad_input and grad_weight).
  auto w = Estimate("aten::convolution_backward", R"({"dims": [[512, 512, 7, 7], [512, 512, 7, 7],
      [512, 512, 3, 3], [], [], [], [], [], [], [], []], "types": ["c10::BFloat16",
      "c10::BFloat16", "c10::BFloat16", "ScalarList", "ScalarList", "ScalarList", "ScalarList",
      "Scalar", "ScalarList", "Scalar", "ScalarList"], "concrete": ["", "", "", "[0]", "[1, 1]",
      "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", "[True, True, False]"]})");
  ASSERT_TRUE(w.has_value());
  // Forward: 2 * N * Cout * 7*7 * Cin * 3*3 = 59,190,018,048; two gradients.
  EXPECT_DOUBLE_EQ(w->flops, 2 * 2.0 * 512 * 512 * 49 * 512 * 9);
  // Read grad_output, input (512*512*49 each) and weight (512*512*9); written grad_input and
  // grad_weight: (3 * 12,845,056 + 2 * 2,359,296) * 2 bytes.
  EXPECT_DOUBLE_EQ(w->bytes, 86507520);
  EXPECT_EQ(w->precision, Precision::kBf16);
}

TEST(OpWorkTraffic, NormalizationBackwardReadsEveryTensorAndWritesTheInputsGradient) {
  // The same trace: native_batch_norm_backward(grad_out, input, weight, running_mean, running_var,
  // save_mean, save_invstd, train, eps, output_mask).
  auto w = Traffic("aten::native_batch_norm_backward", R"({"dims": [[512, 512, 7, 7],
      [512, 512, 7, 7], [512], [512], [512], [512], [512], [], [], []], "types": ["c10::BFloat16",
      "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "float",
      "Scalar", "Scalar", "ScalarList"], "concrete": ["", "", "", "", "", "", "", "True",
      "1.0000000000000001e-05", "[True, True, True]"]})");
  ASSERT_TRUE(w.has_value());
  // (2 * 12,845,056 + 3 * 512) * 2 + 2 * 512 * 4 read, 12,845,056 * 2 written.
  EXPECT_DOUBLE_EQ(w->bytes, 77077504);
  EXPECT_EQ(w->precision, Precision::kBf16);
  EXPECT_EQ(w->formula.rfind("memory:", 0), 0u) << w->formula;
}

TEST(OpWorkTraffic, EmbeddingReadsItsIndicesAndTheirRowsOnly) {
  // tracelens_pairs/h100_qwen1.5-0.5b: a 151,936 x 1024 table, 16 x 559 long indices. The table is
  // not read whole: only the rows the indices select.
  auto w = Traffic("aten::embedding", R"({"dims": [[151936, 1024], [16, 559], [], [], []],
      "types": ["c10::BFloat16", "long int", "Scalar", "Scalar", "Scalar"],
      "concrete": ["", "", "-1", "False", "False"]})");
  ASSERT_TRUE(w.has_value());
  const double rows = 16.0 * 559 * 1024 * 2;  // bytes of the selected rows
  EXPECT_DOUBLE_EQ(w->bytes, 16.0 * 559 * 8 + 2 * rows);
  EXPECT_DOUBLE_EQ(w->flops, 0);
}

TEST(OpWorkTraffic, ToWritesTheTypeItNames) {
  // Qwen: aten::to(self float [1, 32, 1], dtype 6 = float): 32 floats read and written.
  auto same = Traffic("aten::to", R"({"dims": [[1, 32, 1], [], [], [], []],
      "types": ["float", "Scalar", "Scalar", "Scalar", ""],
      "concrete": ["", "6", "False", "False", ""]})");
  ASSERT_TRUE(same.has_value());
  EXPECT_DOUBLE_EQ(same->bytes, 32 * 4 + 32 * 4);
  // The same call asking for dtype 15 (BFloat16): the copy is written in 2-byte elements.
  auto narrowed = Traffic("aten::to", R"({"dims": [[1, 32, 1], [], [], [], []],
      "types": ["float", "Scalar", "Scalar", "Scalar", ""],
      "concrete": ["", "15", "False", "False", ""]})");
  ASSERT_TRUE(narrowed.has_value());
  EXPECT_DOUBLE_EQ(narrowed->bytes, 32 * 4 + 32 * 2);
  EXPECT_EQ(narrowed->precision, Precision::kBf16);
}

TEST(OpWorkTraffic, PoolingBackwardWritesTheInputsGradient) {
  // ResNet-18: max_pool2d_with_indices_backward(grad_output, self, kernel, stride, padding,
  // dilation, ceil_mode, indices).
  auto w = Traffic("aten::max_pool2d_with_indices_backward", R"({"dims": [[512, 64, 56, 56],
      [512, 64, 112, 112], [], [], [], [], [], [512, 64, 56, 56]], "types": ["c10::BFloat16",
      "c10::BFloat16", "ScalarList", "ScalarList", "ScalarList", "ScalarList", "Scalar",
      "long int"], "concrete": ["", "", "[3, 3]", "[2, 2]", "[1, 1]", "[1, 1]", "False", ""]})");
  ASSERT_TRUE(w.has_value());
  const double small = 512.0 * 64 * 56 * 56, large = 512.0 * 64 * 112 * 112;
  EXPECT_DOUBLE_EQ(w->bytes, small * 2 + large * 2 + small * 8 + large * 2);
}

TEST(OpWorkTraffic, BroadcastAndInPlaceOutputs) {
  // Qwen's RMSNorm: add(hidden [16, 559, 1] float, eps held as a 0-dim double, alpha).
  auto add = Traffic("aten::add", R"({"dims": [[16, 559, 1], [], []],
      "types": ["float", "double", "Scalar"], "concrete": ["", "", "1"]})");
  ASSERT_TRUE(add.has_value());
  EXPECT_DOUBLE_EQ(add->bytes, 16 * 559 * 4 + 8 + 16 * 559 * 4);
  EXPECT_DOUBLE_EQ(add->flops, 16 * 559);
  // mul([8, 1, 64], [8, 128, 64]) writes the broadcast [8, 128, 64]; mul_ writes its first.
  auto mul = Traffic("aten::mul", R"({"dims": [[8, 1, 64], [8, 128, 64]],
      "types": ["c10::BFloat16", "c10::BFloat16"]})");
  ASSERT_TRUE(mul.has_value());
  EXPECT_DOUBLE_EQ(mul->bytes, (8 * 64 + 2 * 8 * 128 * 64) * 2.0);
  auto mul_ = Traffic("aten::mul_", R"({"dims": [[8, 128, 64], [8, 1, 64]],
      "types": ["c10::BFloat16", "c10::BFloat16"]})");
  ASSERT_TRUE(mul_.has_value());
  EXPECT_DOUBLE_EQ(mul_->bytes, (2 * 8 * 128 * 64 + 8 * 64) * 2.0);
  EXPECT_FALSE(Traffic("aten::mul", R"({"dims": [[8, 3], [8, 4]],
      "types": ["float", "float"]})"));  // does not broadcast
}

TEST(OpWorkTraffic, ServingKernelsMoveEachTensorArgumentOnce) {
  // tracelens_more/rocm_sglang_qwen3-8b_prefill_extend: aiter::add_rmsnorm(out, input,
  // residual_in, residual_out, weight, eps), 15,360 tokens of 4,096 BF16 values.
  auto w = Traffic("aiter::add_rmsnorm", R"({"dims": [[15360, 4096], [15360, 4096], [15360, 4096],
      [15360, 4096], [4096], []], "types": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16",
      "c10::BFloat16", "c10::BFloat16", "Scalar"],
      "concrete": ["", "", "", "", "", "9.9999999999999995e-07"]})");
  ASSERT_TRUE(w.has_value());
  EXPECT_DOUBLE_EQ(w->bytes, (4 * 15360.0 * 4096 + 4096) * 2);
  EXPECT_DOUBLE_EQ(w->flops, 0);
  // sgl_kernel::silu_and_mul(out [15360, 12288], input [15360, 24576]).
  auto silu = Traffic("sgl_kernel::silu_and_mul", R"({"dims": [[15360, 12288], [15360, 24576]],
      "types": ["c10::BFloat16", "c10::BFloat16"], "concrete": ["", ""]})");
  ASSERT_TRUE(silu.has_value());
  EXPECT_DOUBLE_EQ(silu->bytes, (15360.0 * 12288 + 15360.0 * 24576) * 2);
  // The same names in another namespace are not these kernels.
  EXPECT_FALSE(Traffic("mylib::silu_and_mul", R"({"dims": [[4, 4], [4, 8]],
      "types": ["float", "float"]})"));
}

TEST(OpWorkTraffic, NeverAGuessWithoutElementTypes) {
  // Qwen's aten::cat: Kineto types the list "TensorList", without its dtype: no estimate unless
  // its kernel names the element size (below).
  EXPECT_FALSE(Traffic("aten::cat", R"({"dims": [[[1, 559, 32], [1, 559, 32]], []],
      "types": ["TensorList", "Scalar"], "concrete": ["", "-1"]})"));
  // No types at all (2021's traces, record_shapes without types): nothing.
  EXPECT_FALSE(Traffic("aten::add", R"({"dims": [[16, 559], [16, 559]]})"));
  // A FLOP-counted op is not the traffic rule's.
  EXPECT_FALSE(Traffic("aten::mm", R"({"dims": [[4, 4], [4, 4]], "types": ["float", "float"]})"));
  // index(self, indices): one row of self per index; indices at one byte each (a lower bound).
  auto index = Traffic("aten::index", R"({"dims": [[100, 64], [[10]]],
      "types": ["float", "TensorList"], "concrete": ["", ""]})");
  ASSERT_TRUE(index.has_value());
  EXPECT_DOUBLE_EQ(index->bytes, 10 + 2 * 10 * 64 * 4.0);
}

TEST(OpWorkTraffic, InductorKernelsMoveEachBufferOnce) {
  // tracelens/rocm_torch_compile_triton: Inductor's fused SiLU-and-multiply, recorded under its
  // own name with its buffers (BF16) and the element count (a scalar).
  auto silu = Traffic("triton_poi_fused__unsafe_view_mul_silu_2",
                      R"({"dims": [[8, 4096, 8192], [32768, 8192], []],
      "types": ["c10::BFloat16", "c10::BFloat16", "Scalar"], "concrete": ["", "", "268435456"]})");
  ASSERT_TRUE(silu.has_value());
  EXPECT_DOUBLE_EQ(silu->bytes, 2 * 268435456 * 2.0);  // 1,073,741,824
  // The RMS norm's reduction: input, weight and output, 2 bytes each.
  auto norm = Traffic("triton_red_fused_add_mean_mul_pow_rsqrt_0",
                      R"({"dims": [[8, 4096, 2048], [2048], [8, 4096, 2048], [], []],
      "types": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"],
      "concrete": ["", "", "", "32768", "2048"]})");
  ASSERT_TRUE(norm.has_value());
  EXPECT_DOUBLE_EQ(norm->bytes, (2 * 8 * 4096 * 2048.0 + 2048) * 2);
  // hta/triton_example: three 10x10 float buffers.
  auto example = Traffic("triton_poi_fused_add_cos_sin_0", R"({"dims": [[10, 10], [10, 10],
      [10, 10], []], "types": ["float", "float", "float", "Scalar"],
      "concrete": ["", "", "", "100"]})");
  ASSERT_TRUE(example.has_value());
  EXPECT_DOUBLE_EQ(example->bytes, 3 * 100 * 4.0);
  // A template kernel (a GEMM) is bound by FLOPs its name does not give: no estimate.
  EXPECT_FALSE(Traffic("triton_tem_fused_mm_0", R"({"dims": [[64, 64], [64, 64], [64, 64]],
      "types": ["float", "float", "float"]})"));
}

// Kernel names quoted from the shared traces (tracelens_pairs Qwen on H100 and MI300X, the MI300X
// ResNet-18 training, the A100 NCCL sample, SGLang's decode on ROCm, HTA's trace_diff), most cut
// after their template arguments ("(...)"), the GEMM's after its tile size.
TEST(OpWorkTraffic, ListElementSizeAsTheKernelNamesIt) {
  EXPECT_EQ(
      ListElementBytesOfKernel(
          "void at::native::(anonymous namespace)::CatArrayBatchedCopy<at::native::(anonymous "
          "namespace)::OpaqueType<2u>, unsigned int, 4, 64, 64>(at::native::(anonymous "
          "namespace)::OpaqueType<2u>*, at::native::(anonymous "
          "namespace)::CatArrInputTensorMetadata"
          "<at::native::(anonymous namespace)::OpaqueType<2u>, unsigned int, 64, 64>, "
          "at::native::(anonymous namespace)::TensorSizeStride<unsigned int, 4u>, int, "
          "unsigned int)"),
      (ListElementBytes{2, 2}));
  EXPECT_EQ(ListElementBytesOfKernel("void at::native::(anonymous namespace)::CatArrayBatchedCopy<"
                                     "at::native::(anonymous namespace)::OpaqueType<4u>, unsigned "
                                     "int, 3, 64, 64>(...)"),
            (ListElementBytes{4, 4}));
  EXPECT_EQ(ListElementBytesOfKernel(
                "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
                "(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::"
                "BinaryOpListAlphaFunctor<float, 2, 2, 0>, std::plus<float>, float>(...)"),
            (ListElementBytes{4, 4}));
  EXPECT_EQ(ListElementBytesOfKernel(
                "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
                "(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::"
                "BinaryOpListAlphaFunctor<c10::BFloat16, 2, 2, 0>, std::plus<float>, float>(...)"),
            (ListElementBytes{2, 2}));
  EXPECT_EQ(ListElementBytesOfKernel(
                "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
                "(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::"
                "UnaryOpFunctor<long, 2, 1, 1>, at::native::Copy<long, long> >(...)"),
            (ListElementBytes{8, 8}));
  // A copy between two types: CopyFunctor<To, From, ...>, the op's first list (written) of To.
  EXPECT_EQ(ListElementBytesOfKernel(
                "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::"
                "(anonymous namespace)::TensorListMetadata<2>, at::native::(anonymous namespace)::"
                "CopyFunctor<int, long, 2, 1, 1>, at::native::Copy<int, long> >(...)"),
            (ListElementBytes{4, 8}));
  EXPECT_EQ(ListElementBytesOfKernel("multi_tensor_apply_kernel<TensorListMetadata<2>, "
                                     "CopyFunctor<c10::BFloat16, float, 2, 1, 1>, ...>"),
            (ListElementBytes{2, 4}));
  // One of the two types unknown, or cut short: nothing stated. Other kernels state nothing.
  EXPECT_EQ(ListElementBytesOfKernel("multi_tensor_apply_kernel<TensorListMetadata<2>, "
                                     "CopyFunctor<int, Mystery, 2, 1, 1>, ...>"),
            ListElementBytes{});
  EXPECT_EQ(ListElementBytesOfKernel("multi_tensor_apply_kernel<TensorListMetadata<2>, "
                                     "CopyFunctor<int>"),
            ListElementBytes{});
  EXPECT_EQ(ListElementBytesOfKernel("void multi_tensor_apply_kernel<TensorListMetadata<4>, "
                                     "AdamFunctor<float>, float, float>(int, int volatile*)"),
            (ListElementBytes{4, 4}));
  EXPECT_EQ(ListElementBytesOfKernel("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"),
            ListElementBytes{});
  EXPECT_EQ(ListElementBytesOfKernel("CatArrayBatchedCopy<OpaqueType<"),
            ListElementBytes{});  // cut short
  EXPECT_EQ(ListElementBytesOfKernel("CatArrayBatchedCopy<OpaqueType<99u>"), ListElementBytes{});
}

TEST(OpWorkTraffic, CatWithoutElementTypesTakesItsKernelsElementSize) {
  // Qwen's aten::cat on H100, whose kernel is CatArrayBatchedCopy<OpaqueType<4u>, ...>: both
  // lists read once and written once, 4 bytes per element.
  const OpInputs inputs = OpInputsFromObjectText(R"({"dims": [[[1, 559, 32], [1, 559, 32]], []],
      "types": ["TensorList", "Scalar"], "concrete": ["", "-1"]})");
  const std::optional<OpWork> cat = EstimateOpTraffic("aten::cat", inputs, {4, 4});
  ASSERT_TRUE(cat.has_value());
  EXPECT_DOUBLE_EQ(cat->bytes, 2 * (2 * 559 * 32) * 4.0);  // 286,208
  EXPECT_DOUBLE_EQ(cat->flops, 0);                         // the type itself is not known
  // hta/mi250_minitoy_train_ROCm6_2_kineto: _foreach_add_(self, other, alpha), two lists of a
  // 128x128 weight and its bias, kernel BinaryOpListAlphaFunctor<float, ...>: both lists read,
  // the first written.
  const std::optional<OpWork> add = EstimateOpTraffic(
      "aten::_foreach_add_", OpInputsFromObjectText(R"({"dims": [[[128, 128], [128]],
      [[128, 128], [128]], []], "types": ["TensorList", "TensorList", "Scalar"],
      "concrete": ["", "", "-0.001"]})"),
      {4, 4});
  ASSERT_TRUE(add.has_value());
  EXPECT_DOUBLE_EQ(add->bytes, 3 * (128 * 128 + 128) * 4.0);  // 198,144
}

// tracelens/rocm_sglang_qwen3-8b_decode_hipgraph: SGLang copies its batch's tensors into the
// graph's buffers with _foreach_copy_(self, src, non_blocking): src read, self written, self not
// read. Same types (UnaryOpFunctor<long, ...>, Copy<long, long>) and int64 -> int32
// (CopyFunctor<int, long, ...>).
TEST(OpWorkTraffic, ListCopyReadsTheSourceAndWritesTheDestinationInTheirTypes) {
  const OpInputs four = OpInputsFromObjectText(R"({"dims": [[[32], [32], [32], [32]],
      [[32], [32], [32], [32]], []], "types": ["TensorList", "TensorList", "Scalar"],
      "concrete": ["", "", "False"]})");
  const std::optional<OpWork> same = EstimateOpTraffic("aten::_foreach_copy_", four, {8, 8});
  ASSERT_TRUE(same.has_value());
  EXPECT_DOUBLE_EQ(same->bytes, 4 * 32 * 8.0 + 4 * 32 * 8.0);  // 2,048
  const OpInputs one = OpInputsFromObjectText(R"({"dims": [[[32]], [[32]], []],
      "types": ["TensorList", "TensorList", "Scalar"], "concrete": ["", "", "False"]})");
  const std::optional<OpWork> narrowed = EstimateOpTraffic("aten::_foreach_copy_", one, {4, 8});
  ASSERT_TRUE(narrowed.has_value());
  EXPECT_DOUBLE_EQ(narrowed->bytes, 32 * 8.0 + 32 * 4.0);  // 384: int64 read, int32 written
  EXPECT_NE(narrowed->formula.find("4 B per element of the first list and 8 B of the others"),
            std::string::npos)
      << narrowed->formula;
  // Without a size from the kernel, or with only one of the two: no estimate.
  EXPECT_FALSE(EstimateOpTraffic("aten::_foreach_copy_", one));
  EXPECT_FALSE(EstimateOpTraffic("aten::_foreach_copy_", one, {4, 0}));
  // Other tensor-list updates still read the list they write.
  const std::optional<OpWork> mul = EstimateOpTraffic("aten::_foreach_mul_", one, {8, 8});
  ASSERT_TRUE(mul.has_value());
  EXPECT_DOUBLE_EQ(mul->bytes, 3 * 32 * 8.0);
}

// aten::arange writes ceil((end - start) / step) values and reads nothing. The first two events
// are quoted from SGLang's decode on ROCm: arange.start(238, 270, dtype=4 (int64), ...), which
// calls arange.start_out(238, 270, 1, out) on a long tensor, whose kernel runs 4.2 us.
TEST(OpWorkTraffic, ArangeWritesItsRangeInTheTypeItNames) {
  auto start = Traffic("aten::arange", R"({"dims": [[], [], [], [], [], []], "types": ["Scalar",
      "Scalar", "Scalar", "", "", "Scalar"], "concrete": ["238", "270", "4", "", "", "False"]})");
  ASSERT_TRUE(start.has_value());
  EXPECT_DOUBLE_EQ(start->bytes, 32 * 8.0);
  EXPECT_DOUBLE_EQ(start->flops, 0);
  auto start_out = Traffic("aten::arange", R"({"dims": [[], [], [], [0]], "types": ["Scalar",
      "Scalar", "Scalar", "long int"], "concrete": ["238", "270", "1", ""]})");
  ASSERT_TRUE(start_out.has_value());
  EXPECT_DOUBLE_EQ(start_out->bytes, 32 * 8.0);
  // arange(end, dtype=None, ...): integers give int64; arange(start, end, step, dtype=float).
  auto end_only = Traffic("aten::arange", R"({"dims": [[], [], [], [], []], "types": ["Scalar",
      "", "", "", ""], "concrete": ["1024", "", "", "", ""]})");
  ASSERT_TRUE(end_only.has_value());
  EXPECT_DOUBLE_EQ(end_only->bytes, 1024 * 8.0);
  auto stepped = Traffic("aten::arange", R"({"dims": [[], [], [], [], [], [], []], "types":
      ["Scalar", "Scalar", "Scalar", "Scalar", "", "", ""], "concrete": ["0", "10", "3", "6", "",
      "", ""]})");
  ASSERT_TRUE(stepped.has_value());
  EXPECT_DOUBLE_EQ(stepped->bytes, 4 * 4.0);  // 0, 3, 6, 9
  auto down = Traffic("aten::arange", R"({"dims": [[], [], [], [], [], [], []], "types":
      ["Scalar", "Scalar", "Scalar", "Scalar", "", "", ""], "concrete": ["1", "0", "-0.25", "7",
      "", "", ""]})");
  ASSERT_TRUE(down.has_value());
  EXPECT_DOUBLE_EQ(down->bytes, 4 * 8.0);  // 1, 0.75, 0.5, 0.25 in double
  // A fractional range without a dtype takes the default dtype, which the trace does not record;
  // values not recorded; an empty range; a zero step: no estimate.
  EXPECT_FALSE(Traffic("aten::arange", R"({"dims": [[], [], [], [], [], []], "types": ["Scalar",
      "Scalar", "", "", "", ""], "concrete": ["0", "2.5", "", "", "", ""]})"));
  EXPECT_FALSE(Traffic("aten::arange", R"({"dims": [[], [], [], [], []], "types": ["Scalar", "",
      "", "", ""]})"));
  EXPECT_FALSE(Traffic("aten::arange", R"({"dims": [[], [], [], [], [], []], "types": ["Scalar",
      "Scalar", "", "", "", ""], "concrete": ["5", "5", "", "", "", ""]})"));
  EXPECT_FALSE(Traffic("aten::arange", R"({"dims": [[], [], [], [0]], "types": ["Scalar",
      "Scalar", "Scalar", "long int"], "concrete": ["0", "8", "0", ""]})"));
}

TEST(OpWorkTraffic, FbgemmSparseFeaturePermutesAndOffsets) {
  // param_dlrm_8rank/worker0: permute_2D_sparse_data(permute [24], lengths [24, 16], indices [768],
  // weights (none), permuted_lengths_sum), all int: everything read, all but the permutation
  // written permuted.
  auto permute = Traffic("fbgemm::permute_2D_sparse_data", R"({"dims": [[24], [24, 16], [768],
      [], []], "types": ["int", "int", "int", "", "Scalar"]})");
  ASSERT_TRUE(permute.has_value());
  EXPECT_DOUBLE_EQ(permute->bytes, (24 + 384 + 768) * 4.0 + (384 + 768) * 4.0);  // 9,312
  EXPECT_DOUBLE_EQ(permute->flops, 0);
  // hta/multirank_sampled/sampled_rank-0: permute_sparse_features(permute [300], lengths
  // [300, 2048], indices [16,334,339], weights (none)).
  auto features = Traffic("fbgemm::permute_sparse_features", R"({"dims": [[300], [300, 2048],
      [16334339], []], "types": ["int", "int", "int", ""]})");
  ASSERT_TRUE(features.has_value());
  EXPECT_DOUBLE_EQ(features->bytes, (300 + 2 * 614400 + 2 * 16334339) * 4.0);  // 135,591,112
  // asynchronous_complete_cumsum([384] int): read, and the offsets written (one more element,
  // not counted).
  auto cumsum =
      Traffic("fbgemm::asynchronous_complete_cumsum", R"({"dims": [[384]], "types": ["int"]})");
  ASSERT_TRUE(cumsum.has_value());
  EXPECT_DOUBLE_EQ(cumsum->bytes, 2 * 384 * 4.0);
  // bounds_check_indices(rows_per_table [3], indices [768], offsets [385], mode, warning [1],
  // weights (none)), long: read; only out-of-bounds indices are written (none counted).
  auto bounds = Traffic("fbgemm::bounds_check_indices", R"({"dims": [[3], [768], [385], [], [1],
      []], "types": ["long int", "long int", "long int", "Scalar", "long int", ""]})");
  ASSERT_TRUE(bounds.has_value());
  EXPECT_DOUBLE_EQ(bounds->bytes, (3 + 768 + 385 + 1) * 8.0);  // 9,256
  EXPECT_EQ(bounds->formula, "memory: inputs read, nothing written (9256 B read, 0 B written)");
  // A permute with one tensor recorded is not one: nothing.
  EXPECT_FALSE(Traffic("fbgemm::permute_2D_sparse_data",
                       R"({"dims": [[24], [], []], "types": ["int", "", ""]})"));
}

TEST(OpWorkTraffic, FbgemmPooledEmbeddingPermutesForwardAndBackward) {
  // hta/multirank_sampled/sampled_rank-0: permute_pooled_embs_auto_grad(pooled [2048, 186588]
  // float, offset_dim_list [1391], permute_list [1390], inv_offset_dim_list [1391],
  // inv_permute_list [1390]) and its autograd node's backward on the gradient [2048, 186588].
  auto forward = Traffic("fbgemm::permute_pooled_embs_auto_grad", R"({"dims": [[2048, 186588],
      [1391], [1390], [1391], [1390]], "types": ["float", "long", "long", "long", "long"]})");
  ASSERT_TRUE(forward.has_value());
  const double pooled = 2048.0 * 186588 * 4;
  EXPECT_DOUBLE_EQ(forward->bytes, 2 * pooled + (2 * 1391 + 2 * 1390) * 8.0);
  EXPECT_DOUBLE_EQ(forward->flops, 0);
  auto backward = Traffic(
      "torch::autograd::CppNode<fbgemm_gpu::PermutePooledEmbsFunction<&fbgemm_gpu::permute_pooled_"
      "embs_gpu> >",
      R"({"dims": [[2048, 186588]], "types": ["float"]})");
  ASSERT_TRUE(backward.has_value());
  EXPECT_DOUBLE_EQ(backward->bytes, 2 * pooled);
  // hta/trace_diff/control: recat_embedding_grad_output_mixed_D_batch(grad [1024, 70904],
  // dim_sum_per_rank [8], cumsum_dim_sum_per_rank [8]).
  auto recat =
      Traffic("fbgemm::recat_embedding_grad_output_mixed_D_batch",
              R"({"dims": [[1024, 70904], [8], [8]], "types": ["float", "long", "long"]})");
  ASSERT_TRUE(recat.has_value());
  EXPECT_DOUBLE_EQ(recat->bytes, 2 * 1024 * 70904 * 4.0 + 16 * 8.0);
  // Other autograd nodes and FBGEMM's table-batched lookups (each table's dimension is a tensor's
  // values, not recorded) get nothing.
  EXPECT_FALSE(Traffic("torch::autograd::CppNode<SplitLookupFunction_adagrad_Op>",
                       R"({"dims": [[128, 48]], "types": ["float"]})"));
  EXPECT_FALSE(Traffic("fbgemm::dense_embedding_codegen_lookup_function",
                       R"({"dims": [[112], [2], [3], [], [], [3], [], [32], [33], [], [], [], []],
      "types": ["float", "long int", "int", "Scalar", "Scalar", "long int", "Scalar", "long int",
      "long int", "Scalar", "", "", "Scalar"]})"));
}

TEST(OpWorkTraffic, FbgemmQuantizationWritesTheOtherEncoding) {
  // hta/multirank_sampled/sampled_rank-0, around the all-to-alls. HFP8: one byte per value.
  auto to_hfp8 = Traffic("fbgemm::FloatToHFP8Quantized", R"({"dims": [[419430400], [], [], []],
      "types": ["float", "Scalar", "Scalar", "Scalar"]})");
  ASSERT_TRUE(to_hfp8.has_value());
  EXPECT_DOUBLE_EQ(to_hfp8->bytes, 419430400 * (4.0 + 1));
  EXPECT_DOUBLE_EQ(to_hfp8->flops, 0);
  EXPECT_EQ(to_hfp8->precision, Precision::kFp32);
  auto from_hfp8 = Traffic("fbgemm::HFP8QuantizedToFloat", R"({"dims": [[382132224], [], []],
      "types": ["unsigned char", "Scalar", "Scalar"]})");
  ASSERT_TRUE(from_hfp8.has_value());
  EXPECT_DOUBLE_EQ(from_hfp8->bytes, 382132224 * (1.0 + 4));
  EXPECT_DOUBLE_EQ(from_hfp8->flops, 382132224);  // one per float written
  // FP8 row-wise: [1,492,704 x 256] floats become rows of 256 bytes and an 8-byte tail; the
  // dequantized side's rows [1,638,400 x 264] hold 256 values each.
  auto to_fp8 = Traffic("fbgemm::FloatToFP8RowwiseQuantized",
                        R"({"dims": [[1492704, 256], []], "types": ["float", "Scalar"]})");
  ASSERT_TRUE(to_fp8.has_value());
  EXPECT_DOUBLE_EQ(to_fp8->bytes, 1492704.0 * 256 * 4 + 1492704.0 * (256 + 8));
  auto from_fp8 =
      Traffic("fbgemm::FP8RowwiseQuantizedToFloat",
              R"({"dims": [[1638400, 264], []], "types": ["unsigned char", "Scalar"]})");
  ASSERT_TRUE(from_fp8.has_value());
  EXPECT_DOUBLE_EQ(from_fp8->bytes, 1638400.0 * 264 + 1638400.0 * 256 * 4);
  // A newer FBGEMM's output_dtype (SparseType: 1 = FP16) decides the written size; recorded
  // without its value, nothing.
  auto to_half = Traffic("fbgemm::FP8RowwiseQuantizedToFloat", R"({"dims": [[16, 264], [], []],
      "types": ["unsigned char", "Scalar", "Scalar"], "concrete": ["", "True", "1"]})");
  ASSERT_TRUE(to_half.has_value());
  EXPECT_DOUBLE_EQ(to_half->bytes, 16.0 * 264 + 16.0 * 256 * 2);
  EXPECT_EQ(to_half->precision, Precision::kFp16);
  EXPECT_FALSE(Traffic("fbgemm::FP8RowwiseQuantizedToFloat", R"({"dims": [[16, 264], [], []],
      "types": ["unsigned char", "Scalar", "Scalar"]})"));
  // Rows no longer than their tail are not row-wise quantized data.
  EXPECT_FALSE(Traffic("fbgemm::FP8RowwiseQuantizedToFloat",
                       R"({"dims": [[16, 8], []], "types": ["unsigned char", "Scalar"]})"));
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
