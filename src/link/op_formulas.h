// Per-family FLOP formulas behind EstimateOpWork. Each returns the FLOPs, which arguments are
// tensor operands read by the op, the output shape and the formula text; op_work.cc turns that
// into bytes and precision. nullopt = shapes missing or inconsistent for that op.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "link/op_args.h"

namespace tensormorph::flops {

struct Work {
  double flops = 0;
  std::vector<size_t> operands;  // argument indexes of the tensors read (bias included)
  size_t first_operand = 0;      // the multiplied operand that gives precision and output type
  Shape output;
  std::string formula;
};

using FormulaFn = std::optional<Work> (*)(std::string_view op_name, const OpArgs& args);

std::optional<Work> MmWork(std::string_view op, const OpArgs& a);
std::optional<Work> AddmmWork(std::string_view op, const OpArgs& a);
std::optional<Work> BmmWork(std::string_view op, const OpArgs& a);
std::optional<Work> BaddbmmWork(std::string_view op, const OpArgs& a);
std::optional<Work> MatmulWork(std::string_view op, const OpArgs& a);
std::optional<Work> LinearWork(std::string_view op, const OpArgs& a);
std::optional<Work> ConvWork(std::string_view op, const OpArgs& a);       // op_work_conv.cc
std::optional<Work> AttentionWork(std::string_view op, const OpArgs& a);  // op_work_attention.cc

// Numpy-style broadcast of two shapes; nullopt when they do not broadcast.
std::optional<Shape> Broadcast(const Shape& a, const Shape& b);

}  // namespace tensormorph::flops
