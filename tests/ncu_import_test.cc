// End-to-end: the binary on the real Nsight Compute CSV exports in ../shared/data/nvidia/ncu_csv
// and on the hand-written raw-page fixture (tests/data/ncu_raw_fixture.csv). Expected values are
// the ones written in each file: the kernel name column and the duration row
// (gpu__time_duration.sum, or the Speed Of Light section's "Duration").

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kData = TM_SHARED_DATA "/nvidia/ncu_csv/";
const std::string kFixture = TM_SOURCE_DIR "/tests/data/ncu_raw_fixture.csv";

const std::string kK0001Name =
    "enable_if<!T7, void>::type kernel<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, "
    "float, 0, 1, 1, 0, 7, 0, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<const "
    "__nv_bfloat16>, cublasGemvTensorStridedBatched<const __nv_bfloat16>, "
    "cublasGemvTensorStridedBatched<__nv_bfloat16>, float>>(T13)";
const std::string kK0004Prefix = "void unrolled_elementwise_kernel<direct_copy_kernel_cuda(";

struct Expected {
  std::string file;
  std::string name_prefix;
  int64_t duration_ns;  // 0: the export has no duration (a section without it)
};

const std::vector<Expected> kRealFiles = {
    {"llmperfopt_k0001_ncu.details.csv", kK0001Name, 6750},
    {"llmperfopt_k0001_ncu.metrics.csv", kK0001Name, 6750},
    {"llmperfopt_k0001_ncu.section_SpeedOfLight.csv", kK0001Name, 6750},
    {"llmperfopt_k0001_ncu.section_Occupancy.csv", kK0001Name, 0},
    {"llmperfopt_k0001_ncu.section_SpeedOfLight_RooflineChart.csv", kK0001Name, 0},
    {"llmperfopt_k0004_ncu.details.csv", kK0004Prefix, 4700},
};

