#include "analysis/whatif/step_graph.h"

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

#include "model/trace_order.h"

namespace tensormorph::whatif {
namespace {

// A point of a host thread's chain. At one time: the ends of calls that took time, then starts,
// then the ends of zero-length calls (so that every call starts before it ends).
struct HostPoint {
  int64_t time = 0;
  int order = 0;
  uint32_t event = 0;
  bool operator<(const HostPoint& o) const {
    return std::tie(time, order, event) < std::tie(o.time, o.order, o.event);
  }
};

int EndOrder(int64_t duration_ns) {
  return duration_ns > 0 ? 0 : 2;
}

// Builds the graph's edges in place: every event's edges are added in one run (a host point's wait
// and host edges together, an item start's launch, stream, other and graph edges together, an
// item end's collective or duration edges together), so in_begin/in_end point into the edges in
// the order they were made and no second copy sorted by event is needed (a 1 GB trace has
// millions of edges: the copy was most of the graph's peak memory). An edge into an event whose
// run has ended (a kernel in two matched collectives) is kept aside and regrouped at the end.
class GraphBuilder {
 public:
  explicit GraphBuilder(StepGraph* graph) : g_(*graph) {}

  void Number() {
    uint32_t next = 0;
    for (GraphRank& r : g_.ranks) {
      const RankWork& work = *r.work;
      r.first_item = next;
      next += 2 * static_cast<uint32_t>(work.items().size());
      r.first_call = next;
      next += 2 * static_cast<uint32_t>(work.trace().api_calls.size());
      r.first_step = next;
      next += 2 * static_cast<uint32_t>(work.linked().steps().size());
    }
    g_.time.assign(next, 0);
    g_.collective.assign(next, 0);
    g_.in_begin.assign(next, kNoRun);
    g_.in_end.assign(next, 0);
    duration_set_.assign(next, 0);
    // At most five edges into an item's start and end (launch, stream, other, graph, duration)
    // and two into a host point (host, wait): reserved once, the edges of a 1 GB trace (tens of
    // millions) are not copied as the vectors grow. The collectives' arrival edges may add more.
    size_t bound = 0;
    for (const GraphRank& r : g_.ranks) {
      const size_t items = r.work->items().size();
      const size_t host_points =
          size_t{r.first_step} - r.first_call + 2 * r.work->linked().steps().size();
      bound += 5 * items + 2 * host_points;
    }
    g_.edges.reserve(bound);
  }

  void AddRank(size_t rank) {
    const GraphRank& r = g_.ranks[rank];
    const RankWork& work = *r.work;
    const Trace& trace = work.trace();
    const std::vector<PathItem>& items = work.items();
    for (uint32_t i = 0; i < items.size(); ++i) {
      const uint32_t start = g_.ItemStart(rank, i);
      g_.time[start] = items[i].start_ns - r.offset_ns;
      g_.time[start + 1] = items[i].end_ns - r.offset_ns;
      g_.collective[start] = g_.collective[start + 1] = items[i].collective ? 1 : 0;
    }
    for (uint32_t c = 0; c < trace.api_calls.size(); ++c) {
      const ApiCall& call = trace.api_calls[c];
      const uint32_t start = g_.CallStart(rank, c);
      g_.time[start] = call.start_ns - r.offset_ns;
      g_.time[start + 1] = call.start_ns + call.duration_ns - r.offset_ns;
    }
    const std::vector<Step>& steps = work.linked().steps();
    for (size_t s = 0; s < steps.size(); ++s) {
      const uint32_t start = g_.StepStart(rank, s);
      g_.time[start] = steps[s].start_ns - r.offset_ns;
      g_.time[start + 1] = steps[s].end_ns - r.offset_ns;
    }
    AddHostChains(rank);
    AddItemEdges(rank);
  }

