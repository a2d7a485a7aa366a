// GEMMs of the narrow formats and of mixtures of experts. Argument orders:
//   aten::_scaled_mm(self [M,K], mat2 [K,N], scale_a, scale_b, bias?, scale_result?, out_dtype?,
//                    use_fast_accum)                                   (native_functions.yaml)
//   aten::_scaled_grouped_mm(self, mat2, scale_a, scale_b, offs?, bias?, scale_result?,
//                            out_dtype?, use_fast_accum)
//   aten::_grouped_mm(self, mat2, offs?, bias?, out_dtype?)
//   aiter::gemm_a8w8*, aiter::gemm_a4w4(A [M,K], B [N,K], A_scale, B_scale, then the output
//                    tensor, or bias and dtype, depending on the aiter version)
//   _C::cutlass_scaled_mm(out [M,N], a [M,K], b [K,N], a_scales, b_scales, bias?)   (vLLM)
// FP4 travels packed: torch.float4_e2m1fn_x2 (and aiter's older uint8) holds two values per
// element along K, so the product's K is twice the stored one. The output type is the op's
// out_dtype (a ScalarType number in "Concrete Inputs"), not the FP8/FP4 input's.
#include <fmt/format.h>

#include "link/op_formulas.h"

namespace tensormorph::flops {
namespace {

constexpr std::string_view kPackedFp4 = "c10::Float4_e2m1fn_x2";

// Adds the optional tensor operands among `indexes` that the trace recorded.
void AddOptional(const OpArgs& a, std::initializer_list<size_t> indexes, Work* w) {
  for (size_t i : indexes) {
    if (TensorShape(a, i, true) != nullptr) w->operands.push_back(i);
  }
}

// out_dtype at `i`: "" (the first operand's type) when absent or None.
std::string OutDtype(const OpArgs& a, size_t i) {
  return i < a.args.size() ? ScalarTypeName(a.args[i].concrete) : "";
}

}  // namespace

std::optional<Work> ScaledMmWork(std::string_view, const OpArgs& a) {
  const Shape* x = TensorShape(a, 0, false);
  const Shape* y = TensorShape(a, 1, false);
  if (!x || !y || x->size() != 2 || y->size() != 2 || (*x)[1] != (*y)[0]) return std::nullopt;
  const bool fp4 = a.args[0].type == kPackedFp4;
  const int64_t m = (*x)[0], n = (*y)[1], k = (*x)[1] * (fp4 ? 2 : 1);
  Work w{2.0 * m * n * k,
         {0, 1},
         0,
         {m, n},
         "2*M*N*K (" + MnkText(m, n, k) + (fp4 ? "; K = 2 x the packed FP4 dimension)" : ")")};
  AddOptional(a, {2, 3, 4, 5}, &w);
  w.output_type = OutDtype(a, 6);
  if (w.output_type.empty() && fp4) return std::nullopt;  // FP4 output: no element size to give
  return w;
}

// The four layouts torch._grouped_mm accepts: 2D x 3D (groups along M, split by offs), 3D x 3D
// (batched), 2D x 2D (groups along K: one [M, N] output per group), 3D x 2D (groups along N).
std::optional<Work> GroupedMmWork(std::string_view op, const OpArgs& a) {
  const bool scaled = op == "aten::_scaled_grouped_mm";
  const size_t offs_at = scaled ? 4 : 2;
  const Shape* x = TensorShape(a, 0, false);
  const Shape* y = TensorShape(a, 1, false);
  if (!x || !y || x->size() < 2 || x->size() > 3 || y->size() < 2 || y->size() > 3) {
    return std::nullopt;
  }
  const int64_t k = x->back();
  if ((*y)[y->size() - 2] != k) return std::nullopt;
  const int64_t n = y->back();
  Work w;
  w.operands = {0, 1};
  if (x->size() == 2 && y->size() == 3) {
    const int64_t total_m = (*x)[0], groups = (*y)[0];
    w.flops = 2.0 * total_m * n * k;
    w.output = {total_m, n};
    w.formula = fmt::format("2*total_M*N*K ({} groups, {})", groups, MnkText(total_m, n, k));
  } else if (x->size() == 3 && y->size() == 3) {
    const int64_t groups = (*x)[0], m = (*x)[1];
    if ((*y)[0] != groups) return std::nullopt;
    w.flops = 2.0 * groups * m * n * k;
    w.output = {groups, m, n};
    w.formula = fmt::format("2*G*M*N*K (G={}, {})", groups, MnkText(m, n, k));
  } else if (x->size() == 2 && y->size() == 2) {
    const Shape* offs = TensorShape(a, offs_at, true);
    if (!offs || offs->size() != 1) return std::nullopt;  // the group count sizes the output
    const int64_t m = (*x)[0], groups = (*offs)[0];
    w.flops = 2.0 * m * n * k;
    w.output = {groups, m, n};
    w.formula = fmt::format("2*M*N*total_K ({} groups, {})", groups, MnkText(m, n, k));
  } else {
    const int64_t m = (*x)[1], groups = (*x)[0];
    w.flops = 2.0 * m * n * k;
    w.output = {m, n};
    w.formula = fmt::format("2*M*total_N*K ({} groups, {})", groups, MnkText(m, n, k));
  }
  if (scaled) {
    AddOptional(a, {2, 3, 4, 5, 6}, &w);
    w.output_type = OutDtype(a, 7);
  } else {
    AddOptional(a, {2, 3}, &w);
    w.output_type = OutDtype(a, 4);
  }
  return w;
}

// aiter's GEMMs take the weight as [N, K] rows. The output type is the output tensor's when the
// op received one, else the dtype argument, else aiter's default (bf16), which the formula says.
std::optional<Work> WeightRowsGemmWork(std::string_view op, const OpArgs& a) {
  const Shape* x = TensorShape(a, 0, false);
  const Shape* wt = TensorShape(a, 1, false);
  if (!x || !wt || x->empty() || wt->size() != 2 || x->back() != (*wt)[1]) return std::nullopt;
  const bool fp4 = op.find("a4w4") != std::string_view::npos;
  const int64_t n = (*wt)[0], k = x->back() * (fp4 ? 2 : 1);
  double m = 1;
  for (size_t i = 0; i + 1 < x->size(); ++i) m *= static_cast<double>((*x)[i]);
  const auto rows = static_cast<int64_t>(m);
  Work w{2.0 * m * n * k,
         {0, 1},
         0,
         {rows, n},
         "2*M*N*K (" + MnkText(rows, n, k) + (fp4 ? "; K = 2 x the packed FP4 dimension" : "")};
  if (fp4) w.precision = Precision::kFp4;
  AddOptional(a, {2, 3}, &w);
  const Shape* fifth = TensorShape(a, 4, true);
  if (fifth && *fifth == w.output) {  // the output tensor: written, not read
    w.output_type = a.args[4].type;
  } else {
    if (fifth) w.operands.push_back(4);  // bias
    for (size_t i : {4, 5}) {
      if (w.output_type.empty() && TensorShape(a, i, true) == nullptr) {
        w.output_type = OutDtype(a, i);
      }
    }
  }
  if (w.output_type.empty()) {
    w.output_type = "c10::BFloat16";
    w.formula += "; output bf16, aiter's default";
  }
  w.formula += ")";
  return w;
}

std::optional<Work> CutlassScaledMmWork(std::string_view, const OpArgs& a) {
  const Shape* out = TensorShape(a, 0, false);
  const Shape* x = TensorShape(a, 1, false);
  const Shape* y = TensorShape(a, 2, false);
  if (!out || !x || !y || x->size() != 2 || y->size() != 2 || (*x)[1] != (*y)[0]) {
    return std::nullopt;
  }
  const int64_t m = (*x)[0], k = (*x)[1], n = (*y)[1];
  if (*out != Shape{m, n}) return std::nullopt;
  Work w{2.0 * m * n * k, {1, 2}, 1, {m, n}, "2*M*N*K (" + MnkText(m, n, k) + ")"};
  AddOptional(a, {3, 4, 5}, &w);
  w.output_type = a.args[0].type;
  return w;
}

}  // namespace tensormorph::flops
