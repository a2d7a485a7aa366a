#include "import/common/hlo_ops.h"

#include <fmt/format.h>

#include <set>
#include <unordered_map>

namespace tensormorph::xplane {

void HloOpIndex::Add(uint64_t correlation, std::string_view hlo_op, std::string_view hlo_module,
                     Trace* trace) {
  if (correlation == 0 || hlo_op.empty() || by_correlation_.count(correlation)) return;
  by_correlation_.emplace(correlation,
                          HloOp{trace->strings.Intern(hlo_op), trace->strings.Intern(hlo_module)});
}

uint64_t HloOpIndex::AddOpSlices(Trace* trace) const {
  // An op is named by its HLO instruction alone, as XLA's trace viewer names its "XLA Ops" rows;
  // instruction names are unique within a module. Only an instruction name that occurs in two
  // modules is written "module/instruction", so that their kernels are not added together.
  std::unordered_map<StringId, std::set<StringId>> modules_of;
  for (const auto& [correlation, hlo] : by_correlation_) modules_of[hlo.op].insert(hlo.module);
  std::unordered_map<uint64_t, StringId> name_of;  // (op << 32 | module) -> slice name
  auto slice_name = [&](const HloOp& hlo) {
    if (modules_of[hlo.op].size() < 2 || hlo.module == 0) return hlo.op;
    const uint64_t key = uint64_t{hlo.op} << 32 | hlo.module;
    auto it = name_of.find(key);
    if (it == name_of.end()) {
      it = name_of
               .emplace(key, trace->strings.Intern(
                                 fmt::format("{}/{}", trace->str(hlo.module), trace->str(hlo.op))))
               .first;
    }
    return it->second;
  };
  uint64_t added = 0;
  const size_t calls = trace->api_calls.size();
  for (size_t i = 0; i < calls; ++i) {
    const ApiCall call = trace->api_calls[i];
    if (call.link.correlation == 0) continue;
    auto it = by_correlation_.find(call.link.correlation);
    if (it == by_correlation_.end()) continue;
    Slice op;
    op.start_ns = call.start_ns;
    op.duration_ns = call.duration_ns;
    op.name = slice_name(it->second);
    op.track = call.track;
    op.kind = SliceKind::kOp;
    trace->slices.push_back(op);
    ++added;
  }
  if (added > 0) trace->metadata["xla_op_slices"] = fmt::format("{}", added);
  return added;
}

}  // namespace tensormorph::xplane
