#include "tensormorph/analysis/ops/ops.h"

#include <gtest/gtest.h>

#include "model/trace_order.h"
#include "support/linked.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// Op "aten::to" [0, 100] calls "aten::to" [10, 60] (recursion) which launches kernel A (20 ns) on
// a CUDA device; "aten::mix" [200, 300] launches B (30 ns) on CUDA and C (50 ns) on ROCm; kernel
// D (7 ns) has no launch call. A module frame "nn.Module: Block_0" encloses aten::mix.
Trace MakeTrace() {
  Trace t;
  t.tracks.push_back({});
  Device cuda, rocm;
  cuda.backend = Backend::kCuda;
  cuda.index = 0;
  rocm.backend = Backend::kRocm;
  rocm.index = 1;
  t.devices = {cuda, rocm};
  auto slice = [&](const char* name, int64_t start, int64_t dur, SliceKind kind) {
    Slice s;
    s.name = t.strings.Intern(name);
    s.start_ns = start;
    s.duration_ns = dur;
    s.kind = kind;
    t.slices.push_back(s);
  };
  slice("aten::to", 0, 100, SliceKind::kOp);
  slice("aten::to", 10, 50, SliceKind::kOp);
  slice("nn.Module: Block_0", 190, 120, SliceKind::kPythonFunction);
  slice("aten::mix", 200, 100, SliceKind::kOp);
  auto launch = [&](int64_t start, uint64_t correlation) {
    ApiCall c;
    c.name = t.strings.Intern("cudaLaunchKernel");
    c.start_ns = start;
    c.link.correlation = correlation;
    t.api_calls.push_back(c);
  };
  launch(20, 1);
  launch(210, 2);
  launch(220, 3);
  auto kernel = [&](const char* name, uint32_t device, int64_t dur, uint64_t correlation) {
    Kernel k;
    k.name = t.strings.Intern(name);
    k.device = device;
    k.start_ns = 1000 + static_cast<int64_t>(correlation);
    k.duration_ns = dur;
    k.link.correlation = correlation;
    t.kernels.push_back(k);
  };
  kernel("A", 0, 20, 1);
  kernel("B", 0, 30, 2);
  kernel("C", 1, 50, 3);
  kernel("D", 0, 7, 99);
  SortTraceTables(&t);
  return t;
}

const OpRow* Find(const OpSummary& s, const std::string& name) {
  for (const OpRow& r : s.rows) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

TEST(SummarizeOps, SelfInclusiveRecursionAndUnattributed) {
  const Trace t = MakeTrace();
  const OpSummary s = SummarizeOps(Linked({&t}), {});
  EXPECT_EQ(s.ops, 3u);
  EXPECT_EQ(s.kernels, 4u);
  EXPECT_EQ(s.attributed_kernels, 3u);
  const OpRow* to = Find(s, "aten::to");
  ASSERT_NE(to, nullptr);
  EXPECT_EQ(to->calls, 2u);
  EXPECT_EQ(to->host_ns, 150);
  EXPECT_EQ(to->device_ns, 20);
  EXPECT_EQ(to->device_inclusive_ns, 20);  // not 40: the inner call is inside the outer one
  const OpRow* none = Find(s, "(no launch call in the trace)");
  ASSERT_NE(none, nullptr);
  EXPECT_EQ(none->origin, "no_launch");
  EXPECT_EQ(none->device_ns, 7);
  // Ranked by device time: mix (80) > to (20) > the unattributed row (7).
  EXPECT_EQ(s.rows[0].name, "aten::mix");
}

TEST(SummarizeOps, AnOpOnTwoBackendsShowsTheSplit) {
  const Trace t = MakeTrace();
  const OpSummary s = SummarizeOps(Linked({&t}), {});
  const OpRow* mix = Find(s, "aten::mix");
  ASSERT_NE(mix, nullptr);
  ASSERT_EQ(mix->placements.size(), 2u);
  EXPECT_EQ(mix->placements[0].backend, Backend::kRocm);  // 50 ns, the larger share first
  EXPECT_EQ(mix->placements[0].device_ns, 50);
  EXPECT_EQ(mix->placements[1].backend, Backend::kCuda);
  EXPECT_EQ(mix->placements[1].device_ns, 30);
  ASSERT_EQ(mix->top_kernels.size(), 2u);
  EXPECT_EQ(mix->top_kernels[0].name, "C");
}

TEST(SummarizeOps, BackendFilterAndModulePaths) {
  const Trace t = MakeTrace();
  OpQuery rocm_only;
  rocm_only.backend = Backend::kRocm;
  const OpSummary rocm = SummarizeOps(Linked({&t}), rocm_only);
  ASSERT_EQ(rocm.rows.size(), 1u);
  EXPECT_EQ(rocm.rows[0].name, "aten::mix");
  EXPECT_EQ(rocm.rows[0].device_ns, 50);

  OpQuery by_stack;
  by_stack.by_stack = true;
  const OpSummary stacked = SummarizeOps(Linked({&t}), by_stack);
  const OpRow* mix = Find(stacked, "aten::mix");
  ASSERT_NE(mix, nullptr);
  EXPECT_EQ(mix->stack, "Block_0");
}

TEST(SummarizeOps, HostOnlyTracesRankByHostTime) {
  Trace t = MakeTrace();
  t.kernels.clear();
  const OpSummary s = SummarizeOps(Linked({&t}), {});
  EXPECT_TRUE(s.host_only);
  EXPECT_EQ(s.rows[0].name, "aten::to");  // 150 ns of host time against mix's 100
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
