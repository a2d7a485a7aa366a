// Per-family FLOP formulas behind EstimateOpWork. Each returns the FLOPs, which arguments are
// tensor operands read by the op, the output shape and the formula text; op_work.cc turns that
// into bytes and precision. nullopt = shapes missing or inconsistent for that op.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "link/op_args.h"

namespace tensormorph::flops {

struct Work {
  Work() = default;
  Work(double flops, std::vector<size_t> operands, size_t first_operand, Shape output,
       std::string formula)
      : flops(flops),
        operands(std::move(operands)),
        first_operand(first_operand),
        output(std::move(output)),
        formula(std::move(formula)) {}

  double flops = 0;
  std::vector<size_t> operands;  // argument indexes of the tensors read (bias included)
  size_t first_operand = 0;      // the multiplied operand that gives precision and output type
  Shape output;
  std::string formula;
  // Set where the first operand does not tell: an FP8 GEMM's out_dtype, FP4 packed in uint8.
  std::string output_type;
  std::optional<Precision> precision;
};

using FormulaFn = std::optional<Work> (*)(std::string_view op_name, const OpArgs& args);

std::optional<Work> MmWork(std::string_view op, const OpArgs& a);
std::optional<Work> AddmmWork(std::string_view op, const OpArgs& a);
std::optional<Work> BmmWork(std::string_view op, const OpArgs& a);
std::optional<Work> BaddbmmWork(std::string_view op, const OpArgs& a);
std::optional<Work> MatmulWork(std::string_view op, const OpArgs& a);
std::optional<Work> LinearWork(std::string_view op, const OpArgs& a);
std::optional<Work> ConvWork(std::string_view op, const OpArgs& a);  // op_work_conv.cc
std::optional<Work> ConvBackwardWork(std::string_view op, const OpArgs& a);
std::optional<Work> AttentionWork(std::string_view op, const OpArgs& a);  // op_work_attention.cc
// op_work_scaled.cc: FP8/FP4 GEMMs with scale factors, grouped (MoE) GEMMs.
std::optional<Work> ScaledMmWork(std::string_view op, const OpArgs& a);
std::optional<Work> GroupedMmWork(std::string_view op, const OpArgs& a);
std::optional<Work> WeightRowsGemmWork(std::string_view op, const OpArgs& a);
std::optional<Work> CutlassScaledMmWork(std::string_view op, const OpArgs& a);

// "M=.., N=.., K=.." for formula texts.
std::string MnkText(int64_t m, int64_t n, int64_t k);

// Numpy-style broadcast of two shapes; nullopt when they do not broadcast.
std::optional<Shape> Broadcast(const Shape& a, const Shape& b);

}  // namespace tensormorph::flops
