// XLA op attribution. A JAX kernel carries the HLO instruction that launched it (`hlo_op`, in
// `hlo_module`) and a `correlation_id` shared with the host runtime call that launched it. The
// trace has no host-side op rows of its own, so for every launch call whose correlation names an
// HLO op, an op slice with that name is added spanning exactly the call on its thread: the
// linking stage (src/link) then finds it as the innermost op around the launch, and
// `tensormorph ops` shows HLO ops with their kernels like framework ops. The slices are derived
// rows, not input events: they are not in Trace::counts (metadata "xla_op_slices" says how many).
#pragma once

#include <cstdint>
#include <string_view>
#include <unordered_map>

#include "tensormorph/model/trace.h"

namespace tensormorph::xplane {

class HloOpIndex {
 public:
  // Records the op of a correlation id; the first record of an id wins (host and device events
  // of one launch carry the same op). Ignores correlation 0 and an empty op name.
  void Add(uint64_t correlation, std::string_view hlo_op, std::string_view hlo_module,
           Trace* trace);
  // Adds the op slices (see above) and returns how many; call before sorting the tables.
  uint64_t AddOpSlices(Trace* trace) const;
  bool empty() const { return by_correlation_.empty(); }

 private:
  struct HloOp {
    StringId op = 0, module = 0;
  };
  std::unordered_map<uint64_t, HloOp> by_correlation_;
};

}  // namespace tensormorph::xplane