  void AddCollectives(const std::vector<CollectiveInstance>& collectives) {
    for (const CollectiveInstance& c : collectives) {
      if (c.ranks.size() != g_.ranks.size() || c.ranks.size() < 2) continue;
      std::vector<uint32_t> starts;  // by rank position
      for (size_t r = 0; r < c.ranks.size(); ++r) {
        const uint32_t item = g_.ranks[r].work->ItemOfKernel(c.ranks[r].kernel);
        if (item == kNoRow) break;
        starts.push_back(g_.ItemStart(r, item));
      }
      if (starts.size() != c.ranks.size()) continue;
      int64_t last = INT64_MIN;  // the last arrival, aligned
      for (uint32_t s : starts) last = std::max(last, g_.time[s]);
      for (uint32_t own : starts) {
        const uint32_t end = own + 1;
        const int64_t begin = std::clamp(last, g_.time[own], g_.time[end]);
        const int64_t transfer = g_.time[end] - begin;
        duration_set_[own] = 1;
        Add(end, own, transfer, EdgeKind::kDuration);
        for (uint32_t other : starts) {
          if (other != own) Add(end, other, transfer, EdgeKind::kArrival);
        }
      }
    }
  }

  void AddDurations() {
    for (size_t r = 0; r < g_.ranks.size(); ++r) {
      const size_t n = g_.ranks[r].work->items().size();
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t start = g_.ItemStart(r, i);
        if (duration_set_[start] == 0) {
          Add(start + 1, start, g_.time[start + 1] - g_.time[start], EdgeKind::kDuration);
        }
      }
    }
  }

  void Finish() {
    // Events no edge goes into: an empty run.
    for (size_t e = 0; e < g_.events(); ++e) {
      if (g_.in_begin[e] == kNoRun) g_.in_begin[e] = g_.in_end[e] = 0;
    }
    if (!late_.empty()) Regroup();
    Delays();
    Order();
  }

 private:
  // Each event's edges are added in one run (see the class comment); an edge into an event whose
  // run has ended waits in `late_` for Regroup.
  void Add(uint32_t to, uint32_t from, int64_t weight, EdgeKind kind) {
    Edge edge;
    edge.weight = weight;
    edge.from = from;
    edge.kind = kind;
    if (to != last_to_) {
      if (g_.in_begin[to] != kNoRun) {
        late_.emplace_back(to, edge);
        return;
      }
      g_.in_begin[to] = static_cast<uint32_t>(g_.edges.size());
      last_to_ = to;
    }
    g_.edges.push_back(edge);
    g_.in_end[to] = static_cast<uint32_t>(g_.edges.size());
  }

  // Only where an event's edges came in two runs: every event's edges copied into one run each,
  // its run's first, then its late ones in the order added.
  void Regroup() {
    std::vector<uint32_t> late_count(g_.events(), 0);
    for (const auto& [to, edge] : late_) ++late_count[to];
    std::vector<Edge> edges;
    edges.reserve(g_.edges.size() + late_.size());
    std::vector<uint32_t> begin(g_.events()), end(g_.events());
    std::vector<uint32_t> late_at(g_.events());  // where each event's late edges go next
    for (uint32_t e = 0; e < g_.events(); ++e) {
      begin[e] = static_cast<uint32_t>(edges.size());
      edges.insert(edges.end(), g_.edges.begin() + g_.in_begin[e], g_.edges.begin() + g_.in_end[e]);
      late_at[e] = static_cast<uint32_t>(edges.size());
      edges.resize(edges.size() + late_count[e]);
      end[e] = static_cast<uint32_t>(edges.size());
    }
    for (const auto& [to, edge] : late_) edges[late_at[to]++] = edge;
    g_.edges = std::move(edges);
    g_.in_begin = std::move(begin);
    g_.in_end = std::move(end);
    late_ = {};
  }

