#include "link/slice_work.h"

#include <map>
#include <utility>

#include "link/link_stage_counters.h"

namespace tensormorph {

std::vector<std::optional<OpWork>> EstimateSliceWork(const Trace& trace) {
  ++link_stage::slice_work_computed;
  std::vector<std::optional<OpWork>> work(trace.slices.size());
  std::map<std::pair<StringId, OpInputsId>, std::optional<OpWork>> cache;
  for (size_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    const OpInputs* inputs = trace.inputs_of(s);
    if (s.kind != SliceKind::kOp || inputs == nullptr || !IsFlopCountedOp(trace.str(s.name)))
      continue;
    auto [it, added] = cache.try_emplace({s.name, s.inputs});
    if (added) it->second = EstimateOpWork(trace.str(s.name), *inputs);
    work[i] = it->second;
  }
  return work;
}

}  // namespace tensormorph
