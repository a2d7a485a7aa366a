// FLOPs and minimum memory traffic of a framework op (matmul, convolution, attention) from the
// shapes Kineto records with record_shapes=True.
//
// Conventions follow torch.utils.flop_counter, so numbers can be checked against FlopCounterMode:
// a multiply-add counts 2 FLOPs (2*M*N*K for a matmul, not (2K-1)*M*N); bias additions, softmax
// and scaling are not counted; attention counts the two matmuls (Q@K^T and P@V) with no discount
// for causal masking; a transposed convolution counts each input point times the whole filter.
//
// Composite ops and the ops they call are all known here (aten::linear -> aten::addmm,
// aten::conv2d -> aten::convolution -> aten::_convolution -> aten::cudnn_convolution,
// aten::scaled_dot_product_attention -> aten::_scaled_dot_product_flash_attention ->
// aten::_flash_attention_forward): a caller that sums over an op tree must count one level only,
// for example the outermost counted op.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/model/op_inputs.h"
#include "tensormorph/model/precision.h"

namespace tensormorph {

struct OpWork {
  double flops = 0;  // floating-point operations (a multiply-add counts 2)
  // Lower bound on memory traffic: every tensor operand read once plus the output written once
  // (the output has the element type of the first multiplied operand). 0 when an operand's element
  // size is unknown (no "Input type", or a type not in the table); `formula` then says so. A
  // partial sum is not reported because it would look like a real bound.
  double bytes = 0;
  // The element type of the first multiplied operand (mat1, input, query), not of a bias.
  Precision precision = Precision::kUnknown;
  std::string formula;  // human-readable, e.g. "2*M*N*K (M=128, N=256, K=512)"
};

// `inputs` are the op's recorded arguments (Trace::op_inputs: Kineto's "Input Dims", "Input type",
// "Concrete Inputs"); types and values may be absent. Returns nullopt for ops it does not know, or
// whose shapes are missing, malformed or inconsistent (never a guess), and for results that are
// not finite. Convolutions need stride/padding/dilation/groups from the concrete values; without
// them the result is nullopt. Never throws.
std::optional<OpWork> EstimateOpWork(std::string_view op_name, const OpInputs& inputs);

// True for the op names EstimateOpWork knows.
bool IsFlopCountedOp(std::string_view op_name);

// The element sizes, in bytes, that a kernel's name states for the tensor lists of the op that
// launched it: `first` for the op's first list (the one a tensor-list update writes), `others` for
// the rest; both 0 where it states none. PyTorch's cat kernels copy OpaqueType<N> (N bytes:
// CatArrayBatchedCopy<OpaqueType<2u>, ...> on CUDA and ROCm); its tensor-list kernels are
// multi_tensor_apply_kernel<TensorListMetadata<K>, XFunctor<T, ...>, ...> over lists of T, and
// _foreach_copy_ between types runs CopyFunctor<To, From, ...>: its first list (the destination)
// of To, its source of From.
struct ListElementBytes {
  int first = 0;
  int others = 0;

  bool stated() const { return first > 0 && others > 0; }
  auto operator<=>(const ListElementBytes&) const = default;
};
ListElementBytes ListElementBytesOfKernel(std::string_view kernel_name);

// The memory traffic of an op the FLOP counter does not know and whose time is decided by the
// bytes it moves (op_work_traffic.cc: elementwise, normalization, softmax, reductions, copies,
// embedding, index, cat and tensor-list updates, serving libraries' fused kernels, torch.compile's
// pointwise and reduction kernels), as the same lower bound: every tensor read once,
// every output written once. `flops` is one per floating-point output element (per input element
// for reductions), 0 for other types; `formula` starts with "memory:". Needs the element types
// ("Input type"); nullopt for other ops and where a shape or type the rule needs is missing.
// Kineto records tensor lists as "TensorList" without their element type: cat, stack and
// _foreach_* ops with no typed tensor beside their lists are sized by `list_element_bytes`, the
// sizes the op's own kernel names (ListElementBytesOfKernel), and not estimated without them.
std::optional<OpWork> EstimateOpTraffic(std::string_view op_name, const OpInputs& inputs,
                                        ListElementBytes list_element_bytes = {});

bool IsTrafficCountedOp(std::string_view op_name);

// The estimates of a trace's op slices (LinkedTrace::slice_work, EstimateSliceTraffic): each
// distinct estimate once, each slice a 4-byte index to it, since shapes repeat every step and a
// trace has millions of slices. `work[i]` is the slice's estimate, null for none.
class SliceWork {
 public:
  static constexpr uint32_t kNone = UINT32_MAX;

  SliceWork() = default;
  explicit SliceWork(size_t slices) : index_(slices, kNone) {}

  const OpWork* operator[](size_t slice) const {
    const uint32_t e = index_[slice];
    return e == kNone ? nullptr : &estimates_[e];
  }
  size_t size() const { return index_.size(); }

  // A new distinct estimate; its index for Set.
  uint32_t Add(OpWork work) {
    estimates_.push_back(std::move(work));
    return static_cast<uint32_t>(estimates_.size() - 1);
  }
  void Set(size_t slice, uint32_t estimate) { index_[slice] = estimate; }

 private:
  std::vector<uint32_t> index_;
  std::vector<OpWork> estimates_;
};

}  // namespace tensormorph
