#include "tensormorph/link/steps.h"

#include <gtest/gtest.h>

#include "tensormorph/tensormorph.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(FindSteps, ReadsProfilerStepAnnotationsOfTheRealDdpTrace) {
  // The trace's user_annotation events ProfilerStep#4..#6, values copied from the file:
  // ts 4458676416788.066 dur 222442.191, ts 4458676639291.351 dur 219726.905,
  // ts 4458676859077.781 dur 224936.243 (µs).
  auto trace =
      LoadTrace(std::string(TM_SHARED_DATA) + "/kineto/hta/nccl_2rank_rank0_a100.json.gz", {});
  ASSERT_TRUE(trace.ok());
  const std::vector<Step> steps = FindSteps(*trace);
  ASSERT_EQ(steps.size(), 3u);
  EXPECT_EQ(steps[0].number, 4);
  EXPECT_EQ(steps[2].number, 6);
  EXPECT_EQ(steps[1].end_ns - steps[1].start_ns, 219726905);
  EXPECT_EQ(steps[1].start_ns - steps[0].start_ns, 222503285);

  // Every kernel whose launch call lies inside a step window belongs to that step; the trace's
  // kernels all come from launches inside the three steps or outside them, never elsewhere.
  const TraceLinks links = LinkTrace(*trace);
  const std::vector<int32_t> step_of = StepOfKernels(*trace, links, steps);
  ASSERT_EQ(step_of.size(), trace->kernels.size());
  for (size_t k = 0; k < step_of.size(); ++k) {
    if (step_of[k] < 0) continue;
    const uint32_t launch = links.kernels[k].launch;
    const int64_t t =
        launch != kNoRow ? trace->api_calls[launch].start_ns : trace->kernels[k].start_ns;
    EXPECT_LE(steps[step_of[k]].start_ns, t);
    EXPECT_LE(t, steps[step_of[k]].end_ns);
  }
}

TEST(FindSteps, IgnoresNamesThatOnlyLookLikeSteps) {
  Trace t;
  t.tracks.push_back({});
  for (const char* name : {"ProfilerStep#x", "ProfilerStep#", "ProfilerStep#12"}) {
    Slice s;
    s.name = t.strings.Intern(name);
    s.kind = SliceKind::kUserAnnotation;
    s.duration_ns = 5;
    t.slices.push_back(s);
  }
  const std::vector<Step> steps = FindSteps(t);
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].number, 12);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
