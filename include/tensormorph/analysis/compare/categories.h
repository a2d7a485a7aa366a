// One category per op and per kernel, so that profiles of the same workload on different backends
// can be compared category by category (compare.h): the GEMMs of one against the GEMMs of the
// other, whatever each vendor's libraries call their kernels.
//
// Rules, documented as a table in docs/compare.md:
//  - An op is categorized by its own name, never by its kernels' names (CategoryOfOp); a kernel
//    by the rules of analysis/compare/kernel_categories.h: communication by its name as the
//    timeline classifies it, else the innermost op around it that has a category, else its own
//    name's family (CategoryOfKernel).
//  - The name is matched without its namespace (aten::, c10d::), case-insensitively, without the
//    leading and trailing underscores of private and in-place variants (aten::_softmax,
//    aten::add_) and without a "_backward" suffix: a backward op has its forward op's category,
//    autograd's nodes too ("autograd::engine::evaluate_function: AddmmBackward0" and
//    "NativeLayerNormBackward0" read as addmm and native_layer_norm).
//  - A name no rule knows is `other`: never a guess from a substring that also names other work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace tensormorph {

enum class WorkCategory : uint8_t {
  kGemm,
  kAttention,
  kConvolution,
  kNormalization,
  kElementwise,
  kReduction,
  kCommunication,
  kMemcpy,
  kMemset,
  kOther,
};
inline constexpr size_t kWorkCategoryCount = 10;

// "gemm", "attention", "convolution", "normalization", "elementwise", "reduction",
// "communication", "memcpy", "memset", "other".
const char* WorkCategoryName(WorkCategory category);
std::optional<WorkCategory> ParseWorkCategory(std::string_view name);

// The category of a framework op from its name (aten::addmm, c10d::allreduce_, ONNX MatMul).
WorkCategory CategoryOfOp(std::string_view op_name);

// The category of a kernel launched under no op, from its name (ampere_sgemm_128x64_nn,
// Cijk_Alik_Bljk_..., ncclDevKernel_AllReduce_..., __amd_rocclr_copyBuffer).
WorkCategory CategoryOfKernel(std::string_view kernel_name);

}  // namespace tensormorph
