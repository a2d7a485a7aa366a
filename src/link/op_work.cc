// EstimateOpWork: read the recorded arguments, run the op's formula, then add bytes and precision.
#include "tensormorph/link/op_work.h"

#include <fmt/format.h>

#include <cmath>

#include "link/op_args.h"
#include "link/op_formulas.h"

namespace tensormorph {
namespace {

using flops::FormulaFn;

struct OpEntry {
  std::string_view name;
  FormulaFn fn;
};

constexpr OpEntry kOps[] = {
    {"aten::mm", flops::MmWork},
    {"aten::addmm", flops::AddmmWork},
    {"aten::bmm", flops::BmmWork},
    {"aten::baddbmm", flops::BaddbmmWork},
    {"aten::matmul", flops::MatmulWork},
    {"aten::linear", flops::LinearWork},
    {"aten::convolution", flops::ConvWork},
    {"aten::_convolution", flops::ConvWork},
    {"aten::conv1d", flops::ConvWork},
    {"aten::conv2d", flops::ConvWork},
    {"aten::conv3d", flops::ConvWork},
    {"aten::conv_transpose1d", flops::ConvWork},
    {"aten::conv_transpose2d", flops::ConvWork},
    {"aten::conv_transpose3d", flops::ConvWork},
    {"aten::cudnn_convolution", flops::ConvWork},
    {"aten::miopen_convolution", flops::ConvWork},
    {"aten::convolution_backward", flops::ConvBackwardWork},
    {"aten::scaled_dot_product_attention", flops::AttentionWork},
    {"aten::_scaled_dot_product_flash_attention", flops::AttentionWork},
    {"aten::_scaled_dot_product_efficient_attention", flops::AttentionWork},
    {"aten::_scaled_dot_product_cudnn_attention", flops::AttentionWork},
    {"aten::_flash_attention_forward", flops::AttentionWork},
    {"aten::_scaled_mm", flops::ScaledMmWork},
    {"aten::_scaled_grouped_mm", flops::GroupedMmWork},
    {"aten::_grouped_mm", flops::GroupedMmWork},
    {"aiter::gemm_a8w8", flops::WeightRowsGemmWork},
    {"aiter::gemm_a8w8_blockscale", flops::WeightRowsGemmWork},
    {"aiter::gemm_a8w8_bpreshuffle", flops::WeightRowsGemmWork},
    {"aiter::gemm_a4w4", flops::WeightRowsGemmWork},
    {"_C::cutlass_scaled_mm", flops::CutlassScaledMmWork},
};

FormulaFn FindFormula(std::string_view op) {
  for (const OpEntry& e : kOps) {
    if (e.name == op) return e.fn;
  }
  return nullptr;
}

}  // namespace

bool IsFlopCountedOp(std::string_view op_name) {
  return FindFormula(op_name) != nullptr;
}

std::optional<OpWork> EstimateOpWork(std::string_view op_name, const OpInputs& inputs) {
  FormulaFn fn = FindFormula(op_name);
  if (!fn) return std::nullopt;
  std::optional<flops::OpArgs> args = flops::ArgsOf(inputs);
  if (!args) return std::nullopt;
  std::optional<flops::Work> work = fn(op_name, *args);
  if (!work || !std::isfinite(work->flops)) return std::nullopt;

  OpWork out;
  out.flops = work->flops;
  out.formula = std::move(work->formula);
  const std::string& first_type = args->args[work->first_operand].type;
  out.precision = work->precision.value_or(flops::PrecisionOfType(first_type));
  const std::string& output_type = work->output_type.empty() ? first_type : work->output_type;
  // Bytes: each operand read once, the output (in the first operand's type unless the formula
  // names another: an FP8 GEMM's out_dtype) written once. One
  // unknown element size makes the whole sum unknown (see OpWork::bytes).
  const std::string* unknown_type = nullptr;
  auto sized = [&](const std::string& type, double numel) {
    std::optional<int> size = flops::ElementSize(type);
    if (!size && !unknown_type) unknown_type = &type;
    return size ? numel * *size : 0.0;
  };
  double bytes = sized(output_type, flops::Numel(work->output));
  for (size_t i : work->operands) {
    bytes += sized(args->args[i].type, flops::Numel(*args->args[i].shape));
  }
  if (!std::isfinite(bytes)) return std::nullopt;
  if (!unknown_type) {
    out.bytes = bytes;
  } else {
    out.formula += args->has_types
                       ? fmt::format("; bytes unknown (element type \"{}\")", *unknown_type)
                       : std::string("; bytes unknown (no element types recorded)");
  }
  return out;
}

}  // namespace tensormorph
