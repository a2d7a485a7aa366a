#include "tensormorph/link/work_links.h"

#include <gtest/gtest.h>

#include "model/trace_order.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// One host thread: op "outer" [0, 100] holds "inner" [10, 50]; launches at 20 (inside inner), 70
// (outer only) and 200 (no op, but inside annotation "serve" [150, 300]); a graph launch at 20
// too. Kernel correlations: 1, 2, 3, 4 (graph, two kernels), 9 (no launch call).
Trace MakeTrace() {
  Trace t;
  t.tracks.push_back({});
  auto slice = [&](const char* name, int64_t start, int64_t dur, SliceKind kind) {
    Slice s;
    s.name = t.strings.Intern(name);
    s.start_ns = start;
    s.duration_ns = dur;
    s.kind = kind;
    t.slices.push_back(s);
  };
  slice("outer", 0, 100, SliceKind::kOp);
  slice("inner", 10, 40, SliceKind::kOp);
  slice("serve", 150, 150, SliceKind::kUserAnnotation);
  slice("ProfilerStep#3", 0, 400, SliceKind::kUserAnnotation);
  auto call = [&](const char* name, int64_t start, uint64_t correlation) {
    ApiCall c;
    c.name = t.strings.Intern(name);
    c.start_ns = start;
    c.duration_ns = 5;
    c.link.correlation = correlation;
    t.api_calls.push_back(c);
  };
  call("cudaLaunchKernel", 20, 1);
  call("cudaLaunchKernel", 70, 2);
  call("cudaLaunchKernel", 200, 3);
  call("cudaGraphLaunch", 21, 4);
  auto kernel = [&](int64_t start, uint64_t correlation) {
    Kernel k;
    k.name = t.strings.Intern("k");
    k.start_ns = start;
    k.duration_ns = 10;
    k.link.correlation = correlation;
    t.kernels.push_back(k);
  };
  kernel(1000, 1);
  kernel(1010, 2);
  kernel(1020, 3);
  kernel(1030, 4);
  kernel(1040, 4);
  kernel(1050, 9);
  SortTraceTables(&t);
  return t;
}

TEST(LinkTrace, InnermostOpAnnotationGraphAndMissingLaunch) {
  const Trace t = MakeTrace();
  const TraceLinks links = LinkTrace(t);
  ASSERT_EQ(links.kernels.size(), 6u);
  auto op_name = [&](size_t k) { return std::string(t.str(t.slices[links.kernels[k].op].name)); };
  EXPECT_EQ(links.kernels[0].origin, WorkOrigin::kOp);
  EXPECT_EQ(op_name(0), "inner");
  EXPECT_EQ(op_name(1), "outer");
  EXPECT_EQ(links.kernels[2].origin, WorkOrigin::kAnnotation);  // ProfilerStep# is skipped
  EXPECT_EQ(op_name(2), "serve");
  EXPECT_TRUE(links.kernels[3].graph);
  EXPECT_TRUE(links.kernels[4].graph);
  EXPECT_EQ(op_name(4), "inner");
  EXPECT_EQ(links.kernels[5].origin, WorkOrigin::kNoLaunch);
  EXPECT_EQ(links.kernels[5].op, kNoRow);
}

TEST(LinkTrace, ExternalIdIsUsedOnlyWhenTheOpHoldsTheLaunch) {
  Trace t = MakeTrace();
  // A launch outside every op that names "inner" by External id: inner [10, 50] does not hold
  // t = 200, so the id is ignored (older Kineto wrote correlation ids there).
  t.api_calls[2].link.external_id = 77;
  for (Slice& s : t.slices) {
    if (t.str(s.name) == "inner") s.external_id = 77;
  }
  TraceLinks links = LinkTrace(t);
  EXPECT_EQ(links.kernels[2].origin, WorkOrigin::kAnnotation);
  // A kernel without a launch call but with an External id whose op started before it.
  t.kernels[5].link.external_id = 77;
  t.kernels[5].start_ns = 30;
  links = LinkTrace(t);
  EXPECT_EQ(links.kernels[5].origin, WorkOrigin::kOp);
  EXPECT_TRUE(links.kernels[5].by_external_id);
}

TEST(LinkTrace, DuplicateCorrelationPrefersTheRuntimeCall) {
  Trace t = MakeTrace();
  ApiCall driver = t.api_calls[0];
  driver.kind = ApiKind::kDriver;
  driver.start_ns = 200;  // would give "serve" if chosen
  t.api_calls.push_back(driver);
  SortTraceTables(&t);
  const TraceLinks links = LinkTrace(t);
  EXPECT_EQ(links.duplicate_correlations, 1u);
  EXPECT_EQ(std::string(t.str(t.slices[links.kernels[0].op].name)), "inner");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
