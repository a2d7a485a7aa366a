// The recorded arguments of one framework op (Trace::op_inputs, model/op_inputs.h) in the form the
// formulas read, and the element type tables the FLOP/byte estimator needs. Internal to
// src/link (op_work*.cc).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/link/op_work.h"
#include "tensormorph/model/op_inputs.h"

namespace tensormorph::flops {

using Shape = std::vector<int64_t>;

// One positional argument as Kineto recorded it. `shape` is set when "Input Dims" holds a flat list
// of non-negative integers there (tensors; also [] for scalars and absent optionals); nested lists
// (TensorList arguments) and anything else leave it unset.
struct OpArg {
  std::optional<Shape> shape;
  std::string type;      // "Input type"; "" when the trace has none
  std::string concrete;  // "Concrete Inputs"; "" when the trace has none
  // A TensorList argument's shapes ("Input Dims" [[2, 3], [2, 5]]), set when every entry is a
  // flat list of non-negative integers.
  std::optional<std::vector<Shape>> shapes;
};

struct OpArgs {
  std::vector<OpArg> args;
  bool has_types = false;
  bool has_concrete = false;
};

// The op's arguments; nullopt when the trace disagrees with itself (!OpInputs::consistent: a
// negative or fractional dimension, types or values that do not match the dims), which is not
// guessed at.
std::optional<OpArgs> ArgsOf(const OpInputs& inputs);

// Bytes per element of a Kineto "Input type" ("float" -> 4); nullopt for types it does not know.
// Integer types are known here even though they carry no floating-point precision.
std::optional<int> ElementSize(std::string_view type);
Precision PrecisionOfType(std::string_view type);

// Whether argument `i` holds a tensor of `shape` rank >= 0. With types recorded, the type decides
// ("Scalar", "" and list types are not tensors); without them, a required operand is taken as a
// tensor when its dims parse, an optional one (bias) only when its dims are non-empty, since an
// absent optional tensor is recorded as [].
const Shape* TensorShape(const OpArgs& a, size_t i, bool optional_operand);

// "Concrete Inputs" of an int-list parameter ("[1, 1]" or "1"), expanded to `n` values the way
// ATen expands a one-element list; nullopt when absent or unparsable.
std::optional<std::vector<int64_t>> ConcreteIntList(const OpArgs& a, size_t i, size_t n);
// A bool-list parameter ("[True, True, False]", convolution_backward's output_mask) of exactly
// `n` values; nullopt when absent, of another length or unparsable.
std::optional<std::vector<bool>> ConcreteBoolList(const OpArgs& a, size_t i, size_t n);
std::optional<int64_t> ConcreteInt(const OpArgs& a, size_t i);
std::optional<bool> ConcreteBool(const OpArgs& a, size_t i);

// The element type a ScalarType argument names, as "Input type" spells it ("15" ->
// "c10::BFloat16"); "" when it was not given (None); "ScalarType N" for numbers not listed, which
// ElementSize does not know.
std::string ScalarTypeName(std::string_view concrete);

// The shapes of a TensorList argument (cat's tensors, index's indices), nullptr when argument `i`
// is not one.
const std::vector<Shape>* TensorListShapes(const OpArgs& a, size_t i);

double Numel(const Shape& s);           // product of dims (1 for rank 0), as a double
std::string ShapeText(const Shape& s);  // "[8, 16, 4096]"

}  // namespace tensormorph::flops
