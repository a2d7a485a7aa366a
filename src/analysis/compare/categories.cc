#include "tensormorph/analysis/compare/categories.h"

#include <algorithm>
#include <array>
#include <string>

#include "analysis/common/device_work.h"

namespace tensormorph {
namespace {

constexpr std::array<const char*, kWorkCategoryCount> kNames = {
    "gemm",      "attention",     "convolution", "normalization", "elementwise",
    "reduction", "communication", "memcpy",      "memset",        "other",
};

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) {
    return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  });
  return out;
}

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

bool ContainsAny(std::string_view text, std::initializer_list<std::string_view> parts) {
  return std::any_of(parts.begin(), parts.end(),
                     [&](std::string_view part) { return Contains(text, part); });
}

bool OneOf(std::string_view text, std::initializer_list<std::string_view> names) {
  return std::find(names.begin(), names.end(), text) != names.end();
}

std::string_view TrimUnderscores(std::string_view text) {
  while (!text.empty() && text.front() == '_') text.remove_prefix(1);
  while (!text.empty() && text.back() == '_') text.remove_suffix(1);
  return text;
}

// The part of an op name the rules look at: lower case, no namespace, no private/in-place
// underscores, no backward suffix; `space` gets the namespace ("aten", "c10d", "").
std::string_view BaseName(std::string_view lower, std::string_view* space) {
  const size_t colon = lower.rfind("::");
  *space = colon == std::string_view::npos ? std::string_view() : lower.substr(0, colon);
  std::string_view base =
      TrimUnderscores(colon == std::string_view::npos ? lower : lower.substr(colon + 2));
  for (std::string_view suffix :
       {"_backward_data", "_backward_input", "_backward_weight", "_backward"}) {
    if (base.size() > suffix.size() && base.ends_with(suffix)) {
      base.remove_suffix(suffix.size());
      break;
    }
  }
  return TrimUnderscores(base);
}

bool IsUpper(char c) {
  return c >= 'A' && c <= 'Z';
}

// Autograd's names for backward work: "autograd::engine::evaluate_function: AddmmBackward0", the
// node "AddmmBackward0" itself, and 2021's "CudnnConvolutionBackward": CamelCase with "Backward"
// and a version. The forward op's name in ATen's spelling ("addmm", "native_layer_norm",
// "masked_fill"), or "" for any other name.
std::string ForwardOpOfAutogradNode(std::string_view name) {
  constexpr std::string_view kEvaluate = "autograd::engine::evaluate_function: ";
  if (name.starts_with(kEvaluate)) name.remove_prefix(kEvaluate.size());
  while (!name.empty() && name.back() >= '0' && name.back() <= '9') name.remove_suffix(1);
  constexpr std::string_view kBackward = "Backward";
  if (name.size() <= kBackward.size() || !name.ends_with(kBackward) || !IsUpper(name.front()) ||
      name.find("::") != std::string_view::npos) {
    return {};
  }
  name.remove_suffix(kBackward.size());
  std::string snake;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (IsUpper(c)) {
      if (i > 0 && !IsUpper(name[i - 1])) snake += '_';
      snake += static_cast<char>(c - 'A' + 'a');
    } else {
      snake += c;
    }
  }
  return snake;
}

bool IsCollectiveName(std::string_view base) {
  return OneOf(base, {"record_param_comms",
                      "allreduce",
                      "all_reduce",
                      "allgather",
                      "all_gather",
                      "all_gather_into_tensor",
                      "allgather_into_tensor_coalesced",
                      "reduce_scatter",
                      "reduce_scatter_tensor",
                      "reducescatter",
                      "alltoall",
                      "all_to_all",
                      "all_to_all_single",
                      "alltoall_base",
                      "broadcast",
                      "barrier",
                      "send",
                      "recv",
                      "wait_tensor",
                      "all-reduce",
                      "all-gather",
                      "reduce-scatter",
                      "all-to-all",
                      "collective-permute"});
}

