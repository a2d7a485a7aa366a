// End-to-end: `tensormorph roofline` on the Nsight Compute exports, the raw-page fixture and a
// Kineto trace (which has no counters).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/run_tensormorph.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using testing::RunTensormorph;
using Json = nlohmann::json;

const std::string kNcu = TM_SHARED_DATA "/nvidia/ncu_csv/";

TEST(RooflineCliTest, RooflineChartExportJson) {
  auto r = RunTensormorph({"roofline", "--format", "json",
                           kNcu + "llmperfopt_k0001_ncu.section_SpeedOfLight_RooflineChart.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  Json doc = Json::parse(r.out);
  EXPECT_EQ(doc["schema"], "tensormorph.roofline/1");
  ASSERT_EQ(doc["rows"].size(), 1u);
  const Json& row = doc["rows"][0];
  // (158.12 FFMA ops + 1.97 FADD + 0 FMUL per cycle) x 2.15 GHz; DRAM Bandwidth 345.14 GB/s.
  EXPECT_NEAR(row["achieved_flops_per_s"].get<double>(), 344.1935e9, 1);
  EXPECT_NEAR(row["achieved_bytes_per_s"].get<double>(), 345.14e9, 1);
  EXPECT_NEAR(row["arithmetic_intensity"].get<double>(), 344.1935 / 345.14, 1e-12);
  EXPECT_EQ(row["precision"], "fp32");
  EXPECT_EQ(row["peak_source"], "measured");
  EXPECT_EQ(row["bound"], "memory");
  EXPECT_TRUE(row["flops"].is_null());
}

// The raw fixture: launch 1 (gemm_kernel) has FP32 counts and DRAM bytes on an RTX 4090:
//   FLOPs = 1,048,576 FADD + 524,288 FMUL + 2 x 33,554,432 FFMA = 68,681,728
//   bytes = 12.58 Mbyte + 524.29 Kbyte = 13,104,290; time 1,234.56 us
TEST(RooflineCliTest, RawFixtureJson) {
  auto r = RunTensormorph(
      {"roofline", "--format", "json", TM_SOURCE_DIR "/tests/data/ncu_raw_fixture.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  Json doc = Json::parse(r.out);
  ASSERT_EQ(doc["rows"].size(), 2u);
  // Ranked by time: the fp16 tensor-core GEMM (2.05 ms) before the fp32 gemm_kernel (1.23 ms).
  const Json& row = doc["rows"][1];
  EXPECT_EQ(row["device"], "cuda:0 NVIDIA GeForce RTX 4090");
  EXPECT_DOUBLE_EQ(row["flops"].get<double>(), 68681728);
  EXPECT_DOUBLE_EQ(row["dram_bytes"].get<double>(), 13104290);
  EXPECT_EQ(row["total_ns"], 1234560);
  EXPECT_NEAR(row["arithmetic_intensity"].get<double>(), 68681728.0 / 13104290, 1e-12);
  EXPECT_NEAR(row["achieved_flops_per_s"].get<double>(), 68681728 / 1.23456e-3, 1e-3);
  EXPECT_EQ(row["peak_source"], "database: rtx-4090");
  // Left of the ridge (the memory side), but 55.6 GFLOP/s is 0.07 % of the FP32 peak (82.6 TFLOP/s)
  // and 10.6 GB/s 1.1 % of 1008 GB/s: below 10 % of both roofs, latency-bound.
  EXPECT_EQ(row["bound"], "latency");
  EXPECT_EQ(row["bound_source"], "below_both_roofs");
  // Launch 2, ampere_fp16_s16816gemm: no FADD count, so no fp16 FLOPs from instructions, but
  // sm__ops_path_tensor_src_fp16_dst_fp32.sum = 268,435,456 tensor-pipe operations in 2,050 us
  // with 41.94 Mbyte of DRAM traffic: a tensor roofline row of precision fp16 whose ceiling is
  // the RTX 4090's FP16 matrix peak (165.2 TFLOP/s in the device database) and 1008 GB/s.
  const Json& tensor = doc["rows"][0];
  EXPECT_EQ(tensor["name"], "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn");
  EXPECT_EQ(tensor["precision"], "fp16");
  EXPECT_DOUBLE_EQ(tensor["flops"].get<double>(), 268435456);
  EXPECT_DOUBLE_EQ(tensor["dram_bytes"].get<double>(), 41940000);
  EXPECT_EQ(tensor["total_ns"], 2050000);
  EXPECT_DOUBLE_EQ(tensor["peak_flops_per_s"].get<double>(), 165.2e12);
  EXPECT_DOUBLE_EQ(tensor["ceiling_flops_per_s"].get<double>(), 268435456.0 / 41940000 * 1008e9);
  // 131 GFLOP/s (0.08 % of 165.2 TFLOP/s) and 20.5 GB/s (2.0 % of 1008 GB/s): latency-bound too.
  EXPECT_EQ(tensor["bound"], "latency");
  EXPECT_EQ(tensor["bound_source"], "below_both_roofs");
  // The fill kernel lacks dram__bytes_read.sum.
  uint64_t skipped = 0;
  for (const Json& s : doc["skipped"]) skipped += s["count"].get<uint64_t>();
  EXPECT_EQ(skipped, 1u);
}

// Details exports with DRAM bytes and a duration but no FLOP counts: one bandwidth row each
// (numbers from the files: k0001 2.33 Mbyte in 6.75 us, SOL SM 9.15 % / memory 19.66 %; k0004
// 32.77 Kbyte in 4.70 us, SOL SM 0.02 % / memory 6.32 %). The metrics export has no memory
// throughput (only dram__throughput, which is not the Speed Of Light's memory figure): no verdict.
TEST(RooflineCliTest, DetailsExportsArePlacedByBandwidth) {
  struct Case {
    const char* file;
    double bytes;
    int64_t ns;
    const char* bound;
  };
  for (const Case& c : {Case{"llmperfopt_k0001_ncu.details.csv", 2.33e6, 6750, "latency"},
                        Case{"llmperfopt_k0004_ncu.details.csv", 32.77e3, 4700, "latency"},
                        Case{"llmperfopt_k0001_ncu.metrics.csv", 2.33e6, 6750, nullptr}}) {
    SCOPED_TRACE(c.file);
    auto r = RunTensormorph({"roofline", "--format", "json", kNcu + c.file});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    const Json doc = Json::parse(r.out);
    ASSERT_EQ(doc["rows"].size(), 1u);
    const Json& row = doc["rows"][0];
    EXPECT_TRUE(row["flops"].is_null());
    EXPECT_TRUE(row["precision"].is_null());
    EXPECT_DOUBLE_EQ(row["dram_bytes"].get<double>(), c.bytes);
    EXPECT_EQ(row["total_ns"], c.ns);
    EXPECT_NEAR(row["achieved_bytes_per_s"].get<double>(), c.bytes / (c.ns * 1e-9), 1);
    if (c.bound != nullptr) {
      EXPECT_EQ(row["bound"], c.bound);
      EXPECT_EQ(row["bound_source"], "speed_of_light");
    } else {
      EXPECT_TRUE(row["bound"].is_null());
    }
    EXPECT_TRUE(doc["skipped"].empty());
  }
}

TEST(RooflineCliTest, KinetoTraceHasNoCounters) {
  auto r = RunTensormorph(
      {"roofline", "--format", "json", TM_SOURCE_DIR "/examples/nccl_2rank_rank0_a100.json.gz"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  Json doc = Json::parse(r.out);
  EXPECT_TRUE(doc["rows"].empty());
  ASSERT_EQ(doc["skipped"].size(), 1u);
  EXPECT_EQ(doc["skipped"][0]["count"], 2700);
  EXPECT_NE(doc["skipped"][0]["reason"].get<std::string>().find("no counters"), std::string::npos);
  EXPECT_NE(doc["skipped"][0]["reason"].get<std::string>().find("Nsight Compute"),
            std::string::npos)
      << "CUDA kernels: NVIDIA's counter tool";
}

// A ROCm trace without counters is told of AMD's counter tools, not NVIDIA's.
TEST(RooflineCliTest, RocmTraceWithoutCountersNamesAmdsCounterTools) {
  auto r = RunTensormorph({"roofline", "--format", "json", "--quiet",
                           TM_SHARED_DATA "/other/rocprofv3/kernel_trace.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  Json doc = Json::parse(r.out);
  ASSERT_EQ(doc["skipped"].size(), 1u) << doc["skipped"];
  const std::string reason = doc["skipped"][0]["reason"];
  EXPECT_NE(reason.find("rocprof-compute"), std::string::npos) << reason;
  EXPECT_NE(reason.find("rocprofv3 --pmc"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("Nsight"), std::string::npos) << reason;
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