json Parse(const RunResult& r) {
  return json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

TEST(NcuImport, KernelsOnEveryRealExport) {
  for (const Expected& e : kRealFiles) {
    SCOPED_TRACE(e.file);
    RunResult r = RunTensormorph({"kernels", "--format", "json", "--quiet", kData + e.file});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    json doc = Parse(r);
    ASSERT_FALSE(doc.is_discarded()) << r.Describe();
    EXPECT_EQ(doc["inputs"][0]["format"], "ncu-csv");
    EXPECT_EQ(doc["kernel_count"], 1);
    EXPECT_EQ(doc["total_ns"], e.duration_ns);
    ASSERT_EQ(doc["rows"].size(), 1u) << r.Describe();
    const json& row = doc["rows"][0];
    EXPECT_TRUE(row["name"].get<std::string>().starts_with(e.name_prefix)) << row["name"];
    EXPECT_EQ(row["backend"], "cuda");
    EXPECT_EQ(row["count"], 1);
    EXPECT_EQ(row["total_ns"], e.duration_ns);
    // An export without a duration says so rather than passing 0 ns off as measured.
    const bool warned = r.err.find("no duration") != std::string::npos;
    EXPECT_EQ(warned, e.duration_ns == 0) << r.Describe();
  }
}

TEST(NcuImport, InfoOnEveryRealExport) {
  for (const Expected& e : kRealFiles) {
    SCOPED_TRACE(e.file);
    RunResult r = RunTensormorph({"info", "--format", "json", "--quiet", kData + e.file});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    json doc = Parse(r);
    ASSERT_FALSE(doc.is_discarded()) << r.Describe();
    const json& input = doc["inputs"][0];
    EXPECT_EQ(input["format"], "ncu-csv");
    EXPECT_NE(input["format_version"].get<std::string>().find("synthetic"), std::string::npos);
    EXPECT_EQ(input["backends"], json::array({"cuda"}));
    ASSERT_EQ(input["devices"].size(), 1u);
    EXPECT_EQ(input["devices"][0]["label"], "cuda:0");
    EXPECT_EQ(input["devices"][0]["compute_capability"], "12.0");
    EXPECT_EQ(input["counts"]["kernels"], 1);
    EXPECT_EQ(input["span"]["start_ns"], 0);
    EXPECT_EQ(input["span"]["duration_ns"], e.duration_ns);
  }
}

// A failed ncu run redirected into a .csv: only ==ERROR== lines.
TEST(NcuImport, ErrorOnlyExportIsExitCode3) {
  const std::string path = kData + "llmperfopt_error_raw.csv";
  for (const char* command : {"kernels", "info"}) {
    SCOPED_TRACE(command);
    RunResult r = RunTensormorph({command, "--format", "json", path});
    EXPECT_TRUE(r.Clean()) << r.Describe();
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_TRUE(r.err.starts_with("tensormorph: error: " + path + ":1:1: ")) << r.Describe();
    EXPECT_NE(r.err.find("Nsight Compute (ncu) failed"), std::string::npos) << r.Describe();
    EXPECT_NE(r.err.find("did not match any section"), std::string::npos) << r.Describe();
    EXPECT_TRUE(r.out.empty()) << r.Describe();
  }
}

TEST(NcuImport, RawPageFixture) {
  RunResult r = RunTensormorph({"kernels", "--format", "json", "--quiet", kFixture});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_TRUE(r.err.empty()) << r.Describe();
  json doc = Parse(r);
  EXPECT_EQ(doc["kernel_count"], 3);
  EXPECT_EQ(doc["total_ns"], 1234560 + 3200 + 2050000);
  ASSERT_EQ(doc["rows"].size(), 3u);
  EXPECT_EQ(doc["rows"][0]["name"], "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn");
  EXPECT_EQ(doc["rows"][0]["total_ns"], 2050000);
  EXPECT_EQ(doc["rows"][1]["total_ns"], 1234560);

  r = RunTensormorph({"kernels", "--format", "json", "--quiet", "--group-by", "stream", kFixture});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  doc = Parse(r);
  ASSERT_EQ(doc["rows"].size(), 2u);
  EXPECT_EQ(doc["rows"][0]["name"], "cuda:0 NVIDIA GeForce RTX 4090 stream 13");
  EXPECT_EQ(doc["rows"][1]["name"], "cuda:0 NVIDIA GeForce RTX 4090 stream 7");
  EXPECT_EQ(doc["rows"][1]["count"], 2);

  r = RunTensormorph({"info", "--format", "json", "--quiet", kFixture});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  doc = Parse(r);
  const json& input = doc["inputs"][0];
  EXPECT_NE(input["format_version"].get<std::string>().find("raw page"), std::string::npos);
  EXPECT_EQ(input["devices"][0]["name"], "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(input["devices"][0]["compute_capability"], "8.9");
  EXPECT_EQ(input["devices"][0]["sm_count"], 128);
  EXPECT_EQ(input["span"]["duration_ns"], 2050000);
  EXPECT_EQ(input["warnings"], json::array());
}

TEST(NcuImport, SeveralExportsTogether) {
  RunResult r = RunTensormorph({"kernels", "--format", "json", "--quiet",
                                kData + "llmperfopt_k0001_ncu.details.csv",
                                kData + "llmperfopt_k0004_ncu.details.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  json doc = Parse(r);
  EXPECT_EQ(doc["kernel_count"], 2);
  EXPECT_EQ(doc["total_ns"], 6750 + 4700);
}

// Forcing the CSV importer onto a file that is not one: a clean error, with a position.
TEST(NcuImport, ForcedOnJson) {
  const std::string path = TM_SOURCE_DIR "/examples/nccl_2rank_rank0_a100.json.gz";
  RunResult r = RunTensormorph({"kernels", "--quiet", "--input-format", "ncu-csv", path});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_TRUE(r.err.starts_with("tensormorph: error: " + path + ":1:1: ")) << r.Describe();
  EXPECT_NE(r.err.find("no Nsight Compute CSV header"), std::string::npos) << r.Describe();
}

}  // namespace TM_UNITY_ID
}  // namespace
