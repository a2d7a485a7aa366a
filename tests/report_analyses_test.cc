// The report's analyses share work the commands do alone: one timeline at the findings' shorter
// gap threshold serves the page and the findings (WithLongerGaps), and the what-if graphs are
// built beside the findings. What the page shows must still be what `tensormorph timeline` and
// `tensormorph findings` print for the same traces: checked here, on one input and on a job of
// two ranks (collectives, aligned clocks), against the commands' own library paths.
#include "tensormorph/analysis/report/report_analyses.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/analysis/whatif/whatif.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

std::vector<Trace> Load(const std::vector<std::string>& paths) {
  std::vector<Trace> traces;
  for (const std::string& path : paths) {
    StatusOr<Trace> trace = LoadTrace(path, {});
    EXPECT_TRUE(trace.ok()) << path << ": " << trace.status().message();
    traces.push_back(trace.ok() ? std::move(*trace) : Trace());
  }
  return traces;
}

const std::vector<std::vector<std::string>>& Cases() {
  static const std::vector<std::vector<std::string>> cases = {
      {TM_SHARED_DATA "/kineto/hta/nccl_2rank_rank0_a100.json.gz"},
      {TM_SHARED_DATA "/kineto/hta/multirank_sampled/sampled_rank-0.json.gz",
       TM_SHARED_DATA "/kineto/hta/multirank_sampled/sampled_rank-1.json.gz"},
  };
  return cases;
}

// Every figure the gap threshold decides, device by device.
void ExpectSameGaps(const TimelineResult& got, const TimelineResult& want, const std::string& at) {
  ASSERT_EQ(got.devices.size(), want.devices.size()) << at;
  for (size_t d = 0; d < want.devices.size(); ++d) {
    const DeviceTimeline& g = got.devices[d];
    const DeviceTimeline& w = want.devices[d];
    EXPECT_EQ(g.gap_total_ns, w.gap_total_ns) << at << " device " << d;
    for (size_t c = 0; c < kGapCauseCount; ++c) {
      EXPECT_EQ(g.gap_causes[c].count, w.gap_causes[c].count) << at << " cause " << c;
      EXPECT_EQ(g.gap_causes[c].total_ns, w.gap_causes[c].total_ns) << at << " cause " << c;
    }
    ASSERT_EQ(g.gaps.size(), w.gaps.size()) << at << " device " << d;
    for (size_t k = 0; k < w.gaps.size(); ++k) {
      EXPECT_EQ(g.gaps[k].start_ns, w.gaps[k].start_ns) << at;
      EXPECT_EQ(g.gaps[k].length_ns, w.gaps[k].length_ns) << at;
      EXPECT_EQ(g.gaps[k].cause, w.gaps[k].cause) << at;
      EXPECT_EQ(g.gaps[k].before, w.gaps[k].before) << at;
      EXPECT_EQ(g.gaps[k].after, w.gaps[k].after) << at;
    }
    EXPECT_EQ(g.busy_ns, w.busy_ns) << at;
  }
}

// The findings in the same order with the same figures, their fixes simulated alike.
void ExpectSameFindings(const FindingsResult& got_result, const FindingsResult& want,
                        const std::string& at) {
  const std::vector<Finding>& got = got_result.findings;
  ASSERT_EQ(got.size(), want.findings.size()) << at;
  size_t simulated = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const Finding& g = got[i];
    const Finding& w = want.findings[i];
    EXPECT_EQ(g.rule, w.rule) << at << " #" << i;
    EXPECT_EQ(g.where.device, w.where.device) << at << " #" << i;
    EXPECT_EQ(g.estimated_gain_ns, w.estimated_gain_ns) << at << " " << w.rule;
    EXPECT_EQ(g.simulated_gain_ns, w.simulated_gain_ns) << at << " " << w.rule;
    EXPECT_EQ(g.simulated_step_ns, w.simulated_step_ns) << at << " " << w.rule;
    EXPECT_EQ(g.severity, w.severity) << at << " " << w.rule;
    if (w.simulated_gain_ns) ++simulated;
  }
  EXPECT_GT(simulated, 0u) << at << ": no finding was simulated";
  EXPECT_EQ(got_result.total_gain_ns, want.total_gain_ns) << at;
}

