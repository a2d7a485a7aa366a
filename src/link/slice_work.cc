#include "link/slice_work.h"

#include <map>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "link/link_stage_counters.h"

namespace tensormorph {

namespace {

using Estimator = std::optional<OpWork> (*)(std::string_view, const OpInputs&, ListElementBytes);
using Knows = bool (*)(std::string_view);

// Per op slice, the element sizes its kernels' names state for its tensor lists
// (ListElementBytesOfKernel), where they state them and agree: kernels linked to the op
// (WorkLink::op of origin kOp). Each kernel name is read once.
std::unordered_map<uint32_t, ListElementBytes> ListElementBytesOfOps(const Trace& trace,
                                                                     const TraceLinks& links) {
  std::unordered_map<StringId, ListElementBytes> of_name;
  std::unordered_map<uint32_t, ListElementBytes> out;  // {}: kernels that disagree
  for (size_t k = 0; k < trace.kernels.size() && k < links.kernels.size(); ++k) {
    const WorkLink& link = links.kernels[k];
    if (link.origin != WorkOrigin::kOp || link.op == kNoRow) continue;
    const StringId name = trace.kernels[k].name;
    auto [bytes, first] = of_name.try_emplace(name);
    if (first) bytes->second = ListElementBytesOfKernel(trace.str(name));
    if (!bytes->second.stated()) continue;
    auto [slot, added] = out.try_emplace(link.op, bytes->second);
    if (!added && slot->second != bytes->second) slot->second = {};
  }
  std::erase_if(out, [](const auto& entry) { return !entry.second.stated(); });
  return out;
}

// Each op call's estimate, computed once per distinct (name, inputs, list element sizes); whether
// a name is known is asked once per name.
SliceWork EstimateEach(const Trace& trace, Knows knows, Estimator estimate,
                       const std::unordered_map<uint32_t, ListElementBytes>& list_element_bytes) {
  SliceWork work(trace.slices.size());
  std::map<std::tuple<StringId, OpInputsId, ListElementBytes>, uint32_t>
      cache;  // -> estimate, or kNone
  std::unordered_map<StringId, bool> known;
  for (size_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.kind != SliceKind::kOp) continue;
    const OpInputs* inputs = trace.inputs_of(s);
    if (inputs == nullptr) continue;
    auto [name, first] = known.try_emplace(s.name, false);
    if (first) name->second = knows(trace.str(s.name));
    if (!name->second) continue;
    ListElementBytes list_bytes;
    if (!list_element_bytes.empty()) {
      const auto found = list_element_bytes.find(static_cast<uint32_t>(i));
      if (found != list_element_bytes.end()) list_bytes = found->second;
    }
    auto [it, added] = cache.try_emplace({s.name, s.inputs, list_bytes}, SliceWork::kNone);
    if (added) {
      if (std::optional<OpWork> w = estimate(trace.str(s.name), *inputs, list_bytes)) {
        it->second = work.Add(std::move(*w));
      }
    }
    if (it->second != SliceWork::kNone) work.Set(i, it->second);
  }
  return work;
}

std::optional<OpWork> FlopWork(std::string_view name, const OpInputs& inputs, ListElementBytes) {
  return EstimateOpWork(name, inputs);
}

bool TrafficOnly(std::string_view name) {
  return !IsFlopCountedOp(name) && IsTrafficCountedOp(name);
}

}  // namespace

SliceWork EstimateSliceWork(const Trace& trace) {
  ++link_stage::slice_work_computed;
  return EstimateEach(trace, IsFlopCountedOp, FlopWork, {});
}

SliceWork EstimateSliceTraffic(const Trace& trace, const TraceLinks& links) {
  return EstimateEach(trace, TrafficOnly, EstimateOpTraffic, ListElementBytesOfOps(trace, links));
}

}  // namespace tensormorph
