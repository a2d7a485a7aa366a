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
  // Each event's run within the edges, and the runs disjoint (they add up to all the edges).
  for (uint32_t e = 0; e < doubled.events(); ++e) {
    ASSERT_LE(doubled.in_begin[e], doubled.in_end[e]);
    ASSERT_LE(doubled.in_end[e], doubled.edges.size());
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::whatif
