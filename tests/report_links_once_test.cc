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
#include "tensormorph/analysis/profile/build.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

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
  const ReportAnalyses analyses = RunReportAnalyses(Pointers(linked), {});
  const std::string page = RenderReport(Pointers(linked), analyses, &diff, {});
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
  ReportAnalysesQuery side_by_side;
  ReportAnalysesQuery one_after_another;
  one_after_another.concurrent = false;
  one_after_another.timeline.concurrent = false;

  const LinkStageRuns before = LinkStageRunCounts();
  const std::vector<LinkedTrace> first = LinkTraces(traces, {.concurrent = true});
  const std::string concurrent_page =
      RenderReport(Pointers(first), RunReportAnalyses(Pointers(first), side_by_side), nullptr, {});
  const LinkStageRuns runs = Since(before);
  EXPECT_EQ(runs.links, 2u);
  EXPECT_EQ(runs.steps, 2u);
  EXPECT_EQ(runs.slice_work, 2u);

  const std::vector<LinkedTrace> second = LinkTraces(traces);
  const std::string sequential_page = RenderReport(
      Pointers(second), RunReportAnalyses(Pointers(second), one_after_another), nullptr, {});
  EXPECT_GT(sequential_page.size(), 100'000u);
  EXPECT_TRUE(concurrent_page == sequential_page) << "the pages differ";
}

// LinkOptions::concurrent builds the indexes and links the kernels' two halves on two threads;
// the links are those of one thread, row by row, on traces from several importers (graph
// replays, External-id fallbacks, Nsight's correlations, ROCm).
TEST(LinkStage, ConcurrentLinksAreTheSequentialOnes) {
  for (const char* path :
       {TM_SHARED_DATA "/kineto/param_dlrm_8rank/worker0_step_12.1694128201545.pt.trace.json.gz",
        TM_SHARED_DATA "/kineto/tracelens/rocm_sglang_qwen3-8b_decode_hipgraph.json.gz",
        TM_SHARED_DATA "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz",
        TM_SHARED_DATA "/kineto/hta_cudagraph/a100_ws16_cudagraph_triton_rank0.json.gz",
        TM_SHARED_DATA "/nvidia/nsys_sqlite/nsysai_h100_2gpu_1s_2026.2.sqlite",
        TM_SHARED_DATA "/kineto/tracelens_pairs/mi300_qwen1.5-0.5b_inference.json.gz"}) {
    const Trace trace = Load(path);
    ASSERT_FALSE(trace.kernels.empty()) << path;
    const TraceLinks one = LinkTrace(trace, false);
    const TraceLinks two = LinkTrace(trace, true);
    auto same = [](const std::vector<WorkLink>& a, const std::vector<WorkLink>& b) {
      if (a.size() != b.size()) return false;
      for (size_t i = 0; i < a.size(); ++i) {
        if (a[i].launch != b[i].launch || a[i].op != b[i].op || a[i].origin != b[i].origin ||
            a[i].graph != b[i].graph || a[i].by_external_id != b[i].by_external_id) {
          return false;
        }
      }
      return true;
    };
    EXPECT_TRUE(same(one.kernels, two.kernels)) << path;
    EXPECT_TRUE(same(one.transfers, two.transfers)) << path;
    EXPECT_EQ(one.slice_parent, two.slice_parent) << path;
    EXPECT_EQ(one.duplicate_correlations, two.duplicate_correlations) << path;
    size_t launched = 0;
    for (const WorkLink& l : one.kernels) launched += l.launch != kNoRow;
    EXPECT_GT(launched, 0u) << path;  // the comparison is over real links
  }
}

// Prepare computes the parts an analysis needs side by side, each once.
TEST(LinkStage, PrepareComputesEachPartOnce) {
  const Trace trace = Load(TM_SHARED_DATA "/kineto/hta/nccl_2rank_rank0_a100.json.gz");
  const LinkStageRuns before = LinkStageRunCounts();
  const LinkedTrace linked(trace, {.concurrent = true});
  linked.Prepare({LinkedPart::kSteps, LinkedPart::kSliceWork});
  linked.Prepare({LinkedPart::kLinks, LinkedPart::kSliceWork, LinkedPart::kSteps});
  const LinkStageRuns runs = Since(before);
  EXPECT_EQ(runs.links, 1u);
  EXPECT_EQ(runs.steps, 1u);
  EXPECT_EQ(runs.slice_work, 1u);
  EXPECT_EQ(linked.slice_work().size(), trace.slices.size());
  EXPECT_FALSE(linked.steps().empty());
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

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
