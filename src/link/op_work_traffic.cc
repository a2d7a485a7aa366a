// EstimateOpTraffic (op_work.h): the memory traffic of the ops the FLOP counter does not know, from
// their recorded shapes and types. These ops (elementwise, normalization, softmax, reductions,
// copies, embedding and index ops, optimizer updates over tensor lists, serving libraries' fused
// kernels, torch.compile's pointwise and reduction kernels, FBGEMM's sparse-feature,
// pooled-embedding and quantization ops) are bound by memory: what decides their time is the
// bytes they move, so the estimate is a lower bound on those bytes, each tensor read once and
// each output written once, as for the FLOP counter's ops. FLOPs are one per output element for
// floating-point tensors (per input element for reductions), zero otherwise: they never decide
// such an op's roof time, they only place it on the roofline.
//
// Invariants: an op is estimated only when every tensor it reads has a known shape and element
// size; a shape the rule needs and the trace does not give (a TensorList whose element size
// neither a typed tensor beside it nor the op's kernel's name states, an index_select without
// its dim) gives no estimate, never a guess. The one lower bound taken on
// purpose: indices inside a TensorList (aten::index) count one byte per element, the smallest
// index type, because Kineto records their list as "TensorList" without their dtype.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>

#include "link/op_args.h"
#include "link/op_formulas.h"
#include "tensormorph/link/op_work.h"

