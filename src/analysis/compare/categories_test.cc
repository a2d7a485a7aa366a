#include "tensormorph/analysis/compare/categories.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

struct Case {
  const char* name;
  WorkCategory category;
};

// Autograd's backward work as training traces name it (HTA's trace_diff, the param RTX 2080 Ti
// MLP, the MI300X ResNet-18, the 2021 ResNet-50): the forward op's category.
TEST(CategoryOfOp, AutogradNodesHaveTheirForwardOpsCategory) {
  const Case cases[] = {
      {"autograd::engine::evaluate_function: AddmmBackward0", WorkCategory::kGemm},
      {"autograd::engine::evaluate_function: ConvolutionBackward0", WorkCategory::kConvolution},
      {"autograd::engine::evaluate_function: NativeLayerNormBackward0",
       WorkCategory::kNormalization},
      {"autograd::engine::evaluate_function: NativeBatchNormBackward0",
       WorkCategory::kNormalization},
      {"autograd::engine::evaluate_function: SoftmaxBackward0", WorkCategory::kReduction},
      {"autograd::engine::evaluate_function: GeluBackward0", WorkCategory::kElementwise},
      {"autograd::engine::evaluate_function: MaskedFillBackward0", WorkCategory::kElementwise},
      {"autograd::engine::evaluate_function: ScaledDotProductFlashAttentionBackward0",
       WorkCategory::kAttention},
      {"MmBackward0", WorkCategory::kGemm},
      {"BmmBackward0", WorkCategory::kGemm},
      {"ToCopyBackward0", WorkCategory::kElementwise},
      {"CudnnConvolutionBackward", WorkCategory::kConvolution},  // 2021: no version
      {"AddmmBackward", WorkCategory::kGemm},
      // Not a category, and not a forward op by another name.
      {"autograd::engine::evaluate_function: NllLossBackward0", WorkCategory::kOther},
      {"autograd::engine::evaluate_function: torch::autograd::AccumulateGrad",
       WorkCategory::kOther},
      {"Backward0", WorkCategory::kOther},
      {"aten::log2", WorkCategory::kElementwise},  // a digit that is no version
  };
  for (const Case& c : cases) {
    EXPECT_EQ(CategoryOfOp(c.name), c.category) << c.name;
  }
}

// Op names as the shared traces spell them (Kineto aten/c10d ops, ONNX Runtime op types).
TEST(CategoryOfOp, NamesFromRealTraces) {
  const Case cases[] = {
      {"aten::mm", WorkCategory::kGemm},
      {"aten::addmm", WorkCategory::kGemm},
      {"aten::linear", WorkCategory::kGemm},
      {"aten::bmm", WorkCategory::kGemm},
      {"aten::_scaled_mm", WorkCategory::kGemm},
      {"MatMul", WorkCategory::kGemm},
      {"FusedMatMul", WorkCategory::kGemm},
      {"Gemm", WorkCategory::kGemm},
      {"aten::scaled_dot_product_attention", WorkCategory::kAttention},
      {"aten::_scaled_dot_product_flash_attention", WorkCategory::kAttention},
      {"aten::_flash_attention_forward", WorkCategory::kAttention},
      {"aten::_efficient_attention_backward", WorkCategory::kAttention},
      {"MultiHeadAttention", WorkCategory::kAttention},
      {"aten::conv2d", WorkCategory::kConvolution},
      {"aten::cudnn_convolution", WorkCategory::kConvolution},
      {"aten::convolution_backward", WorkCategory::kConvolution},
      {"Conv", WorkCategory::kConvolution},
      {"aten::native_layer_norm", WorkCategory::kNormalization},
      {"aten::native_layer_norm_backward", WorkCategory::kNormalization},
      {"aten::cudnn_batch_norm", WorkCategory::kNormalization},
      {"SkipLayerNormalization", WorkCategory::kNormalization},
      {"aten::add", WorkCategory::kElementwise},
      {"aten::add_", WorkCategory::kElementwise},
      {"aten::copy_", WorkCategory::kElementwise},
      {"aten::_to_copy", WorkCategory::kElementwise},
      {"aten::threshold_backward", WorkCategory::kElementwise},
      {"aten::silu", WorkCategory::kElementwise},
      {"aten::fill_", WorkCategory::kElementwise},
      {"aten::normal_", WorkCategory::kElementwise},
      {"Relu", WorkCategory::kElementwise},
      {"aten::mean", WorkCategory::kReduction},
      {"aten::_softmax", WorkCategory::kReduction},
      {"aten::_softmax_backward_data", WorkCategory::kReduction},
      {"aten::all", WorkCategory::kReduction},
      {"ReduceMean", WorkCategory::kReduction},
      {"c10d::allreduce_", WorkCategory::kCommunication},
      {"record_param_comms", WorkCategory::kCommunication},
      {"nccl:all_reduce", WorkCategory::kCommunication},
      {"MemcpyToHost", WorkCategory::kMemcpy},
      {"aten::cat", WorkCategory::kOther},
      {"aten::index_select", WorkCategory::kOther},
      {"aten::embedding", WorkCategory::kOther},
      {"aten::upsample_bilinear2d", WorkCategory::kOther},  // "linear" in it is not a GEMM
      {"convert_element_type", WorkCategory::kOther},       // nor is "conv" a convolution
  };
  for (const Case& c : cases) {
    EXPECT_EQ(WorkCategoryName(CategoryOfOp(c.name)), std::string(WorkCategoryName(c.category)))
        << c.name;
  }
}