  // Each host thread's points in time order, chained. The calls are walked one track's run at a
  // time (the table's order), each run's points sorted only when its calls nest or overlap; the
  // steps' points (a few) join their track's run.
  void AddHostChains(size_t rank) {
    const GraphRank& r = g_.ranks[rank];
    const RankWork& work = *r.work;
    const Trace& trace = work.trace();
    std::map<uint32_t, std::vector<HostPoint>> step_points;  // by track
    const std::vector<Step>& steps = work.linked().steps();
    for (size_t s = 0; s < steps.size(); ++s) {
      const uint32_t track = trace.slices[steps[s].slice].track;
      const uint32_t start = g_.StepStart(rank, s);
      std::vector<HostPoint>& points = step_points[track];
      points.push_back({g_.time[start], 1, start});
      points.push_back(
          {g_.time[start + 1], EndOrder(steps[s].end_ns - steps[s].start_ns), start + 1});
    }
    // The end event of the device item each blocking call (by api_calls row) waited for.
    std::vector<uint32_t> waited_of_call(trace.api_calls.size(), kNoRow);
    for (const auto& [track, calls] : work.BlockingCallsByTrack()) {
      for (const BlockingCall& b : calls) waited_of_call[b.call] = g_.ItemStart(rank, b.waited) + 1;
    }
    const TrackOrder call_order(trace.api_calls);
    std::vector<HostPoint> points;
    size_t c = 0;
    auto steps_left = step_points.begin();
    while (c < trace.api_calls.size() || steps_left != step_points.end()) {
      // The next track: of the calls' next run, or of steps on a track with no call before it.
      const bool calls_next =
          c < trace.api_calls.size() && (steps_left == step_points.end() ||
                                         trace.api_calls[call_order[c]].track <= steps_left->first);
      const uint32_t track = calls_next ? trace.api_calls[call_order[c]].track : steps_left->first;
      points.clear();
      for (; c < trace.api_calls.size() && trace.api_calls[call_order[c]].track == track; ++c) {
        const uint32_t row = call_order[c];
        const ApiCall& call = trace.api_calls[row];
        if (!work.OwnsTrack(call.track)) continue;
        const uint32_t start = g_.CallStart(rank, row);
        points.push_back({g_.time[start], 1, start});
        points.push_back({g_.time[start + 1], EndOrder(call.duration_ns), start + 1});
      }
      if (!std::is_sorted(points.begin(), points.end())) std::sort(points.begin(), points.end());
      if (steps_left != step_points.end() && steps_left->first == track) {
        std::vector<HostPoint>& more = steps_left->second;
        std::sort(more.begin(), more.end());
        const auto calls_end = static_cast<std::ptrdiff_t>(points.size());
        points.insert(points.end(), more.begin(), more.end());
        std::inplace_merge(points.begin(), points.begin() + calls_end, points.end());
        ++steps_left;
      }
      ChainHostPoints(r, points, waited_of_call);
    }
  }

  void ChainHostPoints(const GraphRank& r, const std::vector<HostPoint>& points,
                       const std::vector<uint32_t>& waited_of_call) {
    for (size_t k = 0; k < points.size(); ++k) {
      const uint32_t e = points[k].event;
      // A call's end event is odd, relative to the rank's first call event.
      const bool call_end = e >= r.first_call && e < r.first_step && (e - r.first_call) % 2 == 1;
      const uint32_t waited = call_end ? waited_of_call[(e - r.first_call) / 2] : kNoRow;
      const int64_t back = waited != kNoRow ? g_.time[e] - g_.time[waited]  // its return latency
                                            : INT64_MAX;
      if (waited != kNoRow) Add(e, waited, back, EdgeKind::kWait);
      if (k == 0) continue;
      const int64_t gap = points[k].time - points[k - 1].time;
      Add(e, points[k - 1].event, std::min(gap, back), EdgeKind::kHost);
    }
  }