namespace tensormorph {
namespace {

using flops::OpArg;
using flops::OpArgs;
using flops::Shape;

enum class Rule : uint8_t {
  kPointwise,    // output: the inputs broadcast; in place (name ends in _): the first input
  kFill,         // writes its first argument, reads nothing (fill_, zero_, normal_)
  kCopy,         // copy_(dst, src): reads src, writes dst; clone/contiguous/to: one read, one write
  kRowwise,      // normalization and softmax: reads its tensors, writes one tensor like its first
  kReduction,    // reads its first tensor (the reduced output is not counted: at most the input)
  kEmbedding,    // embedding(weight, indices): reads indices and their rows, writes the rows
  kIndexSelect,  // index_select(self, dim, index)
  kGather,       // gather(self, dim, index): output of index's shape
  kScatter,      // scatter/index_add(self, dim, index, src): reads index and src, writes src's
  kIndex,        // index(self, indices): one output row per index
  kIndexPut,     // index_put_(self, indices, values)
  kConcatenate,  // cat/stack(tensors, dim): reads and writes each tensor once
  kTensorLists,  // _foreach_* and fused optimizers: reads every list, writes the first
  kListCopy,     // _foreach_copy_(self, src): reads every list but the first, writes the first
  kArange,       // arange(start, end, step): writes ceil((end - start) / step) values
  kPoolBackward,  // pool_backward(grad_output, self, ...): reads its tensors, writes one like self
  kEachTensorOnce,  // serving kernels with their outputs as arguments: each tensor moved once
  kPermuteSparse,  // FBGEMM's sparse-feature permutes: reads every tensor, writes all but the first
  kReadOnly,       // reads every tensor, writes none (FBGEMM's bounds_check_indices)
  kWriteLikeFirst,  // reads every tensor, writes one like the first (pooled-embedding permutes)
  kQuantize,        // FBGEMM's (de)quantization: one tensor read, its values written re-encoded
};

// ATen names without "aten::" and without the in-place underscore (add_ -> add), per rule,
// separated by spaces.
// arithmetic, comparisons, activations and their backward ops, dropout
constexpr std::string_view kPointwiseOps =
    "add sub rsub mul div true_divide floor_divide remainder fmod pow neg abs exp exp2 expm1 "
    "log log2 log1p log10 sqrt rsqrt reciprocal sin cos tan tanh sigmoid relu relu6 "
    "leaky_relu elu selu celu gelu silu mish hardswish hardsigmoid hardtanh softplus clamp "
    "clamp_min clamp_max clip where masked_fill lerp addcmul addcdiv eq ne lt le gt ge "
    "logical_and logical_or logical_not logical_xor bitwise_and bitwise_or bitwise_not "
    "bitwise_xor minimum maximum sign floor ceil round trunc erf erfc erfinv isnan isinf "
    "isfinite nan_to_num threshold threshold_backward gelu_backward silu_backward "
    "sigmoid_backward tanh_backward hardswish_backward leaky_relu_backward elu_backward "
    "native_dropout dropout native_dropout_backward triu tril cumsum cumprod masked_scatter "
    "bernoulli mse_loss mse_loss_backward";
// fills
constexpr std::string_view kFillOps =
    "fill zero normal uniform random exponential zeros_like ones_like full_like";
// copies
constexpr std::string_view kCopyOps =
    "copy clone contiguous _to_copy to _copy_from _copy_from_and_resize reshape";
// normalization and softmax, forward and backward
constexpr std::string_view kRowwiseOps =
    "layer_norm native_layer_norm native_layer_norm_backward rms_norm _fused_rms_norm "
    "_fused_rms_norm_backward group_norm native_group_norm native_group_norm_backward "
    "batch_norm _batch_norm_impl_index native_batch_norm _native_batch_norm_legit "
    "_native_batch_norm_legit_no_training cudnn_batch_norm miopen_batch_norm "
    "native_batch_norm_backward cudnn_batch_norm_backward miopen_batch_norm_backward "
    "instance_norm softmax _softmax log_softmax _log_softmax _softmax_backward_data "
    "_log_softmax_backward_data";
// reductions, and pooling (the input read; the smaller output not counted)
constexpr std::string_view kReductionOps =
    "sum mean amax amin argmax argmin all any norm linalg_vector_norm var std var_mean "
    "std_mean prod logsumexp nansum count_nonzero max min topk sort max_pool1d max_pool2d "
    "max_pool3d max_pool2d_with_indices max_pool3d_with_indices avg_pool1d avg_pool2d "
    "avg_pool3d adaptive_avg_pool1d adaptive_avg_pool2d adaptive_avg_pool3d "
    "_adaptive_avg_pool2d adaptive_max_pool2d";
// pooling backward: writes the input's gradient
constexpr std::string_view kPoolBackwardOps =
    "max_pool2d_with_indices_backward max_pool3d_with_indices_backward avg_pool2d_backward "
    "avg_pool3d_backward _adaptive_avg_pool2d_backward adaptive_avg_pool2d_backward";
// embedding
constexpr std::string_view kEmbeddingOps = "embedding";
// index_select
constexpr std::string_view kIndexSelectOps = "index_select";
// gather
constexpr std::string_view kGatherOps = "gather";
// scatter and index_add
constexpr std::string_view kScatterOps = "scatter scatter_add scatter_reduce index_add index_copy";
// advanced indexing
constexpr std::string_view kIndexOps = "index";
// index_put_
constexpr std::string_view kIndexPutOps = "index_put _index_put_impl";
// cat and stack
constexpr std::string_view kConcatenateOps = "cat stack concat";
// fused optimizers (and every _foreach_ op, by prefix)
constexpr std::string_view kTensorListsOps = "_fused_adam _fused_adamw _fused_sgd";
// ranges
constexpr std::string_view kArangeOps = "arange";

struct RuleNames {
  Rule rule;
  std::string_view names;
};

bool NameListHas(std::string_view names, std::string_view op) {
  for (size_t at = names.find(op); at != std::string_view::npos; at = names.find(op, at + 1)) {
    const size_t end = at + op.size();
    if ((at == 0 || names[at - 1] == ' ') && (end == names.size() || names[end] == ' ')) {
      return true;
    }
  }
  return false;
}

constexpr RuleNames kRules[] = {
    {Rule::kPointwise, kPointwiseOps},
    {Rule::kFill, kFillOps},
    {Rule::kCopy, kCopyOps},
    {Rule::kRowwise, kRowwiseOps},
    {Rule::kReduction, kReductionOps},
    {Rule::kPoolBackward, kPoolBackwardOps},
    {Rule::kEmbedding, kEmbeddingOps},
    {Rule::kIndexSelect, kIndexSelectOps},
    {Rule::kGather, kGatherOps},
    {Rule::kScatter, kScatterOps},
    {Rule::kIndex, kIndexOps},
    {Rule::kIndexPut, kIndexPutOps},
    {Rule::kConcatenate, kConcatenateOps},
    {Rule::kTensorLists, kTensorListsOps},
    {Rule::kArange, kArangeOps},
};

// The fused kernels of serving libraries (vLLM's _C, SGLang's sgl_kernel, AMD's aiter) take their
// outputs as arguments (rms_norm(out, input, weight, eps), silu_and_mul(out, input),
// add_rmsnorm(out, input, residual_in, residual_out, weight, eps)) or update them in place
// (rotary_embedding(positions, query, key, ...)): each tensor argument is read or written once, the
// rotary cache's rows counted whole (an upper bound there, the query and key writes left out).
constexpr std::string_view kServingNamespaces = "_C sgl_kernel aiter vllm";
constexpr std::string_view kServingKernels =
    "rms_norm rmsnorm fused_add_rms_norm add_rmsnorm rmsnorm2d_fwd rmsnorm2d_fwd_with_add "
    "layernorm2d_fwd layernorm2d_fwd_with_add silu_and_mul gelu_and_mul gelu_tanh_and_mul "
    "mul_and_silu rotary_embedding batched_rotary_embedding";

// FBGEMM's sparse and pooled-embedding ops (TorchRec, DLRM), whose tensors are all recorded:
// - permutes of sparse features (lengths [T, B], indices [N], optional weights) by a permutation of
//   the T features: each tensor read, the lengths, indices and weights written permuted;
// - cumulative sums of lengths into offsets (complete_cumsum writes one more element, not counted);
// - bounds_check_indices: reads the indices and offsets, writes only the ones out of bounds (none
//   counted);
// - permutes of pooled embeddings [B, sum of D] (forward, and its autograd node backward) and the
//   re-concatenation of their gradient across ranks: each tensor read, one like the first written.
// The table-batched embedding lookups (split_embedding_codegen_lookup_*) are not here: the rows
// they gather have each table's dimension, which they take as the values of a tensor (D_offsets)
// and scalars (total_D) that Kineto records without their values.
constexpr std::string_view kFbgemmPermuteSparseOps =
    "permute_2D_sparse_data permute_1D_sparse_data permute_sparse_features";
constexpr std::string_view kFbgemmCumsumOps =
    "asynchronous_complete_cumsum asynchronous_exclusive_cumsum asynchronous_inclusive_cumsum";
constexpr std::string_view kFbgemmReadOnlyOps = "bounds_check_indices";
constexpr std::string_view kFbgemmWriteLikeFirstOps =
    "permute_pooled_embs permute_pooled_embs_auto_grad permute_pooled_embs_split "
    "permute_pooled_embs_auto_grad_split recat_embedding_grad_output "
    "recat_embedding_grad_output_mixed_D recat_embedding_grad_output_mixed_D_batch";
constexpr RuleNames kFbgemmRules[] = {
    {Rule::kPermuteSparse, kFbgemmPermuteSparseOps},
    {Rule::kPointwise, kFbgemmCumsumOps},
    {Rule::kReadOnly, kFbgemmReadOnlyOps},
    {Rule::kWriteLikeFirst, kFbgemmWriteLikeFirstOps},
};
constexpr std::string_view kFbgemmPermutePooledBackward =
    "torch::autograd::CppNode<fbgemm_gpu::PermutePooledEmbsFunction";

// FBGEMM's (de)quantization of embeddings and their gradients for the all-to-all: one tensor read,
// its values written in the other encoding. The row-wise formats keep per row, after the row's
// bytes, 8 bytes of scale (and bias or padding): 2 floats.
struct Quantization {
  std::string_view name;
  std::string_view written_type;  // of each value written: a byte when quantizing
  int row_tail_bytes;             // per row of the quantized side (0: not row-wise)
  bool dequantize;                // reads the quantized side
  size_t output_dtype_arg;        // the argument naming the output's SparseType (0: none)
};
constexpr Quantization kQuantizations[] = {
    {"FloatToHFP8Quantized", "unsigned char", 0, false, 0},
    {"HFP8QuantizedToFloat", "float", 0, true, 0},
    {"FloatToFP8RowwiseQuantized", "unsigned char", 8, false, 0},
    {"FP8RowwiseQuantizedToFloat", "float", 8, true, 2},
    {"FloatToFused8BitRowwiseQuantized", "unsigned char", 8, false, 0},
    {"HalfToFused8BitRowwiseQuantized", "unsigned char", 8, false, 0},
    {"FloatOrHalfToFused8BitRowwiseQuantized", "unsigned char", 8, false, 0},
    {"Fused8BitRowwiseQuantizedToFloat", "float", 8, true, 0},
    {"Fused8BitRowwiseQuantizedToHalf", "c10::Half", 8, true, 0},
};

const Quantization* QuantizationOf(std::string_view fbgemm_name) {
  for (const Quantization& q : kQuantizations) {
    if (q.name == fbgemm_name) return &q;
  }
  return nullptr;
}

// FBGEMM's SparseType numbers as an output_dtype argument: 0 FP32, 1 FP16, 5 BF16; "" for others.
std::string_view SparseTypeName(std::string_view concrete) {
  if (concrete == "0") return "float";
  if (concrete == "1") return "c10::Half";
  if (concrete == "5") return "c10::BFloat16";
  return "";
}

// Kernels torch.compile's Inductor generates run under a record_function of the kernel's own name
// that carries its buffer arguments when shapes are recorded (PyTorch 2.5 and later): pointwise
// (triton_poi_), reduction (triton_red_) and persistent reduction (triton_per_) kernels read or
// write each buffer argument once, the size arguments (xnumel, rnumel) being scalars. Templates
// (triton_tem_: GEMMs and convolutions) are bound by their FLOPs, which the name does not give:
// not estimated.
constexpr std::array<std::string_view, 3> kInductorMemoryBoundPrefixes = {
    "triton_poi_", "triton_red_", "triton_per_"};

bool IsInductorMemoryBoundKernel(std::string_view op) {
  return std::any_of(kInductorMemoryBoundPrefixes.begin(), kInductorMemoryBoundPrefixes.end(),
                     [&](std::string_view prefix) { return op.starts_with(prefix); });
}

struct Named {
  Rule rule;
  bool in_place;
  const Quantization* quantization = nullptr;  // kQuantize's op
};

// "aten::add_" -> {kPointwise, in place}; any "aten::_foreach_*"; the FBGEMM, serving and Inductor
// names above; nullopt for other names.
std::optional<Named> RuleOf(std::string_view op) {
  constexpr std::string_view kAten = "aten::";
  constexpr std::string_view kFbgemm = "fbgemm::";
  if (IsInductorMemoryBoundKernel(op)) return Named{Rule::kEachTensorOnce, false};
  if (op.starts_with(kFbgemmPermutePooledBackward)) return Named{Rule::kWriteLikeFirst, false};
  if (op.starts_with(kFbgemm)) {
    const std::string_view name = op.substr(kFbgemm.size());
    for (const RuleNames& r : kFbgemmRules) {
      if (NameListHas(r.names, name)) return Named{r.rule, false};
    }
    if (const Quantization* q = QuantizationOf(name)) return Named{Rule::kQuantize, false, q};
    return std::nullopt;
  }
  if (const size_t colon = op.find("::");
      colon != std::string_view::npos && !op.starts_with(kAten)) {
    if (NameListHas(kServingNamespaces, op.substr(0, colon)) &&
        NameListHas(kServingKernels, op.substr(colon + 2))) {
      return Named{Rule::kEachTensorOnce, false};
    }
    return std::nullopt;
  }
  if (!op.starts_with(kAten)) return std::nullopt;
  op.remove_prefix(kAten.size());
  if (op == "_foreach_copy_") return Named{Rule::kListCopy, true};
  if (op.starts_with("_foreach_")) return Named{Rule::kTensorLists, true};
  const bool in_place = op.size() > 1 && op.back() == '_' && op[op.size() - 2] != '_';
  if (in_place) op.remove_suffix(1);
  for (const RuleNames& r : kRules) {
    if (NameListHas(r.names, op)) return Named{r.rule, in_place};
  }
  return std::nullopt;
}

// Bytes of `elements` values of `type`; nullopt when its element size is unknown.
std::optional<double> BytesOf(double elements, const std::string& type) {
  const std::optional<int> size = flops::ElementSize(type);
  if (!size) return std::nullopt;
  return elements * *size;
}

std::optional<double> BytesOf(const Shape& shape, const std::string& type) {
  return BytesOf(flops::Numel(shape), type);
}

bool IsFloat(const std::string& type) {
  const Precision p = flops::PrecisionOfType(type);
  return p != Precision::kUnknown && p != Precision::kInt8;
}

// What a rule found: bytes read and written, FLOPs, the type that gives the precision.
struct Traffic {
  double read = 0, written = 0, flops = 0;
  std::string type;
  std::string formula;
  bool moved_only = false;  // `read` holds bytes read or written, not told apart
};

// The indexes of the tensor arguments (shape and type known), in order.
using Tensors = std::vector<size_t>;

Tensors TensorArgs(const OpArgs& a) {
  Tensors t;
  for (size_t i = 0; i < a.args.size(); ++i) {
    if (flops::TensorShape(a, i, true) != nullptr && !a.args[i].type.empty()) t.push_back(i);
  }
  return t;
}

// Sum of the bytes of the tensor arguments; nullopt when a size is unknown.
std::optional<double> ReadAll(const OpArgs& a, const Tensors& t) {
  double bytes = 0;
  for (size_t i : t) {
    const std::optional<double> b = BytesOf(*a.args[i].shape, a.args[i].type);
    if (!b) return std::nullopt;
    bytes += *b;
  }
  return bytes;
}

std::optional<Traffic> Pointwise(const OpArgs& a, const Tensors& t, bool in_place) {
  if (t.empty()) return std::nullopt;
  const OpArg& first = a.args[t[0]];
  Shape out = *first.shape;
  if (!in_place) {
    for (size_t i : t) {
      std::optional<Shape> b = flops::Broadcast(out, *a.args[i].shape);
      if (!b) return std::nullopt;
      out = std::move(*b);
    }
  }
  const std::optional<double> read = ReadAll(a, t);
  const std::optional<double> written = BytesOf(out, first.type);
  if (!read || !written) return std::nullopt;
  return Traffic{*read, *written, IsFloat(first.type) ? flops::Numel(out) : 0, first.type,
                 "inputs read, output " + flops::ShapeText(out) + " written"};
}

// Every tensor argument read, one tensor like the `like`-th written (normalization and softmax:
// like the first; pooling backward: like the input, the second), one FLOP per element written
// when `count_flops` (normalization, softmax).
std::optional<Traffic> ReadAllWriteLike(const OpArgs& a, const Tensors& t, size_t like,
                                        bool count_flops, std::string formula) {
  if (t.size() <= like) return std::nullopt;
  const OpArg& written_like = a.args[t[like]];
  const std::optional<double> read = ReadAll(a, t);
  const std::optional<double> written = BytesOf(*written_like.shape, written_like.type);
  if (!read || !written) return std::nullopt;
  const double elements =
      count_flops && IsFloat(written_like.type) ? flops::Numel(*written_like.shape) : 0;
  return Traffic{*read, *written, elements, written_like.type, std::move(formula)};
}

// The element size of a TensorList argument: from the op's first typed tensor, which Kineto
// records beside it (index's self, index_put's values); else, for cat/stack and tensor-list
// updates, `list_element_bytes` (the sizes the op's own kernel names); nullopt when neither is
// known.
std::optional<Traffic> ListTraffic(const OpArgs& a, const Tensors& t, Rule rule,
                                   ListElementBytes list_element_bytes) {
  double list_elements = 0, first_list = 0;
  bool first = true;
  for (size_t i = 0; i < a.args.size(); ++i) {
    const std::vector<Shape>* shapes = flops::TensorListShapes(a, i);
    if (!shapes) continue;
    double n = 0;
    for (const Shape& s : *shapes) n += flops::Numel(s);
    list_elements += n;
    if (first) first_list = n;
    first = false;
  }
  if (first) return std::nullopt;
  if (rule == Rule::kIndex || rule == Rule::kIndexPut) {
    // index(self, indices): the indices broadcast to one shape; each selects a row of self past
    // the indexed dims. index_put_(self, indices, values): values written at the indices.
    if (t.empty()) return std::nullopt;
    const OpArg& self = a.args[t[0]];
    const std::vector<Shape>* indices = flops::TensorListShapes(a, 1);
    if (!indices || indices->empty()) return std::nullopt;
    const std::optional<int> size = flops::ElementSize(self.type);
    if (!size) return std::nullopt;
    double out = 0;
    if (rule == Rule::kIndex) {
      Shape selected = (*indices)[0];
      for (const Shape& s : *indices) {
        std::optional<Shape> b = flops::Broadcast(selected, s);
        if (!b) return std::nullopt;
        selected = std::move(*b);
      }
      if (indices->size() > self.shape->size()) return std::nullopt;
      out = flops::Numel(selected);
      for (size_t d = indices->size(); d < self.shape->size(); ++d) out *= (*self.shape)[d];
    } else {
      if (t.size() < 2) return std::nullopt;
      out = flops::Numel(*a.args[t[1]].shape);
    }
    return Traffic{list_elements + out * *size, out * *size, IsFloat(self.type) ? out : 0,
                   self.type, "indices (1 byte each at least), rows read and written"};
  }
  // cat/stack and tensor-list updates: the lists carry no element type; an op with a typed tensor
  // beside them is sized by it, else by its kernel's name (no FLOPs then: the type is not known,
  // only its size), else not estimated. A list copy does not read the list it overwrites.
  const double others = list_elements - first_list;
  const double written = rule == Rule::kConcatenate ? list_elements : first_list;
  const double read = rule == Rule::kListCopy ? others : list_elements;
  std::string formula = rule == Rule::kConcatenate ? "every list read, all written"
                        : rule == Rule::kListCopy  ? "the other lists read, the first written"
                                                   : "every list read, the first written";
  if (t.empty()) {
    if (!list_element_bytes.stated()) return std::nullopt;
    const double first_size = list_element_bytes.first, others_size = list_element_bytes.others;
    formula += first_size == others_size
                   ? fmt::format(", {} B per element as its kernel's name says", first_size)
                   : fmt::format(
                         ", {} B per element of the first list and {} B of the others as "
                         "its kernel's name says",
                         first_size, others_size);
    const double read_bytes = rule == Rule::kListCopy
                                  ? others * others_size
                                  : first_list * first_size + others * others_size;
    const double written_bytes = rule == Rule::kConcatenate ? read_bytes : first_list * first_size;
    return Traffic{read_bytes, written_bytes, 0, "", std::move(formula)};
  }
  const std::string& type = a.args[t[0]].type;
  const std::optional<int> size = flops::ElementSize(type);
  if (!size) return std::nullopt;
  return Traffic{read * *size, written * *size, IsFloat(type) ? written : 0, type,
                 std::move(formula)};
}

// FBGEMM's (de)quantization (kQuantizations): the first tensor read, its values written in the
// other encoding; the row-wise formats' per-row tail counted on the quantized side. The output's
// type: the op's, or the SparseType its output_dtype argument names (no estimate when that
// argument is recorded without its value).
std::optional<Traffic> Quantized(const Quantization& q, const OpArgs& a, const Tensors& t) {
  if (t.empty() || t[0] != 0) return std::nullopt;
  const OpArg& input = a.args[0];
  const std::optional<double> read = BytesOf(*input.shape, input.type);
  if (!read) return std::nullopt;
  double values = flops::Numel(*input.shape);
  if (q.row_tail_bytes > 0) {
    if (input.shape->empty()) return std::nullopt;
    const int64_t columns = input.shape->back();
    const double rows = columns > 0 ? values / static_cast<double>(columns) : 0;
    const int64_t payload = q.dequantize ? columns - q.row_tail_bytes : columns;
    if (payload <= 0) return std::nullopt;
    values = rows * static_cast<double>(payload);
    if (!q.dequantize) values += rows * q.row_tail_bytes;  // the tail's bytes, 1 byte per value
  }
  std::string written_type(q.written_type);
  if (q.output_dtype_arg > 0 && q.output_dtype_arg < a.args.size()) {
    written_type = SparseTypeName(a.args[q.output_dtype_arg].concrete);
  }
  const std::optional<double> written = BytesOf(values, written_type);
  if (!written) return std::nullopt;
  if (q.dequantize) {
    return Traffic{*read, *written, values, written_type,
                   "quantized input read, its values written"};
  }
  return Traffic{*read, *written, 0, input.type, "input read, its values written quantized"};
}

// A concrete number ("238", "-1", "0.5"); `integral` says whether it was written as an integer.
std::optional<double> ConcreteNumber(const OpArgs& a, size_t i, bool* integral) {
  if (const std::optional<int64_t> n = flops::ConcreteInt(a, i)) {
    return static_cast<double>(*n);
  }
  *integral = false;
  if (i >= a.args.size()) return std::nullopt;
  const std::string& text = a.args[i].concrete;
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) {
    return std::nullopt;
  }
  return value;
}

// arange's overloads, told apart by their argument count: (end, dtype, layout, device,
// pin_memory), (start, end, dtype, ...), (start, end, step, dtype, ...), (end, out) and
// (start, end, step, out). It writes ceil((end - start) / step) values (ATen's RangeFactories) of
// the out tensor's type, else of the dtype named, else (None) int64 when start, end and step are
// all integers; a floating-point range without a dtype takes the default dtype, which the trace
// does not record: no estimate.
std::optional<Traffic> Arange(const OpArgs& a, const Tensors& t) {
  const size_t n = a.args.size();
  const bool has_out = n == 2 || n == 4;
  const bool has_start = n == 4 || n == 6 || n == 7;
  const bool has_step = n == 4 || n == 7;
  if (!has_out && n != 5 && !has_start) return std::nullopt;
  bool integral = true;
  const size_t end_arg = has_start ? 1 : 0;
  const std::optional<double> start = has_start ? ConcreteNumber(a, 0, &integral) : 0.0;
  const std::optional<double> end = ConcreteNumber(a, end_arg, &integral);
  const std::optional<double> step = has_step ? ConcreteNumber(a, 2, &integral) : 1.0;
  if (!start || !end || !step || *step == 0) return std::nullopt;
  const double values = std::ceil((*end - *start) / *step);
  if (!(values > 0)) return std::nullopt;
  std::string type;
  if (has_out) {
    if (t.empty() || t.back() != n - 1) return std::nullopt;
    type = a.args[n - 1].type;
  } else {
    type = flops::ScalarTypeName(a.args[end_arg + (has_step ? 2 : 1)].concrete);
    if (type.empty() && integral) type = "long int";
  }
  const std::optional<double> written = BytesOf(values, type);
  if (!written) return std::nullopt;
  return Traffic{0, *written, 0, type, fmt::format("{:.0f} values written", values)};
}

std::optional<Traffic> Apply(Named named, const OpArgs& a, ListElementBytes list_element_bytes) {
  const Tensors t = TensorArgs(a);
  auto tensor = [&](size_t i) { return flops::TensorShape(a, i, false); };
  switch (named.rule) {
    case Rule::kPointwise:
      return Pointwise(a, t, named.in_place);
    case Rule::kFill: {
      if (t.empty()) return std::nullopt;
      const OpArg& first = a.args[t[0]];
      const std::optional<double> w = BytesOf(*first.shape, first.type);
      if (!w) return std::nullopt;
      return Traffic{0, *w, 0, first.type, "output written"};
    }
    case Rule::kCopy: {
      if (t.empty()) return std::nullopt;
      const OpArg& first = a.args[t[0]];
      // copy_(dst, src): src read, dst written; clone(self): self read, a copy written.
      const OpArg& source = t.size() >= 2 && named.in_place ? a.args[t[1]] : first;
      // to(self, dtype, ...), _to_copy(self, dtype, ...) and to(self, device, dtype, ...) write
      // the dtype they name (a ScalarType number in "Concrete Inputs"); else self's type.
      std::string written_type = first.type;
      if (!named.in_place) {
        for (size_t i : {size_t{1}, size_t{2}}) {
          if (i >= a.args.size() || a.args[i].type != "Scalar") continue;
          const std::string type = flops::ScalarTypeName(a.args[i].concrete);
          if (flops::ElementSize(type)) {
            written_type = type;
            break;
          }
        }
      }
      const std::optional<double> r = BytesOf(*source.shape, source.type);
      const std::optional<double> w = BytesOf(*first.shape, written_type);
      if (!r || !w) return std::nullopt;
      return Traffic{*r, *w, 0, written_type, "source read, copy written"};
    }
    case Rule::kRowwise:
      return ReadAllWriteLike(a, t, 0, true, "inputs read, one tensor like the first written");
    case Rule::kEachTensorOnce: {
      if (t.empty()) return std::nullopt;
      const std::optional<double> moved = ReadAll(a, t);
      if (!moved) return std::nullopt;
      return Traffic{*moved, 0, 0, a.args[t[0]].type, "each tensor argument moved once", true};
    }
    case Rule::kPoolBackward:
      return ReadAllWriteLike(a, t, 1, false, "inputs read, the input's gradient written");
    case Rule::kWriteLikeFirst:
      return ReadAllWriteLike(a, t, 0, false, "inputs read, one tensor like the first written");
    case Rule::kPermuteSparse:
    case Rule::kReadOnly: {
      if (t.size() < 2) return std::nullopt;
      const std::optional<double> read = ReadAll(a, t);
      const std::optional<double> permutation = BytesOf(*a.args[t[0]].shape, a.args[t[0]].type);
      if (!read || !permutation) return std::nullopt;
      if (named.rule == Rule::kReadOnly) {
        return Traffic{*read, 0, 0, a.args[t[1]].type, "inputs read, nothing written"};
      }
      return Traffic{*read, *read - *permutation, 0, a.args[t[1]].type,
                     "inputs read, all but the permutation written permuted"};
    }
    case Rule::kQuantize:
      return Quantized(*named.quantization, a, t);
    case Rule::kReduction: {
      if (t.size() >= 2) return Pointwise(a, t, named.in_place);  // max(a, b)
      if (t.empty()) return std::nullopt;
      const OpArg& first = a.args[t[0]];
      const std::optional<double> r = BytesOf(*first.shape, first.type);
      if (!r) return std::nullopt;
      return Traffic{*r, 0, IsFloat(first.type) ? flops::Numel(*first.shape) : 0, first.type,
                     "input read (the reduced output not counted)"};
    }
    case Rule::kEmbedding: {
      const flops::Shape* weight = tensor(0);
      const flops::Shape* indices = tensor(1);
      if (!weight || !indices || weight->size() != 2) return std::nullopt;
      const double rows = flops::Numel(*indices) * static_cast<double>((*weight)[1]);
      const std::optional<double> idx = BytesOf(*indices, a.args[1].type);
      const std::optional<double> out = BytesOf(rows, a.args[0].type);
      if (!idx || !out) return std::nullopt;
      return Traffic{*idx + *out, *out, 0, a.args[0].type,
                     "indices and their rows read, rows written"};
    }
    case Rule::kIndexSelect:
    case Rule::kGather:
    case Rule::kScatter: {
      const flops::Shape* self = tensor(0);
      const flops::Shape* index = tensor(2);
      const std::optional<int64_t> dim = flops::ConcreteInt(a, 1);
      if (!self || !index) return std::nullopt;
      const std::optional<double> idx = BytesOf(*index, a.args[2].type);
      if (!idx) return std::nullopt;
      double moved = 0;  // elements read and written once each
      if (named.rule == Rule::kIndexSelect) {
        if (!dim || self->empty() || index->size() > 1) return std::nullopt;
        const auto rank = static_cast<int64_t>(self->size());
        const int64_t d = *dim < 0 ? *dim + rank : *dim;
        if (d < 0 || d >= rank || (*self)[d] == 0) return std::nullopt;
        moved = flops::Numel(*self) / static_cast<double>((*self)[d]) * flops::Numel(*index);
      } else if (named.rule == Rule::kGather) {
        moved = flops::Numel(*index);
      } else {
        const flops::Shape* source = tensor(3);
        moved = source ? flops::Numel(*source) : flops::Numel(*index);  // scatter(.., value)
      }
      const std::optional<double> bytes = BytesOf(moved, a.args[0].type);
      if (!bytes) return std::nullopt;
      double read = *idx + *bytes, written = *bytes;
      if (named.rule == Rule::kScatter && !named.in_place) {
        // Out of place: self is copied first.
        const std::optional<double> copy = BytesOf(*self, a.args[0].type);
        if (!copy) return std::nullopt;
        read += *copy;
        written += *copy;
      }
      return Traffic{read, written, 0, a.args[0].type, "index and the selected elements moved"};
    }
    case Rule::kIndex:
    case Rule::kIndexPut:
    case Rule::kConcatenate:
    case Rule::kTensorLists:
    case Rule::kListCopy:
      return ListTraffic(a, t, named.rule, list_element_bytes);
    case Rule::kArange:
      return Arange(a, t);
  }
  return std::nullopt;
}

}  // namespace

