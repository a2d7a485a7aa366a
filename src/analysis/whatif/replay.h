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
#include <utility>
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

// An edit of the graph. Flags are per event (a byte each; empty = none); speedups and delays are
// lists of the events they change, so an edit costs what it changes rather than the graph's size
// (a 1 GB trace has millions of events and a report replays a dozen edits: dense per-event copies
// were most of the findings' memory and time). Applied to a replay by ReplayScratch.
struct GraphEdit {
  std::vector<uint8_t> flags;
  // (end event, factor) in the order they were made: an event's speedup, which divides the
  // duration and arrival weights into it, is the product of its factors in that order.
  std::vector<std::pair<uint32_t, double>> scales;
  // (event, delay), each shorter than the graph's: an event's delay is the least of its entries.
  std::vector<std::pair<uint32_t, int64_t>> delays;
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

// The events some step window holds (step_windows.h), each with a slot: a replay keeps its
// per-event state for these alone (a few percent of a long trace's events when it has steps).
struct WindowSlots {
  static constexpr uint32_t kNone = UINT32_MAX;
  std::vector<uint32_t> events;   // by event number
  std::vector<uint32_t> slot_of;  // per graph event: its index in `events`, or kNone
};

// One worker's state for replaying edits one after another, per windowed event: its time (the
// measured time but for the events replayed since they were put back), and the delay and speedup
// of the edit applied now. Apply writes only the edit's own entries and Restore puts them back:
// no replay copies anything the size of the graph.
class ReplayScratch {
 public:
  ReplayScratch(const StepGraph& graph, const WindowSlots& slots);
  void Apply(const GraphEdit& edit);
  void Restore(const GraphEdit& edit);
  // An event's time: its slot's, or the measured time of an event no window holds.
  int64_t time(uint32_t event) const {
    const uint32_t slot = slots_.slot_of[event];
    return slot == WindowSlots::kNone ? graph_.time[event] : times_[slot];
  }
  // The replay of `events` (a subsequence of graph.order, every one windowed) under the applied
  // `edit`: each event's time from the latest of its enabled dependencies plus its delay; an event
  // left with no dependency keeps its measured time. Events before them keep the times they have.
  void Replay(const GraphEdit& edit, const std::vector<uint32_t>& events);
  // Puts the measured times of `events` back.
  void PutBack(const std::vector<uint32_t>& events);

 private:
  const StepGraph& graph_;
  const WindowSlots& slots_;
  std::vector<int64_t> times_, delay_;  // per slot
  std::vector<double> scale_;           // per slot; empty until an edit has a speedup
};

}  // namespace tensormorph::whatif
