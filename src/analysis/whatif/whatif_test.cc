// The what-if simulator's invariants (whatif.h, docs/whatif.md) on the shared Kineto traces and
// the 8-rank DLRM job, each judged by another analysis or by arithmetic over the result:
//  - with no change the replay reproduces every step (error at most 0.1 %, median 0.05 %), and
//    the measured steps are critical-path's;
//  - no scenario lengthens a step; all fixes together are no longer than the best single one;
//  - speeding every device item up by x shortens a step by at most its compute and transfer time
//    on critical-path's path x (1 - 1/x); on a step whose path holds no device work, by nothing.
#include "tensormorph/analysis/whatif/whatif.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/job/critical_path.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

const std::vector<std::string> kTraces = {
    "/kineto/hta/nccl_2rank_rank0_a100.json.gz",
    "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz",
    "/kineto/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
    "/kineto/hta/trace_diff/test.json.gz",
    "/kineto/hta_cudagraph/a100_ws16_cudagraph_triton_rank0.json.gz",
    "/kineto/hta_more/a100_cuda_event_sync_multi_stream.json.gz",
    "/kineto/legacy/param_rtx2080ti_linear_train.json.gz",
    "/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz",
    "/kineto/tracelens_pairs/mi300_timesformer_inference.json.gz",
    "/kineto/tracelens_more/rocm_sglang_qwen3-8b_prefill_extend.json.gz",
    "/kineto/param_dlrm_8rank",  // the job, as a folder
};

constexpr double kFactor = 4;

struct Loaded {
  std::vector<Trace> traces;
  std::vector<LinkedTrace> linked;
  JobLayout job;
};

