#include "tensormorph/analysis/kernels.h"

#include <gtest/gtest.h>

#include "support/linked.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// Two devices, one kernel name split across them: durations chosen so the statistics are easy
// to check by hand.
Trace MakeTrace() {
  Trace t;
  t.path = "synthetic";
  Device cuda0;
  cuda0.backend = Backend::kCuda;
  cuda0.index = 0;
  cuda0.name = "A100";
  Device cuda1 = cuda0;
  cuda1.index = 1;
  t.devices = {cuda0, cuda1};
  auto add = [&](const char* name, uint32_t device, int64_t stream, int64_t dur) {
    Kernel k;
    k.name = t.strings.Intern(name);
    k.device = device;
    k.stream = stream;
    k.duration_ns = dur;
    t.kernels.push_back(k);
  };
  add("gemm", 0, 7, 10);
  add("gemm", 0, 7, 20);
  add("gemm", 1, 7, 30);
  add("gemm", 1, 8, 100);  // gemm: 10 20 30 100 -> total 160, median 25
  add("relu", 0, 7, 40);   // relu: total 40
  return t;
}

TEST(SummarizeKernels, StatisticsAsNsysStatsDefinesThem) {
  Trace t = MakeTrace();
  KernelSummary s = SummarizeKernels(Linked({&t}), {});
  ASSERT_EQ(s.rows.size(), 2u);
  EXPECT_EQ(s.total_ns, 200);
  EXPECT_EQ(s.kernel_count, 5u);
  const KernelRow& gemm = s.rows[0];
  EXPECT_EQ(gemm.name, "gemm");
  EXPECT_EQ(gemm.count, 4u);
  EXPECT_EQ(gemm.total_ns, 160);
  EXPECT_EQ(gemm.min_ns, 10);
  EXPECT_EQ(gemm.max_ns, 100);
  EXPECT_DOUBLE_EQ(gemm.mean_ns, 40.0);
  EXPECT_DOUBLE_EQ(gemm.median_ns, 25.0);  // mean of the two middle values
  // sample std dev: deviations -30 -20 -10 60 -> squares 900+400+100+3600 = 5000; /3; sqrt
  EXPECT_NEAR(gemm.stddev_ns, 40.8248290463863, 1e-9);
  EXPECT_DOUBLE_EQ(gemm.percent, 80.0);
  EXPECT_EQ(s.rows[1].name, "relu");
  EXPECT_DOUBLE_EQ(s.rows[1].stddev_ns, 0.0);  // a single launch has no spread
}

TEST(SummarizeKernels, GroupsByDeviceAndStream) {
  Trace t = MakeTrace();
  KernelQuery by_device;
  by_device.group_by = KernelGrouping::kDevice;
  KernelSummary d = SummarizeKernels(Linked({&t}), by_device);
  ASSERT_EQ(d.rows.size(), 2u);
  EXPECT_EQ(d.rows[0].name, "cuda:1 A100");
  EXPECT_EQ(d.rows[0].total_ns, 130);
  EXPECT_EQ(d.rows[1].total_ns, 70);

  KernelQuery by_stream;
  by_stream.group_by = KernelGrouping::kStream;
  KernelSummary s = SummarizeKernels(Linked({&t}), by_stream);
  ASSERT_EQ(s.rows.size(), 3u);
  EXPECT_EQ(s.rows[0].name, "cuda:1 A100 stream 8");
}

TEST(SummarizeKernels, FiltersAndTop) {
  Trace t = MakeTrace();
  KernelQuery device1;
  device1.device = "1";
  EXPECT_EQ(SummarizeKernels(Linked({&t}), device1).total_ns, 130);
  KernelQuery rocm;
  rocm.backend = Backend::kRocm;
  EXPECT_TRUE(SummarizeKernels(Linked({&t}), rocm).rows.empty());
  KernelQuery top;
  top.top = 1;
  KernelSummary s = SummarizeKernels(Linked({&t}), top);
  EXPECT_EQ(s.rows.size(), 1u);
  EXPECT_EQ(s.row_count_before_top, 2u);
  EXPECT_EQ(s.total_ns, 200);  // percentages stay relative to all kernel time
}

TEST(SummarizeKernels, CombinesOrSeparatesInputs) {
  Trace a = MakeTrace();
  Trace b = MakeTrace();
  b.rank = 1;
  KernelSummary combined = SummarizeKernels(Linked({&a, &b}), {});
  ASSERT_EQ(combined.rows.size(), 2u);
  EXPECT_EQ(combined.rows[0].count, 8u);
  KernelQuery separate;
  separate.by_input = true;
  KernelSummary split = SummarizeKernels(Linked({&a, &b}), separate);
  ASSERT_EQ(split.rows.size(), 4u);
  EXPECT_EQ(split.rows[0].count, 4u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
