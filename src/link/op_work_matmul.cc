// Matrix products: aten::mm, addmm, bmm, baddbmm, matmul, linear. Argument orders follow
// native_functions.yaml: mm(self, mat2), addmm(self=bias, mat1, mat2, beta, alpha),
// bmm(self, mat2), baddbmm(self=bias, batch1, batch2, beta, alpha), matmul(self, other),
// linear(input, weight, bias?). Extra trailing arguments (the out= tensor torch.compile passes to
// mm) are ignored: they are written, not read, and the output is counted once anyway.
#include <fmt/format.h>

#include "link/op_formulas.h"

namespace tensormorph::flops {
namespace {

// Whether `bias` broadcasts to `out` without changing it (what addmm/baddbmm/linear accept).
bool BiasFits(const Shape& bias, const Shape& out) {
  if (bias.size() > out.size()) return false;
  std::optional<Shape> b = Broadcast(bias, out);
  return b && *b == out;
}

}  // namespace

std::string MnkText(int64_t m, int64_t n, int64_t k) {
  return fmt::format("M={}, N={}, K={}", m, n, k);
}

std::optional<Shape> Broadcast(const Shape& a, const Shape& b) {
  Shape out(std::max(a.size(), b.size()));
  for (size_t i = 0; i < out.size(); ++i) {
    int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1) return std::nullopt;
    out[out.size() - 1 - i] = x == 1 ? y : x;
  }
  return out;
}

std::optional<Work> MmWork(std::string_view, const OpArgs& a) {
  const Shape* x = TensorShape(a, 0, false);
  const Shape* y = TensorShape(a, 1, false);
  if (!x || !y || x->size() != 2 || y->size() != 2 || (*x)[1] != (*y)[0]) return std::nullopt;
  int64_t m = (*x)[0], k = (*x)[1], n = (*y)[1];
  return Work{2.0 * m * n * k, {0, 1}, 0, {m, n}, "2*M*N*K (" + MnkText(m, n, k) + ")"};
}

std::optional<Work> AddmmWork(std::string_view op, const OpArgs& a) {
  const Shape* bias = TensorShape(a, 0, false);
  OpArgs mats;
  mats.has_types = a.has_types;
  mats.args.assign(a.args.begin() + std::min<size_t>(1, a.args.size()), a.args.end());
  std::optional<Work> w = MmWork(op, mats);
  if (!bias || !w || !BiasFits(*bias, w->output)) return std::nullopt;
  w->operands = {0, 1, 2};
  w->first_operand = 1;
  return w;
}

std::optional<Work> BmmWork(std::string_view, const OpArgs& a) {
  const Shape* x = TensorShape(a, 0, false);
  const Shape* y = TensorShape(a, 1, false);
  if (!x || !y || x->size() != 3 || y->size() != 3) return std::nullopt;
  int64_t b = (*x)[0], m = (*x)[1], k = (*x)[2], n = (*y)[2];
  if ((*y)[0] != b || (*y)[1] != k) return std::nullopt;
  return Work{2.0 * b * m * n * k,
              {0, 1},
              0,
              {b, m, n},
              fmt::format("2*B*M*N*K (B={}, {})", b, MnkText(m, n, k))};
}

std::optional<Work> BaddbmmWork(std::string_view op, const OpArgs& a) {
  const Shape* bias = TensorShape(a, 0, false);
  OpArgs mats;
  mats.has_types = a.has_types;
  mats.args.assign(a.args.begin() + std::min<size_t>(1, a.args.size()), a.args.end());
  std::optional<Work> w = BmmWork(op, mats);
  if (!bias || !w || !BiasFits(*bias, w->output)) return std::nullopt;
  w->operands = {0, 1, 2};
  w->first_operand = 1;
  return w;
}

// torch.matmul: 1-D operands get a dimension of 1 prepended (left) or appended (right) that is
// dropped from the result; dimensions before the last two broadcast.
std::optional<Work> MatmulWork(std::string_view, const OpArgs& a) {
  const Shape* x = TensorShape(a, 0, false);
  const Shape* y = TensorShape(a, 1, false);
  if (!x || !y || x->empty() || y->empty()) return std::nullopt;
  if (x->size() == 1 && y->size() == 1) {
    if ((*x)[0] != (*y)[0]) return std::nullopt;
    return Work{2.0 * (*x)[0], {0, 1}, 0, {}, fmt::format("2*K (K={})", (*x)[0])};
  }
  Shape xm = x->size() == 1 ? Shape{1, (*x)[0]} : *x;
  Shape ym = y->size() == 1 ? Shape{(*y)[0], 1} : *y;
  int64_t m = xm[xm.size() - 2], k = xm.back(), n = ym.back();
  if (ym[ym.size() - 2] != k) return std::nullopt;
  std::optional<Shape> batch =
      Broadcast(Shape(xm.begin(), xm.end() - 2), Shape(ym.begin(), ym.end() - 2));
  if (!batch) return std::nullopt;
  Shape out = *batch;
  if (x->size() > 1) out.push_back(m);
  if (y->size() > 1) out.push_back(n);
  double b = Numel(*batch);
  std::string text = batch->empty() ? "2*M*N*K (" + MnkText(m, n, k) + ")"
                                    : fmt::format("2*batch*M*N*K (batch={}={:.0f}, {})",
                                                  ShapeText(*batch), b, MnkText(m, n, k));
  return Work{2.0 * b * m * n * k, {0, 1}, 0, std::move(out), std::move(text)};
}

// F.linear(input [..., K], weight [N, K], bias [N]?) -> [..., N].
std::optional<Work> LinearWork(std::string_view, const OpArgs& a) {
  const Shape* x = TensorShape(a, 0, false);
  const Shape* w = TensorShape(a, 1, false);
  const Shape* bias = TensorShape(a, 2, true);
  if (!x || !w || x->empty() || w->size() != 2 || x->back() != (*w)[1]) return std::nullopt;
  int64_t n = (*w)[0], k = (*w)[1];
  Shape batch(x->begin(), x->end() - 1);
  Shape out = batch;
  out.push_back(n);
  if (bias && (bias->size() > 1 || !BiasFits(*bias, {n}))) return std::nullopt;
  double rows = Numel(batch);
  Work work{
      2.0 * rows * n * k,
      {0, 1},
      0,
      std::move(out),
      fmt::format("2*prod(batch)*N*K (batch={}={:.0f}, N={}, K={})", ShapeText(batch), rows, n, k)};
  if (bias) work.operands.push_back(2);
  return work;
}

}  // namespace tensormorph::flops
