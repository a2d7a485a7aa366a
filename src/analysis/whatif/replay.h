// The replay of a StepGraph under an edit (docs/whatif.md "Fixes as edits"): every event of a
// step's window in topological order at the latest of its enabled dependencies plus its delay; an
// event left with no dependency keeps its measured time, and so does every event before the
// window (each step is replayed from the state it was measured to start in).
//
// An edit only removes dependencies, shortens weights and shortens delays, and the replay is a
// max-plus recurrence, monotone in all three: no edited replay is later than the unedited one, at
// any event. The edits of several scenarios combine (Merge) into one no shorter than each.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/whatif/step_graph.h"

namespace tensormorph::whatif {

enum EventEditFlag : uint8_t {
  kNoWait = 1,       // a blocking call's end: its wait edge is dropped (the host goes on)
  kGraphLaunch = 2,  // an item's start: released by its step's graph edge, not its launch call
  kFreeHost = 4,     // a host point: the host time before it is 0 (that host code no longer runs)
  kNoCommWait = 8,   // an item's start: no stream or other-stream edge from a collective's end
  kLateStart = 16,   // a collective kernel's start: the other ranks' ends no longer wait for it
  kOnTime = 32,      // a matched collective kernel's end: released by the others' arrivals alone
};

struct GraphEdit {
  // Per event; empty = unchanged. `scale` divides the duration and arrival weights into an item's
  // end event (a speedup); `delay` replaces the graph's delays (never longer).
  std::vector<uint8_t> flags;
  std::vector<double> scale;
  std::vector<int64_t> delay;
  bool empty() const { return !touched_; }
  // The events whose flags, speedup or delay the edit changed (the same in whatever order edits
  // were merged).
  size_t Changed(const StepGraph& graph) const;
  void Flag(const StepGraph& graph, uint32_t event, uint8_t flag);
  void Scale(const StepGraph& graph, uint32_t end_event, double factor);
  void CapDelay(const StepGraph& graph, uint32_t event, int64_t delay_ns);
  // This edit and `other` together: flags joined, speedups multiplied, the shorter delay.
  void Merge(const StepGraph& graph, const GraphEdit& other);

 private:
  bool touched_ = false;
};

// The times of `events` (a subsequence of graph.order) under `edit`, written into `times`, which
// holds every other event's time (the measured time for the events before a step's window: the
// state the step starts from).
void ReplayEvents(const StepGraph& graph, const GraphEdit& edit,
                  const std::vector<uint32_t>& events, std::vector<int64_t>* times);

}  // namespace tensormorph::whatif
