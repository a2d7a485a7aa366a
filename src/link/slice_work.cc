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
std::vector<std::optional<OpWork>> EstimateEach(const Trace& trace, Knows knows,
                                                Estimator estimate) {
  std::vector<std::optional<OpWork>> work(trace.slices.size());
  std::map<std::pair<StringId, OpInputsId>, std::optional<OpWork>> cache;
  std::unordered_map<StringId, bool> known;
  for (size_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.kind != SliceKind::kOp) continue;
    const OpInputs* inputs = trace.inputs_of(s);
    if (inputs == nullptr) continue;
    auto [name, first] = known.try_emplace(s.name, false);
    if (first) name->second = knows(trace.str(s.name));
    if (!name->second) continue;
    auto [it, added] = cache.try_emplace({s.name, s.inputs});
    if (added) it->second = estimate(trace.str(s.name), *inputs);
    work[i] = it->second;
  }
  return work;
}

bool TrafficOnly(std::string_view name) {
  return !IsFlopCountedOp(name) && IsTrafficCountedOp(name);
}

}  // namespace

std::vector<std::optional<OpWork>> EstimateSliceWork(const Trace& trace) {
  ++link_stage::slice_work_computed;
  return EstimateEach(trace, IsFlopCountedOp, EstimateOpWork);
}

std::vector<std::optional<OpWork>> EstimateSliceTraffic(const Trace& trace) {
  return EstimateEach(trace, TrafficOnly, EstimateOpTraffic);
}

}  // namespace tensormorph
