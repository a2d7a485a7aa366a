#include "analysis/timeline/step_timeline.h"

#include <algorithm>

#include "analysis/common/intervals.h"

namespace tensormorph {

std::vector<StepTimeline> StepsOnDevice(const std::vector<Step>& steps,
                                        const std::vector<int32_t>& step_of_kernels,
                                        const std::vector<int32_t>& step_of_transfers,
                                        const std::vector<WorkItem>& work) {
  std::vector<std::vector<Interval>> by_step(steps.size());
  for (const WorkItem& w : work) {
    const std::vector<int32_t>& table =
        w.kind == WorkKind::kKernel ? step_of_kernels : step_of_transfers;
    if (w.row >= table.size()) continue;
    const int32_t step = table[w.row];
    if (step < 0 || static_cast<size_t>(step) >= steps.size()) continue;
    by_step[step].push_back(w.interval());
  }
  std::vector<StepTimeline> out;
  out.reserve(steps.size());
  for (size_t s = 0; s < steps.size(); ++s) {
    StepTimeline row;
    row.number = steps[s].number;
    row.host_ns = steps[s].end_ns - steps[s].start_ns;
    row.work_count = by_step[s].size();
    const std::vector<Interval> merged = MergeIntervals(std::move(by_step[s]));
    row.device_busy_ns = TotalLength(merged);
    if (!merged.empty()) {
      row.device_start_ns = merged.front().start_ns;
      row.device_end_ns = merged.back().end_ns;
    }
    out.push_back(row);
  }
  return out;
}

}  // namespace tensormorph