// Kernel names from the shared traces (CUDA, ROCm, NCCL, Triton).
TEST(CategoryOfKernel, NamesFromRealTraces) {
  const Case cases[] = {
      {"sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_warpgroupsize1x1x1_execute_"
       "segment_k_off_kernel__5x_cublas",
       WorkCategory::kGemm},
      {"Cijk_Alik_Bljk_BBS_BH_MT128x128x64_MI32x32x8x1_SN_1LDSB1_AFC1", WorkCategory::kGemm},
      {"ampere_sgemm_128x64_nn", WorkCategory::kGemm},
      {"nvjet_tst_128x256_64x4_1x2_h_bz_coopA_TNT", WorkCategory::kGemm},
      {"void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, 4, false>>",
       WorkCategory::kAttention},
      {"fmha_cutlassF_f16_aligned_64x64_rf_sm80", WorkCategory::kAttention},
      {"void cudnn::detail::implicit_convolve_sgemm<float, float, 128, 5, 5, 3, 3, 3, 1>",
       WorkCategory::kConvolution},
      {"sm80_xmma_fprop_implicit_gemm_f16f16_f16f32_f32_nhwckrsc_nhwc", WorkCategory::kConvolution},
      {"ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
       WorkCategory::kCommunication},
      // A framework's own all-reduce kernel (PyTorch's symmetric-memory one-shot all-reduce) is
      // not NCCL/RCCL: computation to timeline, so not communication here either.
      {"void c10d::symmetric_memory::one_shot_all_reduce_kernel<c10::BFloat16, 8>",
       WorkCategory::kOther},
      {"__amd_rocclr_copyBuffer", WorkCategory::kMemcpy},
      {"__amd_rocclr_fillBufferAligned", WorkCategory::kMemset},
      {"Memcpy DtoD (Device -> Device)", WorkCategory::kMemcpy},
      {"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float>",
       WorkCategory::kNormalization},
      {"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float>>",
       WorkCategory::kReduction},
      {"triton_red_fused__softmax_0", WorkCategory::kReduction},
      {"triton_poi_fused_add_mul_0", WorkCategory::kElementwise},
      {"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<int>>",
       WorkCategory::kElementwise},
      {"void at::native::index_elementwise_kernel_select", WorkCategory::kElementwise},
      {"void at::native::(anonymous namespace)::CatArrayBatchedCopy<int, 4>", WorkCategory::kOther},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(WorkCategoryName(CategoryOfKernel(c.name)), std::string(WorkCategoryName(c.category)))
        << c.name;
  }
}

TEST(WorkCategory, NamesRoundTrip) {
  for (size_t i = 0; i < kWorkCategoryCount; ++i) {
    const auto category = static_cast<WorkCategory>(i);
    EXPECT_EQ(ParseWorkCategory(WorkCategoryName(category)), category);
  }
  EXPECT_EQ(ParseWorkCategory("GEMM"), std::nullopt);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