bool IsNormalizationName(std::string_view lower) {
  return ContainsAny(lower, {"layer_norm", "batch_norm", "group_norm", "instance_norm", "rms_norm",
                             "layernorm", "batchnorm", "groupnorm", "instancenorm", "rmsnorm",
                             "normalization", "local_response_norm"});
}

bool IsConvolutionName(std::string_view lower) {
  return Contains(lower, "conv") && !Contains(lower, "convert") && !Contains(lower, "conversion");
}

}  // namespace

const char* WorkCategoryName(WorkCategory category) {
  return kNames[static_cast<size_t>(category)];
}

std::optional<WorkCategory> ParseWorkCategory(std::string_view name) {
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (name == kNames[i]) return static_cast<WorkCategory>(i);
  }
  return std::nullopt;
}

WorkCategory CategoryOfOp(std::string_view op_name) {
  if (const std::string forward = ForwardOpOfAutogradNode(op_name); !forward.empty()) {
    return CategoryOfOp(forward);
  }
  const std::string lower = Lower(op_name);
  std::string_view space;
  const std::string_view base = BaseName(lower, &space);
  if (OneOf(space, {"c10d", "c10d_functional", "_c10d_functional", "_c10d_functional_autograd"}) ||
      ContainsAny(lower, {"nccl", "rccl"}) || IsCollectiveName(base)) {
    return WorkCategory::kCommunication;
  }
  if (base.starts_with("memcpy")) return WorkCategory::kMemcpy;
  if (base.starts_with("memset")) return WorkCategory::kMemset;
  if (ContainsAny(base, {"attention", "flash_attn", "sdpa", "fmha"})) {
    return WorkCategory::kAttention;
  }
  if (IsConvolutionName(base)) return WorkCategory::kConvolution;
  if (OneOf(base, {"mm",        "addmm",  "bmm",        "baddbmm",      "addbmm",
                   "matmul",    "linear", "addmv",      "mv",           "dot",
                   "vdot",      "einsum", "tensordot",  "chain_matmul", "gemm",
                   "scaled_mm", "int_mm", "grouped_mm", "dot_general",  "fullyconnected"}) ||
      ContainsAny(base, {"matmul", "gemm"}) || base.ends_with("_mm")) {
    return WorkCategory::kGemm;
  }
  if (IsNormalizationName(base)) return WorkCategory::kNormalization;
  if (OneOf(base, {"sum",
                   "mean",
                   "max",
                   "min",
                   "amax",
                   "amin",
                   "aminmax",
                   "argmax",
                   "argmin",
                   "prod",
                   "var",
                   "std",
                   "var_mean",
                   "std_mean",
                   "norm",
                   "linalg_vector_norm",
                   "frobenius_norm",
                   "all",
                   "any",
                   "cumsum",
                   "cumprod",
                   "logsumexp",
                   "logcumsumexp",
                   "topk",
                   "sort",
                   "argsort",
                   "median",
                   "nanmedian",
                   "mode",
                   "nansum",
                   "nanmean",
                   "count_nonzero",
                   "kthvalue"}) ||
      Contains(base, "softmax") || base.starts_with("reduce")) {
    return WorkCategory::kReduction;
  }
  if (OneOf(base, {"add",
                   "sub",
                   "rsub",
                   "mul",
                   "div",
                   "true_divide",
                   "floor_divide",
                   "remainder",
                   "fmod",
                   "pow",
                   "neg",
                   "exp",
                   "exp2",
                   "expm1",
                   "log",
                   "log2",
                   "log10",
                   "log1p",
                   "sqrt",
                   "rsqrt",
                   "reciprocal",
                   "square",
                   "abs",
                   "sign",
                   "sgn",
                   "sin",
                   "cos",
                   "tan",
                   "tanh",
                   "sinh",
                   "cosh",
                   "asin",
                   "acos",
                   "atan",
                   "atan2",
                   "sigmoid",
                   "relu",
                   "relu6",
                   "gelu",
                   "silu",
                   "swish",
                   "mish",
                   "elu",
                   "selu",
                   "celu",
                   "leaky_relu",
                   "leakyrelu",
                   "prelu",
                   "hardswish",
                   "hardsigmoid",
                   "hardtanh",
                   "softplus",
                   "softsign",
                   "threshold",
                   "clamp",
                   "clamp_min",
                   "clamp_max",
                   "clip",
                   "where",
                   "masked_fill",
                   "eq",
                   "ne",
                   "lt",
                   "le",
                   "gt",
                   "ge",
                   "equal",
                   "less",
                   "greater",
                   "lessorequal",
                   "greaterorequal",
                   "not",
                   "and",
                   "or",
                   "xor",
                   "logical_and",
                   "logical_or",
                   "logical_not",
                   "logical_xor",
                   "bitwise_and",
                   "bitwise_or",
                   "bitwise_not",
                   "bitwise_xor",
                   "maximum",
                   "minimum",
                   "fmax",
                   "fmin",
                   "copy",
                   "fill",
                   "zero",
                   "to",
                   "to_copy",
                   "clone",
                   "contiguous",
                   "dropout",
                   "native_dropout",
                   "fused_dropout",
                   "addcmul",
                   "addcdiv",
                   "lerp",
                   "floor",
                   "ceil",
                   "round",
                   "trunc",
                   "frac",
                   "erf",
                   "erfc",
                   "erfinv",
                   "nan_to_num",
                   "isnan",
                   "isinf",
                   "cast",
                   "fastgelu",
                   "biasgelu",
                   "quickgelu",
                   "biasadd",
                   "tril",
                   "triu",
                   "uniform",
                   "normal",
                   "bernoulli",
                   "exponential",
                   "random"})) {
    return WorkCategory::kElementwise;
  }
  return WorkCategory::kOther;
}