  void AddItemEdges(size_t rank) {
    GraphRank& r = g_.ranks[rank];
    const RankWork& work = *r.work;
    const Trace& trace = work.trace();
    const std::vector<PathItem>& items = work.items();
    // Each step's first launch, before any edge: an item's graph edge goes into its start with
    // its other edges (one run per event).
    auto own_launch = [&](const PathItem& item) {
      return item.launch != kNoRow && item.launch < trace.api_calls.size() &&
             work.OwnsTrack(trace.api_calls[item.launch].track);
    };
    r.first_launch_of_step.assign(work.linked().steps().size(), kNoRow);
    for (const PathItem& item : items) {
      if (item.step < 0 || !own_launch(item)) continue;
      const uint32_t launch = g_.CallStart(rank, item.launch);
      uint32_t& first = r.first_launch_of_step[static_cast<size_t>(item.step)];
      if (first == kNoRow || g_.time[launch] < g_.time[first]) first = launch;
    }
    for (uint32_t i = 0; i < items.size(); ++i) {
      const PathItem& item = items[i];
      const uint32_t start = g_.ItemStart(rank, i);
      int64_t released = INT64_MIN;  // critical-path's R: the launch's and predecessor's release
      if (own_launch(item)) {
        const uint32_t launch = g_.CallStart(rank, item.launch);
        Add(start, launch, 0, EdgeKind::kLaunch);
        released = g_.time[launch];
      }
      if (item.predecessor != kNoRow) {
        const uint32_t pred_end = g_.ItemStart(rank, item.predecessor) + 1;
        Add(start, pred_end, 0, EdgeKind::kStream);
        released = std::max(released, std::min(g_.time[pred_end], g_.time[start]));
      }
      if (const std::optional<uint32_t> other = work.LatestOtherStreamBefore(i)) {
        const uint32_t other_end = g_.ItemStart(rank, *other) + 1;
        if (g_.time[other_end] > released) Add(start, other_end, 0, EdgeKind::kOther);
      }
      // The graph edge, off until an edit turns it on: from the step's first launch.
      if (item.step >= 0 && item.launch != kNoRow) {
        const uint32_t first = r.first_launch_of_step[static_cast<size_t>(item.step)];
        if (first != kNoRow) Add(start, first, 0, EdgeKind::kGraph);
      }
    }
  }

  void Delays() {
    g_.delay.assign(g_.events(), 0);
    for (uint32_t e = 0; e < g_.events(); ++e) {
      int64_t base = INT64_MIN;
      for (uint32_t k = g_.in_begin[e]; k < g_.in_end[e]; ++k) {
        const Edge& edge = g_.edges[k];
        if (edge.kind == EdgeKind::kGraph) continue;
        base = std::max(base, g_.time[edge.from] + edge.weight);
      }
      if (base == INT64_MIN) continue;  // no dependency: the event keeps its measured time
      if (g_.time[e] < base) {
        ++g_.contradictions;
      } else {
        g_.delay[e] = g_.time[e] - base;
      }
    }
  }

  // A topological order. Most graphs have no cycle: a depth-first walk up the in-edges finds one
  // (each event after everything it depends on) with a byte of state per event, where Kahn's
  // algorithm needs the out-edges laid out (tens of MB on a 1 GB trace). Where the walk meets a
  // cycle, Kahn's algorithm decides which edges to drop.
  void Order() {
    if (!OrderWithoutCycles()) OrderDroppingCycles();
  }

  // The walk: false, with no order, when an edge closes a cycle. Events are started in number
  // order; the path may run back along a whole host thread's chain once (8 bytes a point), never
  // over an event twice.
  bool OrderWithoutCycles() {
    const size_t n = g_.events();
    enum : uint8_t { kNew, kOnPath, kDone };
    std::vector<uint8_t> state(n, kNew);
    struct Frame {
      uint32_t event, next_edge;
    };
    std::vector<Frame> path;
    g_.order.clear();
    g_.order.reserve(n);
    for (uint32_t root = 0; root < n; ++root) {
      if (state[root] != kNew) continue;
      state[root] = kOnPath;
      path.push_back({root, g_.in_begin[root]});
      while (!path.empty()) {
        Frame& top = path.back();
        if (top.next_edge == g_.in_end[top.event]) {
          state[top.event] = kDone;
          g_.order.push_back(top.event);
          path.pop_back();
          continue;
        }
        const uint32_t from = g_.edges[top.next_edge++].from;
        if (state[from] == kOnPath) {
          g_.order.clear();
          return false;
        }
        if (state[from] == kNew) {
          state[from] = kOnPath;
          path.push_back({from, g_.in_begin[from]});
        }
      }
    }
    return true;
  }