bool IsTrafficCountedOp(std::string_view op_name) {
  return RuleOf(op_name).has_value();
}

ListElementBytes ListElementBytesOfKernel(std::string_view kernel_name) {
  // PyTorch's cat kernels (CatArrayBatchedCopy and its _contig/_aligned variants, CUDA and ROCm)
  // copy opaque elements of N bytes: OpaqueType<N> or OpaqueType<Nu>.
  if (const size_t at = kernel_name.find("OpaqueType<"); at != std::string_view::npos) {
    int bytes = 0;
    const char* first = kernel_name.data() + at + std::string_view("OpaqueType<").size();
    const char* last = kernel_name.data() + kernel_name.size();
    const auto [end, error] = std::from_chars(first, last, bytes);
    if (error == std::errc() && end != first && bytes >= 1 && bytes <= 16) return {bytes, bytes};
    return {};
  }
  // Tensor-list kernels (multi_tensor_apply_kernel<TensorListMetadata<N>, XFunctor<T, ...>, ...>)
  // run on lists of T. A copy between types, CopyFunctor<To, From, ...> (PyTorch's
  // ForeachBinaryOpList: the functor's first type is the destination's), writes the op's first
  // list in To and reads the other in From.
  const size_t apply = kernel_name.find("multi_tensor_apply_kernel<");
  if (apply == std::string_view::npos) return {};
  const size_t functor = kernel_name.find("Functor<", apply);
  if (functor == std::string_view::npos) return {};
  const size_t begin = functor + std::string_view("Functor<").size();
  auto type_size = [&](size_t from, size_t* end) {
    *end = kernel_name.find_first_of(",>", from);
    if (*end == std::string_view::npos) return 0;
    std::string_view type = kernel_name.substr(from, *end - from);
    while (type.starts_with(' ')) type.remove_prefix(1);
    return flops::ElementSize(type).value_or(0);
  };
  size_t end = 0;
  const int first = type_size(begin, &end);
  if (!kernel_name.substr(0, functor).ends_with("Copy")) return {first, first};
  if (first == 0 || end == std::string_view::npos || kernel_name[end] != ',') return {};
  const int source = type_size(end + 1, &end);
  if (source == 0) return {};
  return {first, source};
}

