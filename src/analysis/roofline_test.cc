#include "tensormorph/analysis/roofline.h"

#include <gtest/gtest.h>

#include "support/linked.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// One CUDA device and one kernel launch per call, with the given counters.
struct TraceBuilder {
  Trace trace;
  explicit TraceBuilder(std::string device_name, int sms = 0) {
    Device d;
    d.backend = Backend::kCuda;
    d.name = std::move(device_name);
    d.index = 0;
    d.sm_count = sms;
    trace.devices.push_back(d);
  }
  void Add(const char* name, int64_t ns, std::optional<double> fp32, std::optional<double> dram,
           bool counters = true) {
    Kernel k;
    k.name = trace.strings.Intern(name);
    k.device = 0;
    k.duration_ns = ns;
    trace.kernels.push_back(k);
    if (!counters) return;
    KernelCounters c;
    c.kernel = static_cast<uint32_t>(trace.kernels.size() - 1);
    c.fp32_flops = fp32;
    c.dram_bytes = dram;
    trace.kernel_counters.push_back(c);
  }
};

TEST(RooflineTest, SumsLaunchesAndUsesTheDatabaseCeiling) {
  TraceBuilder b("NVIDIA GeForce RTX 4090", 128);
  b.Add("gemm", 1000, 4e6, 1e5);  // two launches of one kernel
  b.Add("gemm", 3000, 8e6, 3e5);
  b.Add("copy", 500, 0, 2e6);
  b.Add("plain", 100, std::nullopt, std::nullopt, false);
  RooflineResult r = AnalyzeRoofline(Linked({&b.trace}), {});
  ASSERT_EQ(r.rows.size(), 2u);
  const RooflineRow& gemm = r.rows[0];
  EXPECT_EQ(gemm.name, "gemm");
  EXPECT_EQ(gemm.count, 2u);
  EXPECT_EQ(gemm.total_ns, 4000);
  EXPECT_DOUBLE_EQ(*gemm.flops, 12e6);
  EXPECT_DOUBLE_EQ(*gemm.dram_bytes, 4e5);
  EXPECT_DOUBLE_EQ(gemm.arithmetic_intensity, 30);     // 12e6 / 4e5
  EXPECT_DOUBLE_EQ(*gemm.achieved_flops_per_s, 3e12);  // 12e6 / 4 us
  EXPECT_DOUBLE_EQ(*gemm.achieved_bytes_per_s, 1e11);  // 4e5 / 4 us
  // rtx-4090: 82.6 TFLOP/s FP32, 1008 GB/s; ridge 81.9 FLOP/B, so 30 is memory-bound.
  EXPECT_EQ(gemm.peak_source, "database: rtx-4090");
  EXPECT_DOUBLE_EQ(*gemm.peak_flops_per_s, 82.6e12);
  EXPECT_DOUBLE_EQ(*gemm.peak_bytes_per_s, 1008e9);
  EXPECT_DOUBLE_EQ(*gemm.ceiling_flops_per_s, 30 * 1008e9);
  EXPECT_NEAR(*gemm.percent_of_roof, 100 * 3e12 / 30.24e12, 1e-9);
  EXPECT_TRUE(*gemm.memory_bound);
  const RooflineRow& copy = r.rows[1];
  EXPECT_DOUBLE_EQ(copy.arithmetic_intensity, 0);
  ASSERT_EQ(r.skipped.size(), 1u);
  EXPECT_EQ(r.skipped[0].reason, kNoCountersReason);
  EXPECT_EQ(r.skipped[0].count, 1u);
}

TEST(RooflineTest, ComputeBoundAboveTheRidge) {
  TraceBuilder b("NVIDIA GeForce RTX 4090", 128);
  b.Add("dense", 1000000, 1e10, 1e7);  // 1000 FLOP/B
  RooflineResult r = AnalyzeRoofline(Linked({&b.trace}), {});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_FALSE(*r.rows[0].memory_bound);
  EXPECT_DOUBLE_EQ(*r.rows[0].ceiling_flops_per_s, 82.6e12);
}

TEST(RooflineTest, UnmatchedDeviceGetsNoCeilingAndAReason) {
  TraceBuilder b("Imaginary GPU 9000");
  b.Add("k", 1000, 1e6, 1e6);
  RooflineResult r = AnalyzeRoofline(Linked({&b.trace}), {});
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_FALSE(r.rows[0].peak_flops_per_s);
  EXPECT_FALSE(r.rows[0].ceiling_flops_per_s);
  EXPECT_FALSE(r.rows[0].memory_bound);
  EXPECT_TRUE(r.rows[0].peak_source.empty());
  EXPECT_NE(r.rows[0].no_ceiling_reason.find("Imaginary GPU 9000"), std::string::npos);
  EXPECT_DOUBLE_EQ(*r.rows[0].achieved_flops_per_s, 1e12);
}