// The gaps longer than 100 us of a timeline analysed at 10 us are those of one analysed at
// 100 us, with their totals and causes; and the 10 us analysis found more (else this tests
// nothing).
TEST(ReportAnalyses, LongerGapsOfAShorterThresholdAreTheLongerThresholdsGaps) {
  for (const std::vector<std::string>& paths : Cases()) {
    const std::vector<Trace> traces = Load(paths);
    const std::vector<LinkedTrace> linked = LinkTraces(traces);
    TimelineOptions fine;
    fine.min_gap_ns = 10'000;
    TimelineOptions coarse;
    coarse.min_gap_ns = 100'000;
    const TimelineResult at_fine = AnalyzeTimeline(Pointers(linked), fine);
    const TimelineResult at_coarse = AnalyzeTimeline(Pointers(linked), coarse);
    size_t fine_gaps = 0;
    size_t coarse_gaps = 0;
    for (const DeviceTimeline& d : at_fine.devices) fine_gaps += d.gaps.size();
    for (const DeviceTimeline& d : at_coarse.devices) coarse_gaps += d.gaps.size();
    EXPECT_GT(coarse_gaps, 0u) << paths.front();
    EXPECT_GT(fine_gaps, coarse_gaps) << paths.front();
    ExpectSameGaps(WithLongerGaps(at_fine, coarse.min_gap_ns), at_coarse, paths.front());
  }
}

// The report's timeline is `timeline`'s at the page's threshold, and its findings, with each
// fix simulated, are `findings`' (FindSimulatedFindings with the defaults), in the same order.
TEST(ReportAnalyses, PageTimelineAndFindingsAreTheCommandsOwn) {
  for (const std::vector<std::string>& paths : Cases()) {
    const std::vector<Trace> traces = Load(paths);
    const std::vector<LinkedTrace> linked = LinkTraces(traces);
    const ReportAnalyses report = RunReportAnalyses(Pointers(linked), {});

    const std::vector<LinkedTrace> alone = LinkTraces(traces);
    ExpectSameGaps(report.timeline, AnalyzeTimeline(Pointers(alone), TimelineOptions{}),
                   paths.front());
    const FindingsResult want = FindSimulatedFindings(Pointers(alone), FindingsQuery{}, true);
    ExpectSameFindings(report.findings, want, paths.front());
    // SimulateFindings given no graphs builds its own (and analyses the job's collectives).
    FindingsResult unshared = FindFindings(Pointers(alone), FindingsQuery{});
    SimulateFindings(Pointers(alone), false, &unshared);
    ExpectSameFindings(unshared, want, paths.front() + " (graphs built by SimulateFindings)");
  }
}

// A single input's findings read the page's roofline, ops, occupancy and memory instead of
// analysing them again (FindingsQuery::roofline, ops, occupancy, memory): the rules that read them
// (below_roof, fp32_matmul, low_occupancy, dominant_op, memory_fragmentation) find what `findings`
// alone finds, title and figures, ranked alike.
TEST(ReportAnalyses, FindingsOfOneInputReadThePagesWorkAnalyses) {
  std::set<std::string> rules;
  for (const char* name :
       {"/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz",
        "/kineto/param_dlrm_8rank/worker0_step_12.1694128201545.pt.trace.json.gz",
        "/kineto/hta/trace_diff/control.json.gz",
        "/kineto/tracelens_pairs/mi300_timesformer_inference.json.gz"}) {
    const std::string path = std::string(TM_SHARED_DATA) + name;
    const std::vector<Trace> traces = Load({path});
    const std::vector<LinkedTrace> linked = LinkTraces(traces);
    const ReportAnalyses report = RunReportAnalyses(Pointers(linked), {});
    const std::vector<LinkedTrace> alone = LinkTraces(traces);
    const FindingsResult want = FindSimulatedFindings(Pointers(alone), FindingsQuery{}, true);
    ASSERT_EQ(report.findings.findings.size(), want.findings.size()) << path;
    for (size_t i = 0; i < want.findings.size(); ++i) {
      const Finding& g = report.findings.findings[i];
      const Finding& w = want.findings[i];
      EXPECT_EQ(g.rule, w.rule) << path << " #" << i;
      EXPECT_EQ(g.title, w.title) << path << " #" << i;
      EXPECT_EQ(g.where.op, w.where.op) << path << " " << w.rule;
      EXPECT_EQ(g.where.kernel, w.where.kernel) << path << " " << w.rule;
      EXPECT_EQ(g.estimated_gain_ns, w.estimated_gain_ns) << path << " " << w.rule;
      EXPECT_EQ(g.top.size(), w.top.size()) << path << " " << w.rule;
      rules.insert(w.rule);
    }
  }
  for (const char* rule :
       {"below_roof", "fp32_matmul", "low_occupancy", "dominant_op", "memory_fragmentation"}) {
    EXPECT_TRUE(rules.contains(rule)) << rule << " is in none of the traces: nothing tested";
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