WorkCategory CategoryOfKernel(std::string_view kernel_name) {
  // Communication by the one table the timeline uses (NCCL/RCCL kernels), so that a category
  // never counts as communication what timeline's communication leaves out (a custom all-reduce
  // kernel of a framework is computation to both).
  if (ClassifyKernelName(kernel_name) == WorkClass::kCommunication) {
    return WorkCategory::kCommunication;
  }
  const std::string lower = Lower(kernel_name);
  // A collective that is not NCCL/RCCL's: communication in kind, computation to the timeline.
  // It is none of the compute families (its "reduce" is not a reduction op's): other.
  if (ContainsAny(lower, {"allreduce", "all_reduce", "allgather", "all_gather", "reducescatter",
                          "reduce_scatter", "alltoall", "all_to_all"})) {
    return WorkCategory::kOther;
  }
  if (lower.starts_with("memcpy") || lower.starts_with("hipmemcpy") || lower.starts_with("dma") ||
      Contains(lower, "copybuffer")) {
    return WorkCategory::kMemcpy;
  }
  if (lower.starts_with("memset") || lower.starts_with("hipmemset") ||
      Contains(lower, "fillbuffer")) {
    return WorkCategory::kMemset;
  }
  if (ContainsAny(lower, {"flash", "fmha", "attention", "attn", "sdpa"})) {
    return WorkCategory::kAttention;
  }
  if (IsConvolutionName(lower) || ContainsAny(lower, {"winograd", "fprop", "dgrad", "wgrad"})) {
    return WorkCategory::kConvolution;
  }
  if (ContainsAny(lower, {"gemm", "gemv", "cijk_", "xmma", "cutlass", "matmul", "nvjet", "wmma",
                          "cublas"})) {
    return WorkCategory::kGemm;
  }
  if (IsNormalizationName(lower)) return WorkCategory::kNormalization;
  if (ContainsAny(lower, {"reduce", "softmax", "argmax", "argmin", "topk", "sort", "scan",
                          "triton_red_", "triton_per_"})) {
    return WorkCategory::kReduction;
  }
  if (ContainsAny(lower, {"elementwise", "triton_poi_", "pointwise"})) {
    return WorkCategory::kElementwise;
  }
  return WorkCategory::kOther;
}

}  // namespace tensormorph