Loaded Load(const std::string& relative) {
  Loaded out;
  const std::string path = TM_SHARED_DATA + relative;
  std::vector<std::string> files;
  if (std::filesystem::is_directory(path)) {
    for (const auto& entry : std::filesystem::directory_iterator(path)) {
      files.push_back(entry.path().string());
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  for (const std::string& f : files) {
    StatusOr<Trace> trace = LoadTrace(f, {});
    EXPECT_TRUE(trace.ok()) << f << ": " << trace.status().message();
    if (trace.ok()) out.traces.push_back(std::move(*trace));
  }
  for (const Trace& t : out.traces) out.linked.emplace_back(t);
  out.job = DescribeJob(TracesOf(Pointers(out.linked)), false);
  return out;
}

const WhatIfScenario* Named(const WhatIfResult& r, const std::string& name) {
  for (const WhatIfScenario& s : r.scenarios) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

class WhatIfOnSharedTraces : public ::testing::TestWithParam<std::string> {};

TEST_P(WhatIfOnSharedTraces, Invariants) {
  const Loaded in = Load(GetParam());
  ASSERT_FALSE(in.linked.empty());
  WhatIfQuery query;
  query.speedups = {{"kernel~", kFactor}, {"gemm", 2}};
  query.no_host_gaps = true;
  query.remove_syncs = {"cudaDeviceSynchronize"};
  const WhatIfResult r = SimulateWhatIf(Pointers(in.linked), in.job, query);
  ASSERT_FALSE(r.steps.empty());

  // The no-change replay against the measured steps.
  std::vector<double> errors;
  for (const WhatIfStep& s : r.steps) {
    ASSERT_GT(s.measured_ns, 0);
    const double error = 100.0 * std::abs(s.replayed_ns - s.measured_ns) / s.measured_ns;
    EXPECT_LE(error, 0.1) << "step " << s.step.value_or(-1);
    errors.push_back(error);
    EXPECT_GE(s.unexplained_ns, 0);
  }
  std::nth_element(errors.begin(), errors.begin() + errors.size() / 2, errors.end());
  EXPECT_LE(errors[errors.size() / 2], 0.05);

  // The measured steps are critical-path's, and its path bounds the all-kernels speedup.
  const CriticalPathResult path = AnalyzeCriticalPath(Pointers(in.linked), in.job, {});
  ASSERT_EQ(path.steps.size(), r.steps.size());
  const WhatIfScenario* faster = Named(r, "kernel~=4");
  ASSERT_NE(faster, nullptr);
  ASSERT_EQ(faster->steps.size(), path.steps.size());
  for (size_t k = 0; k < path.steps.size(); ++k) {
    EXPECT_EQ(r.steps[k].measured_ns, path.steps[k].length_ns());
    const PathComposition& c = path.steps[k].composition;
    const double on_path = static_cast<double>(c.compute_ns + c.comm_transfer_ns);
    const int64_t gain = faster->steps[k].measured_ns - faster->steps[k].simulated_ns;
    // Rounding: each item's new duration is rounded to the nanosecond.
    EXPECT_LE(static_cast<double>(gain), on_path * (1 - 1 / kFactor) + 1000)
        << "step " << r.steps[k].step.value_or(-1);
    if (on_path == 0) EXPECT_EQ(gain, 0) << "step " << r.steps[k].step.value_or(-1);
  }

  // No scenario lengthens a step; together never longer than any one alone.
  const WhatIfScenario* all = Named(r, "all findings");
  const WhatIfScenario* speedups = Named(r, "all speedups");
  ASSERT_NE(speedups, nullptr);
  for (const WhatIfScenario& s : r.scenarios) {
    ASSERT_EQ(s.steps.size(), r.steps.size()) << s.name;
    for (size_t k = 0; k < s.steps.size(); ++k) {
      EXPECT_LE(s.steps[k].simulated_ns, s.steps[k].measured_ns) << s.name << " step " << k;
      if (s.kind == "finding") {
        ASSERT_NE(all, nullptr);
        EXPECT_LE(all->steps[k].simulated_ns, s.steps[k].simulated_ns) << s.name;
      }
      if (s.name == "gemm=2" || s.name == "kernel~=4") {
        EXPECT_LE(speedups->steps[k].simulated_ns, s.steps[k].simulated_ns) << s.name;
      }
    }
    if (s.changed_events == 0) EXPECT_EQ(s.simulated_ns, s.measured_ns) << s.name;
  }
}

INSTANTIATE_TEST_SUITE_P(Kineto, WhatIfOnSharedTraces, ::testing::ValuesIn(kTraces));

// One scenario per finding whose rule the simulator fixes, "all findings" when there is one,
// then the user's; AttachWhatIf gives those findings their simulated figures and ranks by them.
TEST(WhatIf, ScenariosOfTheFindings) {
  for (const std::string& relative : {std::string("/kineto/hta/nccl_2rank_rank0_a100.json.gz"),
                                      std::string("/kineto/param_dlrm_8rank")}) {
    const Loaded in = Load(relative);
    FindingsResult found = FindFindings(Pointers(in.linked), FindingsQuery{});
    const std::vector<std::string>& rules = WhatIfRules();
    size_t simulated = 0;
    for (const Finding& f : found.findings) {
      if (std::find(rules.begin(), rules.end(), f.rule) != rules.end()) ++simulated;
    }
    ASSERT_GT(simulated, 0u) << relative;
    WhatIfQuery query;
    query.found = &found;
    query.speedups = {{"gemm", 2}};
    const WhatIfResult r = SimulateWhatIf(Pointers(in.linked), in.job, query);
    ASSERT_EQ(r.scenarios.size(), simulated + 2) << relative;  // + "all findings", "gemm=2"
    for (size_t i = 0; i < simulated; ++i) {
      const WhatIfScenario& s = r.scenarios[i];
      EXPECT_EQ(s.kind, "finding");
      ASSERT_TRUE(s.finding.has_value());
      EXPECT_EQ(s.rule, found.findings[*s.finding].rule);
    }
    EXPECT_EQ(r.scenarios[simulated].name, "all findings");
    EXPECT_EQ(r.scenarios.back().name, "gemm=2");
    EXPECT_EQ(r.scenarios.back().kind, "user");

    AttachWhatIf(r, &found);
    size_t with_figures = 0;
    int64_t previous = INT64_MAX;
    for (const Finding& f : found.findings) {
      const bool fixed = std::find(rules.begin(), rules.end(), f.rule) != rules.end();
      EXPECT_EQ(f.simulated_gain_ns.has_value(), fixed) << f.rule;
      if (f.simulated_gain_ns) {
        ++with_figures;
        EXPECT_GE(*f.simulated_gain_ns, 0) << f.rule;
        EXPECT_EQ(*f.simulated_step_ns + *f.simulated_gain_ns, r.scenarios.front().measured_ns);
      }
      const int64_t key = f.simulated_gain_ns.value_or(f.estimated_gain_ns);
      EXPECT_LE(key, previous) << f.rule;
      previous = key;
    }
    EXPECT_EQ(with_figures, simulated);
  }
}

// --remove-sync by the op around the calls (the op findings' synchronization names: DLRM's
// "most after aten::copy_") and by a name nothing has.
TEST(WhatIf, RemoveSyncByOpName) {
  const Loaded in = Load("/kineto/param_dlrm_8rank");
  WhatIfQuery query;
  query.findings = false;
  query.remove_syncs = {"aten::copy_", "no_such_call"};
  const WhatIfResult r = SimulateWhatIf(Pointers(in.linked), in.job, query);
  const WhatIfScenario* by_op = Named(r, "remove sync aten::copy_");
  const WhatIfScenario* none = Named(r, "remove sync no_such_call");
  ASSERT_NE(by_op, nullptr);
  ASSERT_NE(none, nullptr);
  EXPECT_GT(by_op->changed_events, 0u);
  EXPECT_LE(by_op->simulated_ns, by_op->measured_ns);
  EXPECT_EQ(none->changed_events, 0u);
  EXPECT_EQ(none->simulated_ns, none->measured_ns);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
