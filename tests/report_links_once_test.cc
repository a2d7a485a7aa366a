// The linking stage runs once per input: `tensormorph report` with a baseline trace builds the
// page and the diff from one LinkedTrace per input, however many sections read its links, steps
// and FLOP estimates. This runs what report_command.cc runs, on real traces, and counts the
// stage's computations (LinkStageRunCounts) around it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "report/html/report.h"
#include "tensormorph/analysis/diff/diff.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/linking/linked_trace.h"
#include "tensormorph/analysis/profile/build.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {

Trace Load(const std::string& path) {
  StatusOr<Trace> trace = LoadTrace(path, {});
  EXPECT_TRUE(trace.ok()) << path << ": " << trace.status().message();
  return trace.ok() ? std::move(*trace) : Trace();
}

LinkStageRuns Since(const LinkStageRuns& before) {
  const LinkStageRuns now = LinkStageRunCounts();
  return {now.links - before.links, now.steps - before.steps, now.slice_work - before.slice_work};
}

TEST(LinkStage, ReportWithABaselineTraceLinksEachInputOnce) {
  // Two ranks of the DLRM job against HTA's trace_diff control trace as the baseline.
  std::vector<Trace> traces;
  traces.push_back(Load(TM_SHARED_DATA
                        "/kineto/param_dlrm_8rank/worker0_step_12.1694128201545.pt.trace.json.gz"));
  traces.push_back(Load(TM_SHARED_DATA
                        "/kineto/param_dlrm_8rank/worker1_step_12.1694128201556.pt.trace.json.gz"));
  std::vector<Trace> base_traces;
  base_traces.push_back(Load(TM_SHARED_DATA "/kineto/hta/trace_diff/control.json.gz"));
  ASSERT_FALSE(traces[0].kernels.empty());
  ASSERT_FALSE(base_traces[0].slices.empty());

  const LinkStageRuns before = LinkStageRunCounts();
  const std::vector<LinkedTrace> linked = LinkTraces(traces);
  const std::vector<LinkedTrace> base_linked = LinkTraces(base_traces);
  ReportDiff diff;
  diff.result = DiffProfiles(BuildBaseline(Pointers(base_linked), "test"),
                             BuildBaseline(Pointers(linked), "test"), diff.options);
  const std::string page = RenderReport(Pointers(linked), &diff, ReportPageOptions{});
  const LinkStageRuns runs = Since(before);

  EXPECT_NE(page.find("tensormorph.report/1"), std::string::npos);
  EXPECT_FALSE(diff.result.rows.empty());
  // Three inputs: each part of the stage computed three times, once per input.
  EXPECT_EQ(runs.links, 3u);
  EXPECT_EQ(runs.steps, 3u);
  EXPECT_EQ(runs.slice_work, 3u);
}

// The report's analyses run side by side and the first of them to need a part computes it: still
// once per input, and the page is byte for byte the one the analyses make one after another.
TEST(LinkStage, AnalysesSideBySideLinkOnceAndMakeTheSamePage) {
  std::vector<Trace> traces;
  traces.push_back(Load(TM_SHARED_DATA
                        "/kineto/param_dlrm_8rank/worker0_step_12.1694128201545.pt.trace.json.gz"));
  traces.push_back(Load(TM_SHARED_DATA "/kineto/hta/nccl_2rank_rank0_a100.json.gz"));
  ReportPageOptions side_by_side;
  ReportPageOptions one_after_another;
  one_after_another.concurrent = false;
  one_after_another.timeline.concurrent = false;

  const LinkStageRuns before = LinkStageRunCounts();
  const std::vector<LinkedTrace> first = LinkTraces(traces);
  const std::string concurrent_page = RenderReport(Pointers(first), nullptr, side_by_side);
  const LinkStageRuns runs = Since(before);
  EXPECT_EQ(runs.links, 2u);
  EXPECT_EQ(runs.steps, 2u);
  EXPECT_EQ(runs.slice_work, 2u);

  const std::vector<LinkedTrace> second = LinkTraces(traces);
  const std::string sequential_page = RenderReport(Pointers(second), nullptr, one_after_another);
  EXPECT_GT(sequential_page.size(), 100'000u);
  EXPECT_TRUE(concurrent_page == sequential_page) << "the pages differ";
}

TEST(LinkStage, KernelsNeedNoLinking) {
  const Trace trace = Load(TM_SOURCE_DIR "/examples/nccl_2rank_rank0_a100.json.gz");
  const LinkStageRuns before = LinkStageRunCounts();
  const LinkedTrace linked(trace);
  const KernelSummary kernels = SummarizeKernels({&linked}, {});
  EXPECT_EQ(kernels.kernel_count, trace.kernels.size());
  const LinkStageRuns runs = Since(before);
  EXPECT_EQ(runs.links + runs.steps + runs.slice_work, 0u);
  // The first use computes the links; later uses read them.
  EXPECT_EQ(&linked.links(), &linked.links());
  EXPECT_EQ(linked.links().kernels.size(), trace.kernels.size());
  EXPECT_EQ(Since(before).links, 1u);
}

}  // namespace
}  // namespace tensormorph