  // Kahn's algorithm; when only cycles remain, the earliest remaining event goes next and its
  // edges from events not yet placed are dropped.
  void OrderDroppingCycles() {
    const size_t n = g_.events();
    std::vector<uint32_t> pending(n, 0);
    std::vector<uint32_t> out_begin(n + 1, 0);
    for (const Edge& edge : g_.edges) ++out_begin[edge.from + 1];
    for (size_t e = 0; e < n; ++e) out_begin[e + 1] += out_begin[e];
    std::vector<uint32_t> out(g_.edges.size());
    {
      std::vector<uint32_t> fill(out_begin.begin(), out_begin.end() - 1);
      for (uint32_t e = 0; e < n; ++e) {
        for (uint32_t k = g_.in_begin[e]; k < g_.in_end[e]; ++k) {
          out[fill[g_.edges[k].from]++] = e;
          ++pending[e];
        }
      }
    }
    g_.order.clear();
    g_.order.reserve(n);
    std::vector<uint8_t> placed(n, 0);
    std::vector<uint32_t> ready;
    for (uint32_t e = 0; e < n; ++e) {
      if (pending[e] == 0) ready.push_back(e);
    }
    std::vector<uint32_t> by_time;  // built only if a cycle is met
    size_t next_by_time = 0;
    while (g_.order.size() < n) {
      if (ready.empty()) {
        if (by_time.empty()) {
          by_time.resize(n);
          for (uint32_t e = 0; e < n; ++e) by_time[e] = e;
          std::stable_sort(by_time.begin(), by_time.end(),
                           [this](uint32_t a, uint32_t b) { return g_.time[a] < g_.time[b]; });
        }
        while (placed[by_time[next_by_time]]) ++next_by_time;
        const uint32_t e = by_time[next_by_time];
        for (uint32_t k = g_.in_begin[e]; k < g_.in_end[e]; ++k) {
          Edge& edge = g_.edges[k];
          if (!placed[edge.from] && edge.weight != kDroppedWeight) {
            edge.weight = kDroppedWeight;
            ++g_.dropped_cycle_edges;
          }
        }
        pending[e] = 0;
        ready.push_back(e);
      }
      const uint32_t e = ready.back();
      ready.pop_back();
      if (placed[e]) continue;
      placed[e] = 1;
      g_.order.push_back(e);
      for (uint32_t k = out_begin[e]; k < out_begin[e + 1]; ++k) {
        const uint32_t to = out[k];
        if (!placed[to] && pending[to] > 0 && --pending[to] == 0) ready.push_back(to);
      }
    }
  }

  static constexpr uint32_t kNoRun = UINT32_MAX;  // in_begin of an event no edge went into yet

  StepGraph& g_;
  uint32_t last_to_ = kNoRun;                    // the event whose run the last edge extended
  std::vector<std::pair<uint32_t, Edge>> late_;  // (event, edge) added after its run ended
  std::vector<uint8_t> duration_set_;  // by event: item starts whose duration a collective set
};

}  // namespace

std::optional<EdgeKind> ReleasingEdge(const StepGraph& graph, uint32_t event) {
  std::optional<EdgeKind> kind;
  int64_t best = INT64_MIN;
  for (uint32_t k = graph.in_begin[event]; k < graph.in_end[event]; ++k) {
    const Edge& edge = graph.edges[k];
    if (edge.kind == EdgeKind::kGraph || edge.weight == kDroppedWeight) continue;
    if (const int64_t at = graph.time[edge.from] + edge.weight; !kind || at > best) {
      best = at;
      kind = edge.kind;
    }
  }
  return kind;
}

StepGraph BuildStepGraph(std::vector<GraphRank> ranks,
                         const std::vector<CollectiveInstance>* collectives) {
  StepGraph graph;
  graph.ranks = std::move(ranks);
  GraphBuilder builder(&graph);
  builder.Number();
  for (size_t r = 0; r < graph.ranks.size(); ++r) builder.AddRank(r);
  if (collectives != nullptr) builder.AddCollectives(*collectives);
  builder.AddDurations();
  builder.Finish();
  return graph;
}

}  // namespace tensormorph::whatif
