// Attention. FLOPs follow torch.utils.flop_counter.sdpa_flop_count: the two batched matmuls
// Q@K^T ([Lq, D] x [D, Lk]) and P@V ([Lq, Lk] x [Lk, Dv]) per batch and query head,
//   2*B*H*Lq*Lk*D + 2*B*H*Lq*Lk*Dv.
// Like torch, causal masking is not discounted (a causal kernel skips about half of the score
// matrix, but which half it skips depends on the kernel), and softmax, scaling and dropout are not
// counted. Grouped-query attention (fewer K/V heads than query heads) is counted per query head,
// which is what the kernels compute.
//
// Layouts: scaled_dot_product_attention and the _scaled_dot_product_* ops take [B, H, L, D];
// _flash_attention_forward takes [B, L, H, D] (torch's counter passes those shapes to
// sdpa_flop_count unpermuted; here they are read in their real layout). Variable-length
// _flash_attention_forward (cum_seq_q given, 3-D inputs) needs the sequence offsets, which a
// trace does not record, so it is not estimated.
#include <fmt/format.h>

#include <array>

#include "link/op_formulas.h"

namespace tensormorph::flops {
namespace {

struct AttentionSchema {
  const char* name;
  bool blhd;      // [B, L, H, D] instead of [B, H, L, D]
  int mask;       // index of attn_mask/attn_bias, -1 if none
  int varlen;     // index of cum_seq_q, -1 if none
  bool allow_3d;  // scaled_dot_product_attention also takes [B, L, D]
};

constexpr AttentionSchema kSchemas[] = {
    {"aten::scaled_dot_product_attention", false, 3, -1, true},
    {"aten::_scaled_dot_product_flash_attention", false, -1, -1, false},
    {"aten::_scaled_dot_product_efficient_attention", false, 3, -1, false},
    {"aten::_scaled_dot_product_cudnn_attention", false, 3, -1, false},
    {"aten::_flash_attention_forward", true, -1, 3, false},
};

// {B, H, L, D} from a tensor in the schema's layout; 3-D inputs have one head.
std::optional<std::array<int64_t, 4>> Bhld(const Shape& s, const AttentionSchema& schema) {
  if (s.size() == 3 && schema.allow_3d) return std::array<int64_t, 4>{s[0], 1, s[1], s[2]};
  if (s.size() != 4) return std::nullopt;
  if (schema.blhd) return std::array<int64_t, 4>{s[0], s[2], s[1], s[3]};
  return std::array<int64_t, 4>{s[0], s[1], s[2], s[3]};
}

}  // namespace

std::optional<Work> AttentionWork(std::string_view op, const OpArgs& a) {
  const AttentionSchema* schema = nullptr;
  for (const AttentionSchema& s : kSchemas) {
    if (op == s.name) schema = &s;
  }
  if (!schema) return std::nullopt;
  if (schema->varlen >= 0 && TensorShape(a, schema->varlen, true)) return std::nullopt;
  const Shape* qs = TensorShape(a, 0, false);
  const Shape* ks = TensorShape(a, 1, false);
  const Shape* vs = TensorShape(a, 2, false);
  if (!qs || !ks || !vs || qs->size() != ks->size() || qs->size() != vs->size()) {
    return std::nullopt;
  }
  auto q = Bhld(*qs, *schema), k = Bhld(*ks, *schema), v = Bhld(*vs, *schema);
  if (!q || !k || !v) return std::nullopt;
  const auto [b, h, lq, d] = *q;
  const int64_t hk = (*k)[1], lk = (*k)[2], dv = (*v)[3];
  if ((*k)[0] != b || (*v)[0] != b || (*k)[3] != d || (*v)[1] != hk || (*v)[2] != lk || hk < 1 ||
      h % hk != 0) {
    return std::nullopt;
  }
  Work work;
  const double scores = 2.0 * b * h * lq * lk;
  work.flops = scores * d + scores * dv;
  work.formula =
      fmt::format("2*B*H*Lq*Lk*D + 2*B*H*Lq*Lk*Dv (B={}, H={}, Lq={}, Lk={}, D={}, Dv={}{})", b, h,
                  lq, lk, d, dv, hk != h ? fmt::format(", KV heads={}", hk) : std::string());
  work.output = *qs;  // same layout as the query, with Dv last
  work.output.back() = dv;
  work.operands = {0, 1, 2};
  if (schema->mask >= 0 && TensorShape(a, schema->mask, true)) {
    work.operands.push_back(schema->mask);
  }
  return work;
}

}  // namespace tensormorph::flops