std::optional<OpWork> EstimateOpTraffic(std::string_view op_name, const OpInputs& inputs,
                                        ListElementBytes list_element_bytes) {
  const std::optional<Named> named = RuleOf(op_name);
  if (!named) return std::nullopt;
  const std::optional<OpArgs> args = flops::ArgsOf(inputs);
  if (!args || !args->has_types) return std::nullopt;
  const std::optional<Traffic> traffic = Apply(*named, *args, list_element_bytes);
  if (!traffic) return std::nullopt;
  const double bytes = traffic->read + traffic->written;
  if (!std::isfinite(bytes) || !std::isfinite(traffic->flops) || bytes <= 0) return std::nullopt;
  OpWork out;
  out.flops = traffic->flops;
  out.bytes = bytes;
  // The FLOPs (if any) run at the tensors' own precision; integer and boolean tensors have none,
  // and are placed at FP32's vector rate, which their zero FLOPs never reach.
  const Precision p = flops::PrecisionOfType(traffic->type);
  out.precision = p == Precision::kUnknown || p == Precision::kInt8 ? Precision::kFp32 : p;
  out.formula = traffic->moved_only
                    ? fmt::format("memory: {} ({:.0f} B)", traffic->formula, bytes)
                    : fmt::format("memory: {} ({:.0f} B read, {:.0f} B written)", traffic->formula,
                                  traffic->read, traffic->written);
  return out;
}

}  // namespace tensormorph
