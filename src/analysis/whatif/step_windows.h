// The steps `whatif` replays (docs/whatif.md "Steps"): each ProfilerStep number every rank of a
// group has, or the whole trace when they share none, as a window of the graph's events. A window
// runs from the first rank's step start to the latest end of a rank's step or of the device work
// launched in it (critical-path's window); its replay recomputes only the events measured inside
// it, every event before keeping its measured time (the state the step was measured to start in),
// so a fix in one step never shows as a longer next one.
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/whatif/replay.h"
#include "analysis/whatif/step_graph.h"

namespace tensormorph::whatif {

struct StepWindow {
  std::optional<int64_t> number;     // N of ProfilerStep#N; none for the whole trace
  std::vector<int32_t> index;        // per rank: its steps() index (none for the whole trace)
  std::vector<uint32_t> begins;      // events whose earliest is the window's start (none for the
                                     // whole trace: its first item's or outermost op's start)
  std::vector<uint32_t> ends;        // events whose latest is its end
  int64_t begin_ns = 0, end_ns = 0;  // measured
  std::vector<uint32_t> events;      // measured inside it, in topological order
};

std::vector<StepWindow> WindowsOf(const StepGraph& graph);

// The events of `windows`, numbered for a replay's per-event state.
WindowSlots SlotsOf(const StepGraph& graph, const std::vector<StepWindow>& windows);

// A window's length under the event times `time_of(event)`.
template <typename TimeOf>
int64_t LengthOf(const StepWindow& w, TimeOf time_of) {
  // The whole trace begins where it was measured to: nothing before it moves.
  int64_t begin = w.begins.empty() ? w.begin_ns : INT64_MAX, end = INT64_MIN;
  for (uint32_t e : w.begins) begin = std::min<int64_t>(begin, time_of(e));
  for (uint32_t e : w.ends) end = std::max<int64_t>(end, time_of(e));
  return end > begin ? end - begin : 0;
}
int64_t LengthOf(const StepWindow& w, const std::vector<int64_t>& t);

// Each window's length replayed under `edit`; `scratch` (over SlotsOf the same windows) holds the
// measured times and no edit on entry and on return.
std::vector<int64_t> ReplayWindows(const std::vector<StepWindow>& windows, const GraphEdit& edit,
                                   ReplayScratch* scratch);

// Per window: the device start delays beyond the median delay of their (rank, device, releasing
// edge kind), the time no recorded dependency explains.
std::vector<int64_t> UnexplainedPerStep(const StepGraph& graph,
                                        const std::vector<StepWindow>& windows);

}  // namespace tensormorph::whatif
