#include "tensormorph/link/steps.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>

#include "link/link_stage_counters.h"

namespace tensormorph {
namespace {

constexpr std::string_view kStepPrefix = "ProfilerStep#";

bool ParseStepNumber(std::string_view name, int64_t* number) {
  if (!name.starts_with(kStepPrefix)) return false;
  name.remove_prefix(kStepPrefix.size());
  auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), *number);
  return ec == std::errc() && end == name.data() + name.size();
}

template <typename Row>
std::vector<int32_t> StepOfRows(const Trace& trace, const std::vector<Row>& rows,
                                const std::vector<WorkLink>& links,
                                const std::vector<Step>& steps) {
  std::vector<int32_t> step_of(rows.size(), -1);
  if (steps.empty()) return step_of;
  for (size_t i = 0; i < rows.size(); ++i) {
    const uint32_t launch = i < links.size() ? links[i].launch : kNoRow;
    const int64_t t = launch != kNoRow ? trace.api_calls[launch].start_ns : rows[i].start_ns;
    step_of[i] = StepIndexAt(steps, t);
  }
  return step_of;
}

}  // namespace

int32_t StepIndexAt(const std::vector<Step>& steps, int64_t time_ns) {
  auto after = std::upper_bound(steps.begin(), steps.end(), time_ns,
                                [](int64_t t, const Step& s) { return t < s.start_ns; });
  if (after == steps.begin()) return -1;
  const Step& step = *(after - 1);
  return time_ns <= step.end_ns ? static_cast<int32_t>(after - 1 - steps.begin()) : -1;
}

std::vector<Step> FindSteps(const Trace& trace) {
  ++link_stage::steps_computed;
  std::map<uint32_t, std::vector<Step>> by_track;
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& slice = trace.slices[i];
    int64_t number = 0;
    if (slice.kind != SliceKind::kUserAnnotation) continue;
    if (!ParseStepNumber(trace.str(slice.name), &number)) continue;
    by_track[slice.track].push_back({number, slice.start_ns, slice.end_ns(), i});
  }
  std::vector<Step> best;
  for (auto& [track, steps] : by_track) {
    if (steps.size() > best.size()) best = std::move(steps);
  }
  // Slices of one track are already ordered by start.
  return best;
}

std::vector<int32_t> StepOfKernels(const Trace& trace, const TraceLinks& links,
                                   const std::vector<Step>& steps) {
  return StepOfRows(trace, trace.kernels, links.kernels, steps);
}

std::vector<int32_t> StepOfTransfers(const Trace& trace, const TraceLinks& links,
                                     const std::vector<Step>& steps) {
  return StepOfRows(trace, trace.transfers, links.transfers, steps);
}

}  // namespace tensormorph
