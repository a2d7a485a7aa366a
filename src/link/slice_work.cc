#include "link/slice_work.h"

#include <map>
#include <unordered_map>
#include <utility>

#include "link/link_stage_counters.h"

namespace tensormorph {

namespace {

using Estimator = std::optional<OpWork> (*)(std::string_view, const OpInputs&);
using Knows = bool (*)(std::string_view);

// Each op call's estimate, computed once per distinct (name, inputs); whether a name is known is
// asked once per name.
SliceWork EstimateEach(const Trace& trace, Knows knows, Estimator estimate) {
  SliceWork work(trace.slices.size());
  std::map<std::pair<StringId, OpInputsId>, uint32_t> cache;  // -> estimate, or kNone
  std::unordered_map<StringId, bool> known;
  for (size_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.kind != SliceKind::kOp) continue;
    const OpInputs* inputs = trace.inputs_of(s);
    if (inputs == nullptr) continue;
    auto [name, first] = known.try_emplace(s.name, false);
    if (first) name->second = knows(trace.str(s.name));
    if (!name->second) continue;
    auto [it, added] = cache.try_emplace({s.name, s.inputs}, SliceWork::kNone);
    if (added) {
      if (std::optional<OpWork> w = estimate(trace.str(s.name), *inputs)) {
        it->second = work.Add(std::move(*w));
      }
    }
    if (it->second != SliceWork::kNone) work.Set(i, it->second);
  }
  return work;
}

bool TrafficOnly(std::string_view name) {
  return !IsFlopCountedOp(name) && IsTrafficCountedOp(name);
}

}  // namespace

SliceWork EstimateSliceWork(const Trace& trace) {
  ++link_stage::slice_work_computed;
  return EstimateEach(trace, IsFlopCountedOp, EstimateOpWork);
}

SliceWork EstimateSliceTraffic(const Trace& trace) {
  return EstimateEach(trace, TrafficOnly, EstimateOpTraffic);
}

}  // namespace tensormorph
