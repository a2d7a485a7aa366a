// Convolutions. FLOPs follow torch.utils.flop_counter.conv_flop_count:
//   regular:    2 * N * Cout * prod(output spatial) * (Cin/groups) * prod(kernel)
//   transposed: 2 * N * prod(input spatial) * Cin * (Cout/groups) * prod(kernel)
// (the weight is [Cout, Cin/groups, k...] for a regular convolution and [Cin, Cout/groups, k...]
// for a transposed one, so both are 2 * N * points * weight[0] * weight[1] * prod(kernel)). The
// output size, needed for the regular formula and for bytes, comes from stride, padding, dilation
// (and output_padding) in "Concrete Inputs"; without them nothing is estimated.
#include <fmt/format.h>

#include <cmath>

#include "link/op_formulas.h"

namespace tensormorph::flops {
namespace {

constexpr int kNone = -1;

// Argument positions, from native_functions.yaml (cudnn_convolution has padding before stride
// and no bias since PyTorch 1.8; miopen_convolution keeps the bias).
struct ConvSchema {
  const char* name;
  int bias, stride, padding, dilation, groups;
  int transposed;      // index of the bool, or kNone
  int output_padding;  // kNone: not an argument (0)
  bool always_transposed;
  int spatial;      // required spatial rank; 0 = any
  bool functional;  // conv1d/2d/3d, conv_transpose*d: unbatched input and "same"/"valid"
};

constexpr ConvSchema kSchemas[] = {
    {"aten::convolution", 2, 3, 4, 5, 8, 6, 7, false, 0, false},
    {"aten::_convolution", 2, 3, 4, 5, 8, 6, 7, false, 0, false},
    {"aten::conv1d", 2, 3, 4, 5, 6, kNone, kNone, false, 1, true},
    {"aten::conv2d", 2, 3, 4, 5, 6, kNone, kNone, false, 2, true},
    {"aten::conv3d", 2, 3, 4, 5, 6, kNone, kNone, false, 3, true},
    {"aten::conv_transpose1d", 2, 3, 4, 7, 6, kNone, 5, true, 1, true},
    {"aten::conv_transpose2d", 2, 3, 4, 7, 6, kNone, 5, true, 2, true},
    {"aten::conv_transpose3d", 2, 3, 4, 7, 6, kNone, 5, true, 3, true},
    {"aten::cudnn_convolution", kNone, 3, 2, 4, 5, kNone, kNone, false, 0, false},
    {"aten::miopen_convolution", 2, 4, 3, 5, 6, kNone, kNone, false, 0, false},
};

// Before PyTorch 1.8 cudnn_convolution took (self, weight, bias?, padding, stride, dilation,
// groups, ...); told apart by whether argument 2 holds an int list.
constexpr ConvSchema kOldCudnn = {
    "aten::cudnn_convolution", 2, 4, 3, 5, 6, kNone, kNone, false, 0, false};

const ConvSchema* FindSchema(std::string_view op) {
  for (const ConvSchema& s : kSchemas) {
    if (op == s.name) return &s;
  }
  return nullptr;
}

std::string ListText(const std::vector<int64_t>& v) {
  return ShapeText(v);
}

}  // namespace

std::optional<Work> ConvWork(std::string_view op, const OpArgs& a) {
  const ConvSchema* s = FindSchema(op);
  if (!s) return std::nullopt;
  const Shape* x = TensorShape(a, 0, false);
  const Shape* w = TensorShape(a, 1, false);
  if (!x || !w || w->size() < 3) return std::nullopt;
  const size_t n_sp = w->size() - 2;
  if (s->spatial && n_sp != static_cast<size_t>(s->spatial)) return std::nullopt;
  if (op == "aten::cudnn_convolution" && !ConcreteIntList(a, 2, n_sp)) s = &kOldCudnn;
  const bool unbatched = s->functional && x->size() == w->size() - 1;
  if (x->size() != w->size() && !unbatched) return std::nullopt;
  Shape in = unbatched ? Shape{1} : Shape{};
  in.insert(in.end(), x->begin(), x->end());  // [N, C, spatial...]

  bool transposed = s->always_transposed;
  if (s->transposed != kNone) {
    std::optional<bool> t = ConcreteBool(a, s->transposed);
    if (!t) return std::nullopt;
    transposed = *t;
  }
  auto stride = ConcreteIntList(a, s->stride, n_sp);
  auto dilation = ConcreteIntList(a, s->dilation, n_sp);
  auto groups = ConcreteInt(a, s->groups);
  std::vector<int64_t> out_pad(n_sp, 0);
  if (transposed && s->output_padding != kNone) {
    auto op_list = ConcreteIntList(a, s->output_padding, n_sp);
    if (!op_list) return std::nullopt;
    out_pad = *op_list;
  }
  // conv{1,2,3}d also accept padding="same" (output size = input size, stride 1 only) / "valid".
  const std::string& pad_text =
      a.args.size() > static_cast<size_t>(s->padding) ? a.args[s->padding].concrete : std::string();
  const bool same = s->functional && !transposed && pad_text == "same";
  std::optional<std::vector<int64_t>> padding = (s->functional && (same || pad_text == "valid"))
                                                    ? std::vector<int64_t>(n_sp, 0)
                                                    : ConcreteIntList(a, s->padding, n_sp);
  if (!stride || !dilation || !groups || !padding || *groups < 1) return std::nullopt;

  const int64_t batch = in[0], c_in = in[1], g = *groups;
  const Shape kernel(w->begin() + 2, w->end());
  Shape out{batch, 0};
  Shape spatial_in(in.begin() + 2, in.end());
  for (size_t i = 0; i < n_sp; ++i) {
    int64_t st = (*stride)[i], d = (*dilation)[i], p = (*padding)[i], k = kernel[i];
    if (st < 1 || d < 1 || p < 0 || out_pad[i] < 0) return std::nullopt;
    if (same && st != 1) return std::nullopt;
    // Double arithmetic: these sizes come from a trace and may be absurd.
    double size = transposed ? (spatial_in[i] - 1.0) * st - 2.0 * p + d * (k - 1.0) + out_pad[i] + 1
                  : same     ? static_cast<double>(spatial_in[i])
                             : std::floor((spatial_in[i] + 2.0 * p - d * (k - 1.0) - 1) / st) + 1;
    if (!(size >= 1) || size > 9.2e18) return std::nullopt;  // ATen rejects an empty output
    out.push_back(static_cast<int64_t>(size));
  }

  Work work;
  const double per_point = 2.0 * (*w)[0] * (*w)[1] * Numel(kernel);
  if (transposed) {
    if ((*w)[0] != c_in || c_in % g != 0) return std::nullopt;
    out[1] = (*w)[1] * g;
    work.flops = batch * Numel(spatial_in) * per_point;
    work.formula = fmt::format(
        "2*N*prod(in)*Cin*(Cout/groups)*prod(kernel) (transposed; N={}, in={}, Cin={}, "
        "Cout/groups={}, kernel={})",
        batch, ListText(spatial_in), (*w)[0], (*w)[1], ListText(kernel));
  } else {
    if ((*w)[1] * g != c_in || (*w)[0] % g != 0) return std::nullopt;
    out[1] = (*w)[0];
    Shape spatial_out(out.begin() + 2, out.end());
    work.flops = batch * Numel(spatial_out) * per_point;
    work.formula = fmt::format(
        "2*N*Cout*prod(out)*(Cin/groups)*prod(kernel) (N={}, Cout={}, out={}, Cin/groups={}, "
        "kernel={})",
        batch, (*w)[0], ListText(spatial_out), (*w)[1], ListText(kernel));
  }
  if (unbatched) out.erase(out.begin());
  work.output = std::move(out);
  work.operands = {0, 1};
  if (s->bias != kNone) {
    const Shape* bias = TensorShape(a, s->bias, true);
    if (bias) {
      if (bias->size() != 1 || (*bias)[0] != work.output[unbatched ? 0 : 1]) return std::nullopt;
      work.operands.push_back(s->bias);
    }
  }
  return work;
}

// convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
// transposed, output_padding, groups, output_mask): past grad_output, its arguments are
// convolution's. Like torch.utils.flop_counter.conv_backward_flop, each gradient output_mask asks
// for (grad_input, grad_weight) costs the forward convolution's FLOPs; the bias gradient is not
// counted. Bytes: grad_output, input and weight read, each asked-for gradient written (the weight
// listed twice in `operands` when its gradient is written, in its own type).
std::optional<Work> ConvBackwardWork(std::string_view, const OpArgs& a) {
  if (a.args.size() < 11) return std::nullopt;
  OpArgs forward = a;
  forward.args.erase(forward.args.begin());
  std::optional<Work> work = ConvWork("aten::convolution", forward);
  const Shape* grad_output = TensorShape(a, 0, false);
  if (!work || !grad_output || *grad_output != work->output) return std::nullopt;
  const std::optional<std::vector<bool>> output_mask = ConcreteBoolList(a, 10, 3);
  if (!output_mask) return std::nullopt;
  const std::vector<bool>& mask = *output_mask;
  const std::string& mask_text = a.args[10].concrete;
  const int gradients = (mask[0] ? 1 : 0) + (mask[1] ? 1 : 0);
  if (gradients == 0) return std::nullopt;
  work->flops *= gradients;
  work->formula = fmt::format("{} x ({}; output_mask {})", gradients, work->formula, mask_text);
  work->operands = {0, 1, 2};
  work->output = mask[0] ? *TensorShape(a, 1, false) : *TensorShape(a, 2, false);
  if (mask[0] && mask[1]) work->operands.push_back(2);
  work->first_operand = 1;
  return work;
}

}  // namespace tensormorph::flops