TEST(RooflineTest, DeviceSpecEntryIsNamedAsSuch) {
  std::vector<DeviceSpec> devices = BuiltInDevices();
  StatusOr<std::vector<DeviceSpec>> loaded = ApplyDeviceSpecText(
      R"({"devices": [{"key": "imaginary-9000", "name": "Imaginary GPU 9000",
          "aliases": ["Imaginary GPU 9000"], "vendor": "NVIDIA", "backend": "cuda",
          "fp32_flops_per_s": 1e13, "memory_bandwidth_bytes_per_s": 1e12}]})",
      "spec.json", devices);
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  TraceBuilder b("Imaginary GPU 9000");
  b.Add("k", 1000, 1e6, 1e6);
  RooflineQuery q;
  q.devices = &*loaded;
  RooflineResult r = AnalyzeRoofline(Linked({&b.trace}), q);
  ASSERT_EQ(r.rows.size(), 1u);
  EXPECT_EQ(r.rows[0].peak_source, "device spec: imaginary-9000");
  EXPECT_DOUBLE_EQ(*r.rows[0].ceiling_flops_per_s, 1e12);  // intensity 1 x 1e12 B/s
}

// The roofline chart export holds per-cycle rates only (no duration, no counts). Its values:
//   Single Precision Achieved Value: Predicated-On FFMA Operations Per Cycle  158.12 inst
//     (= 2 x "Predicated-On FFMA Thread Instructions Executed Per Cycle" 79.06),
//     FADD Thread Instructions Executed Per Cycle 1.97, FMUL 0, SM Frequency 2.15 Ghz,
//     DRAM Bandwidth 345.14 Gbyte/s
//   Single Precision Roofline: Theoretical Predicated-On FFMA Operations 43,520 inst,
//     SM Frequency 2.15 Ghz, Theoretical DRAM Bytes Accessible 128 byte/cycle,
//     DRAM Frequency 13.72 Ghz
TEST(RooflineTest, NsightComputeRooflineChartExport) {
  StatusOr<Trace> trace = LoadTrace(
      TM_SHARED_DATA "/nvidia/ncu_csv/llmperfopt_k0001_ncu.section_SpeedOfLight_RooflineChart.csv",
      {});
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  RooflineResult r = AnalyzeRoofline(Linked({&*trace}), {});
  ASSERT_EQ(r.rows.size(), 1u);
  const RooflineRow& row = r.rows[0];
  const double flops_per_s = (158.12 + 1.97 + 0) * 2.15e9;  // 344.1935e9 FLOP/s
  const double bytes_per_s = 345.14e9;
  EXPECT_NEAR(*row.achieved_flops_per_s, flops_per_s, flops_per_s * 1e-12);
  EXPECT_NEAR(*row.achieved_bytes_per_s, bytes_per_s, bytes_per_s * 1e-12);
  EXPECT_NEAR(row.arithmetic_intensity, flops_per_s / bytes_per_s, 1e-12);  // 0.99726 FLOP/B
  EXPECT_EQ(row.precision, Precision::kFp32);
  EXPECT_FALSE(row.flops);  // no duration: no totals
  EXPECT_TRUE(row.from_rates);
  EXPECT_EQ(row.peak_source, "measured");
  EXPECT_NEAR(*row.peak_flops_per_s, 43520 * 2.15e9, 1);  // 93.568 TFLOP/s
  EXPECT_NEAR(*row.peak_bytes_per_s, 128 * 13.72e9, 1);   // 1.75616 TB/s
  EXPECT_TRUE(*row.memory_bound);                         // ridge 53.3 FLOP/B
  // At the memory slope the percent of roof is the DRAM bandwidth share: 345.14 / 1756.16.
  EXPECT_NEAR(*row.percent_of_roof, 100 * 345.14 / 1756.16, 1e-9);
}

// The details export has DRAM bytes and a duration but no FP instruction counts: the kernel is
// placed by its bandwidth, and Nsight Compute's Speed Of Light gives the verdict. From the file:
// dram__bytes_read.sum 2.33 Mbyte + dram__bytes_write.sum 0 in 6.75 us = 345.19 GB/s (its Memory
// Workload Analysis says 345.14 Gbyte/s); Compute (SM) Throughput 9.15 %, Memory Throughput
// 19.66 %: both below 60 %, latency-bound.
TEST(RooflineTest, DetailsExportWithoutFlopCountsIsPlacedByBandwidth) {
  StatusOr<Trace> trace =
      LoadTrace(TM_SHARED_DATA "/nvidia/ncu_csv/llmperfopt_k0001_ncu.details.csv", {});
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  RooflineResult r = AnalyzeRoofline(Linked({&*trace}), {});
  EXPECT_TRUE(r.skipped.empty());
  ASSERT_EQ(r.rows.size(), 1u);
  const RooflineRow& row = r.rows[0];
  EXPECT_FALSE(row.flops);
  EXPECT_FALSE(row.percent_of_roof);
  EXPECT_EQ(row.precision, Precision::kUnknown);
  EXPECT_DOUBLE_EQ(*row.dram_bytes, 2.33e6);
  EXPECT_EQ(row.total_ns, 6750);
  EXPECT_NEAR(*row.achieved_bytes_per_s, 345.14e9, 345.14e9 * 1e-3);
  EXPECT_DOUBLE_EQ(*row.sm_throughput_percent, 9.15);
  EXPECT_DOUBLE_EQ(*row.memory_throughput_percent, 19.66);
  ASSERT_TRUE(row.bound);
  EXPECT_EQ(*row.bound, Bound::kLatency);
  EXPECT_EQ(row.bound_source, "speed_of_light");
  // The details page names no device, so no bandwidth to compare with, and it says why.
  EXPECT_FALSE(row.percent_of_bandwidth);
  EXPECT_FALSE(row.no_ceiling_reason.empty());
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
