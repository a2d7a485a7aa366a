// The step graph's edge runs (step_graph.h): each event's edges sit in one run, in the order the
// builder added them, even when an event's edges come from two places. Two ranks of the DLRM job,
// its collectives matched; the graph built again with every collective listed twice must hold, for
// each collective kernel's end, its edges of the first graph twice over (the second listing's
// arrive after the event's run ended and are regrouped), and every other event's edges unchanged.
#include "analysis/whatif/step_graph.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tensormorph/import/importer.h"

namespace tensormorph::whatif {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

struct Job {
  std::vector<Trace> traces;
  std::vector<LinkedTrace> linked;
  JobLayout layout;
  CollectivesResult collectives;
  std::vector<RankWork> works;
};

std::vector<GraphRank> RanksOf(const Job& job) {
  std::vector<GraphRank> ranks;
  for (size_t r = 0; r < job.layout.ranks.size(); ++r) {
    GraphRank& rank = ranks.emplace_back();
    rank.work = &job.works[r];
    rank.input = job.layout.ranks[r].input;
    rank.label = job.layout.ranks[r].rank;
    rank.offset_ns = job.collectives.clocks[r].offset_ns;
  }
  return ranks;
}

std::vector<Edge> EdgesInto(const StepGraph& graph, uint32_t event) {
  return {graph.edges.begin() + graph.in_begin[event], graph.edges.begin() + graph.in_end[event]};
}

bool Same(const std::vector<Edge>& a, const std::vector<Edge>& b) {
  if (a.size() != b.size()) return false;
  for (size_t k = 0; k < a.size(); ++k) {
    if (a[k].from != b[k].from || a[k].weight != b[k].weight || a[k].kind != b[k].kind) {
      return false;
    }
  }
  return true;
}

// Whether `graph.order` holds every event once, each after every event an edge (not dropped) runs
// from into it.
::testing::AssertionResult OrderIsTopological(const StepGraph& graph) {
  if (graph.order.size() != graph.events()) {
    return ::testing::AssertionFailure() << graph.order.size() << " of " << graph.events();
  }
  std::vector<uint32_t> position(graph.events(), UINT32_MAX);
  for (uint32_t k = 0; k < graph.order.size(); ++k) {
    if (position[graph.order[k]] != UINT32_MAX) {
      return ::testing::AssertionFailure() << "event " << graph.order[k] << " twice";
    }
    position[graph.order[k]] = k;
  }
  for (uint32_t e = 0; e < graph.events(); ++e) {
    for (const Edge& edge : EdgesInto(graph, e)) {
      if (edge.weight != kDroppedWeight && position[edge.from] > position[e]) {
        return ::testing::AssertionFailure() << "edge " << edge.from << " -> " << e;
      }
    }
  }
  return ::testing::AssertionSuccess();
}

TEST(StepGraph, EdgesIntoAnEventFromTwoPlacesAreRegroupedInOrder) {
  Job job;
  for (const char* file :
       {"/kineto/param_dlrm_8rank/worker0_step_12.1694128201545.pt.trace.json.gz",
        "/kineto/param_dlrm_8rank/worker1_step_12.1694128201556.pt.trace.json.gz"}) {
    StatusOr<Trace> trace = LoadTrace(std::string(TM_SHARED_DATA) + file, {});
    ASSERT_TRUE(trace.ok()) << file << ": " << trace.status().message();
    job.traces.push_back(std::move(*trace));
  }
  for (const Trace& t : job.traces) job.linked.emplace_back(t);
  job.layout = DescribeJob(TracesOf(Pointers(job.linked)), /*as_job=*/true);
  ASSERT_EQ(job.layout.ranks.size(), 2u);
  job.collectives = AnalyzeCollectives(Pointers(job.linked), job.layout, CollectiveOptions{});
  job.works.reserve(2);
  for (const JobRank& rank : job.layout.ranks) {
    job.works.emplace_back(job.linked[static_cast<size_t>(rank.input)], rank);
  }
  std::vector<CollectiveInstance> twice = job.collectives.collectives;
  twice.insert(twice.end(), job.collectives.collectives.begin(), job.collectives.collectives.end());

  const StepGraph once = BuildStepGraph(RanksOf(job), &job.collectives.collectives);
  const StepGraph doubled = BuildStepGraph(RanksOf(job), &twice);
  ASSERT_EQ(once.events(), doubled.events());
  ASSERT_EQ(once.in_begin.size(), once.events());
  ASSERT_EQ(once.in_end.size(), once.events());

  // The collective kernels' ends: those with an arrival edge in the first graph.
  size_t regrouped = 0;
  size_t edges = 0;
  for (uint32_t e = 0; e < once.events(); ++e) {
    const std::vector<Edge> first = EdgesInto(once, e);
    edges += first.size();
    bool arrival = false;
    for (const Edge& edge : first) arrival = arrival || edge.kind == EdgeKind::kArrival;
    std::vector<Edge> want = first;
    if (arrival) {
      want.insert(want.end(), first.begin(), first.end());
      ++regrouped;
    }
    ASSERT_TRUE(Same(EdgesInto(doubled, e), want)) << "event " << e;
  }
  EXPECT_EQ(edges, once.edges.size()) << "every edge is in exactly one event's run";
  EXPECT_GT(regrouped, 0u) << "no matched collective: the late edges were not exercised";
  EXPECT_TRUE(OrderIsTopological(once));
  EXPECT_TRUE(OrderIsTopological(doubled));
  EXPECT_EQ(once.dropped_cycle_edges, 0u);
  // Each event's run within the edges, and the runs disjoint (they add up to all the edges).
  for (uint32_t e = 0; e < doubled.events(); ++e) {
    ASSERT_LE(doubled.in_begin[e], doubled.in_end[e]);
    ASSERT_LE(doubled.in_end[e], doubled.edges.size());
  }
}

// Times that contradict the dependencies in a cycle: a kernel measured at [40, 58) but launched by
// a call at [100, 110), and a synchronize at [50, 60) before that call which returned when the
// kernel ended. Launch -> kernel start -> end -> the synchronize's end -> (host) -> the launch:
// the earliest event of the cycle, the kernel's start, loses its edge from the launch call, the
// one edge dropped, and the order holds every other edge.
TEST(StepGraph, ACycleDropsTheEdgesIntoItsEarliestEvent) {
  Trace t;
  t.path = "synthetic";
  Device d;
  d.backend = Backend::kCuda;
  t.devices = {d};
  t.tracks = {Track{1, 10, "", "", ""}};
  auto call = [&](const char* name, int64_t start, int64_t duration, uint64_t correlation) {
    ApiCall c;
    c.name = t.strings.Intern(name);
    c.start_ns = start;
    c.duration_ns = duration;
    c.link.correlation = correlation;
    c.track = 0;
    t.api_calls.push_back(c);
  };
  call("cudaDeviceSynchronize", 50, 10, 0);
  call("cudaLaunchKernel", 100, 10, 7);
  Kernel k;
  k.name = t.strings.Intern("gemm");
  k.device = 0;
  k.stream = 7;
  k.start_ns = 40;
  k.duration_ns = 18;
  k.link.correlation = 7;
  t.kernels.push_back(k);
  const LinkedTrace linked(t);
  const RankWork work(linked, JobRank{});
  ASSERT_EQ(work.items().size(), 1u);
  std::vector<GraphRank> ranks(1);
  ranks[0].work = &work;
  const StepGraph graph = BuildStepGraph(std::move(ranks), nullptr);
  EXPECT_EQ(graph.dropped_cycle_edges, 1u);
  const uint32_t kernel_start = graph.ItemStart(0, 0);
  const uint32_t launch_start = graph.CallStart(0, 1);
  size_t dropped = 0;
  for (uint32_t e = 0; e < graph.events(); ++e) {
    for (const Edge& edge : EdgesInto(graph, e)) {
      if (edge.weight != kDroppedWeight) continue;
      ++dropped;
      EXPECT_EQ(e, kernel_start);
      EXPECT_EQ(edge.from, launch_start);
      EXPECT_EQ(edge.kind, EdgeKind::kLaunch);
    }
  }
  EXPECT_EQ(dropped, 1u);
  EXPECT_TRUE(OrderIsTopological(graph));
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::whatif
