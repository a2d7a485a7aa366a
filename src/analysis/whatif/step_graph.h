// The event graph the what-if simulator replays (docs/whatif.md "The graph"): one graph over the
// ranks walked together (a job, or one input), its events in the job's aligned clock.
//
// Events: each runtime call's start and end and each ProfilerStep's start and end, chained per
// host thread in time order; each device item's (kernel, memcpy, memset) start and end. Edges
// (weights are measured costs, fixed by the trace):
//   host      the previous point of the same thread -> the next: the host time between them (for a
//             blocking call's end: only the part after the waited item ended);
//   wait      the waited device item's end -> a blocking call's end: its return latency;
//   launch    a launch call's start -> its item's start (0);
//   stream    the stream predecessor's end -> an item's start (0);
//   other     the other-stream item that released it (critical-path's rule 2) -> its start (0);
//   duration  an item's start -> its end: its duration (a matched collective: its transfer);
//   arrival   every rank's kernel of a matched collective: start -> the end of each rank's kernel
//             of it, weight its transfer (the last to arrive releases the transfer);
//   graph     (off unless an edit turns it on) the first launch of the item's step on its rank ->
//             its start: the step launched as one graph.
// Each event also keeps its `delay`: its measured time minus the latest of its dependencies
// (never negative); an event with no dependency keeps its measured time. The replay (replay.h)
// recomputes every time from its dependencies plus its delay, so with no change every event
// lands where it was measured unless the trace contradicts an edge (an item starting before its
// launch call, or before its stream predecessor ended): then `contradictions` counts them.
//
// Invariant: `order` is a topological order of the edges (graph edges included); edges that
// close a cycle (clocks that contradict the dependencies across ranks) are dropped and counted.
#pragma once

#include <climits>
#include <cstdint>
#include <optional>
#include <vector>

#include "analysis/job/rank_work.h"
#include "tensormorph/analysis/job/collectives.h"

namespace tensormorph::whatif {

enum class EdgeKind : uint8_t {
  kHost,
  kWait,
  kLaunch,
  kStream,
  kOther,
  kDuration,
  kArrival,
  kGraph
};

// The weight of an edge dropped because it closed a cycle: the replay skips it.
inline constexpr int64_t kDroppedWeight = INT64_MIN;

// 16 bytes: a 1 GB trace has tens of millions.
struct Edge {
  int64_t weight = 0;
  uint32_t from = 0;
  EdgeKind kind = EdgeKind::kHost;
};

// One rank of the group: its work and where its events are numbered.
struct GraphRank {
  const RankWork* work = nullptr;
  int input = 0;
  std::optional<int64_t> label;  // the rank, for a rank of a job
  int64_t offset_ns = 0;         // raw time - offset = the group's clock
  uint32_t first_item = 0;       // event of item i's start: first_item + 2 i (end: + 1)
  uint32_t first_call = 0;       // event of api_calls row c's start: first_call + 2 c (end: + 1)
  uint32_t first_step = 0;       // event of steps()[s]'s start: first_step + 2 s (end: + 1)
  // Per steps() index: the event of the first launch call of an item launched in it, or kNoRow.
  std::vector<uint32_t> first_launch_of_step;
};

struct StepGraph {
  std::vector<GraphRank> ranks;
  std::vector<int64_t> time;        // measured, per event
  std::vector<int64_t> delay;       // per event (see above)
  std::vector<uint8_t> collective;  // per event: 1 for a collective kernel's start and end
  // Edges into event e: edges[in_begin[e], in_end[e]), in the order they were added (one run per
  // event; the runs are in the order the builder made them, not by event).
  std::vector<uint32_t> in_begin, in_end;
  std::vector<Edge> edges;
  std::vector<uint32_t> order;  // topological
  size_t contradictions = 0;    // edges the measured times contradict
  size_t dropped_cycle_edges = 0;

  size_t events() const { return time.size(); }
  uint32_t ItemStart(size_t rank, uint32_t item) const { return ranks[rank].first_item + 2 * item; }
  uint32_t CallStart(size_t rank, uint32_t call) const { return ranks[rank].first_call + 2 * call; }
  uint32_t StepStart(size_t rank, size_t step) const {
    return ranks[rank].first_step + 2 * static_cast<uint32_t>(step);
  }
};

// The kind of the edge that released `event` in the measured graph (its latest dependency, graph
// edges and dropped edges aside); none when it has no dependency.
std::optional<EdgeKind> ReleasingEdge(const StepGraph& graph, uint32_t event);

// The graph over `ranks` (their work, input, label and offset set; the event numbering is filled
// in here). `collectives`: AnalyzeCollectives of the same ranks in the same order, or null.
StepGraph BuildStepGraph(std::vector<GraphRank> ranks,
                         const std::vector<CollectiveInstance>* collectives);

}  // namespace tensormorph::whatif
