#include "analysis/flops/slice_work.h"

#include <map>
#include <utility>

namespace tensormorph {

std::vector<std::optional<OpWork>> EstimateSliceWork(const Trace& trace) {
  std::vector<std::optional<OpWork>> work(trace.slices.size());
  std::map<std::pair<StringId, StringId>, std::optional<OpWork>> cache;
  for (size_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.kind != SliceKind::kOp || s.inputs == 0 || !IsFlopCountedOp(trace.str(s.name))) continue;
    auto [it, added] = cache.try_emplace({s.name, s.inputs});
    if (added) it->second = EstimateOpWork(trace.str(s.name), trace.str(s.inputs));
    work[i] = it->second;
  }
  return work;
}

}  // namespace tensormorph
