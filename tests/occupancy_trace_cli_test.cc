// End-to-end: `tensormorph occupancy TRACE...`, per-kernel occupancy from the traces' launch
// configurations (the numbers are worked out in src/analysis/occupancy/kernel_occupancy_test.cc).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;
using tensormorph::testing::RunResult;

const std::string kAlexNet = TM_SHARED_DATA "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz";
const std::string kMi250 = TM_SHARED_DATA "/kineto/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz";
const std::string kNcu = TM_SHARED_DATA "/nvidia/ncu_csv/";
const std::string kRtx3080 = TM_SHARED_DATA "/nvidia/nsys_sqlite/nsysai_mock_rtx3080_2026.1.sqlite";

RunResult RunCli(std::vector<std::string> args) {
  args.insert(args.begin(), "occupancy");
  return tensormorph::testing::RunTensormorph(args, 120);
}

json RunJson(std::vector<std::string> args) {
  args.insert(args.end(), {"--format", "json", "-q"});
  const RunResult r = RunCli(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  json doc = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(doc.is_discarded()) << r.out;
  return doc.is_discarded() ? json::object() : doc;
}

TEST(OccupancyTraceCli, KinetoJsonSchema) {
  const json doc = RunJson({kAlexNet});
  EXPECT_EQ(doc.value("schema", ""), "tensormorph.kernel_occupancy/1");
  EXPECT_EQ(doc.value("kernel_count", -1), 79);
  ASSERT_TRUE(doc.contains("rows") && doc["rows"].is_array());
  ASSERT_EQ(doc["rows"].size(), 16u);
  ASSERT_TRUE(doc.contains("skipped") && doc["skipped"].is_object());
  EXPECT_TRUE(doc["skipped"].empty());
  for (const json& row : doc["rows"]) {
    for (const char* key :
         {"name", "backend", "arch", "count", "total_ns", "block_size", "registers_per_thread",
          "shared_memory_bytes", "theoretical_occupancy", "active_warps_per_sm", "limiter",
          "limits", "achieved_occupancy", "achieved_source"}) {
      EXPECT_TRUE(row.contains(key)) << key;
    }
  }
  // The row with the most time: ampere_sgemm_32x32_sliced1x4_tn, 25 % limited by shared memory.
  const json& top = doc["rows"][0];
  EXPECT_EQ(top.value("name", ""), "ampere_sgemm_32x32_sliced1x4_tn");
  EXPECT_EQ(top.value("backend", ""), "cuda");
  EXPECT_EQ(top.value("arch", ""), "sm_80");
  EXPECT_EQ(top.value("count", -1), 6);
  EXPECT_EQ(top.value("total_ns", -1), 2621000);
  EXPECT_EQ(top.value("block_size", -1), 128);
  EXPECT_EQ(top.value("registers_per_thread", -1), 86);
  EXPECT_EQ(top.value("shared_memory_bytes", -1), 32768);
  EXPECT_DOUBLE_EQ(top.value("theoretical_occupancy", -1.0), 0.25);
  EXPECT_EQ(top.value("active_warps_per_sm", -1), 16);
  EXPECT_EQ(top.value("limiter", ""), "shared_memory");
  EXPECT_EQ(top["limits"].value("registers", -1), 5);
  EXPECT_EQ(top["limits"].value("shared_memory", -1), 4);
  EXPECT_DOUBLE_EQ(top.value("achieved_occupancy", -1.0), 0.25);
  EXPECT_EQ(top.value("achieved_source", ""), "kineto_estimate");
}

TEST(OccupancyTraceCli, NsightSystemsHasNoAchieved) {
  const json doc = RunJson({kRtx3080, "--top", "1"});
  ASSERT_EQ(doc["rows"].size(), 1u);
  const json& row = doc["rows"][0];
  EXPECT_EQ(row.value("arch", ""), "sm_86");
  EXPECT_EQ(row.value("limiter", ""), "blocks");  // reduce_kernel: 16 threads, 16 blocks/SM
  EXPECT_TRUE(row["achieved_occupancy"].is_null());
  EXPECT_TRUE(row["achieved_source"].is_null());
  EXPECT_EQ(doc.value("row_count", -1), 2);
}

TEST(OccupancyTraceCli, RocmLaunchesAreCountedNotDropped) {
  const json doc = RunJson({kMi250});
  EXPECT_TRUE(doc["rows"].empty());
  EXPECT_EQ(doc["skipped"].value("no_registers", -1), 14);
  // The table says why in words, and exits 0.
  const RunResult table = RunCli({kMi250, "-q"});
  EXPECT_EQ(table.exit_code, 0) << table.Describe();
  EXPECT_NE(table.out.find("skipped 14 launches"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("no registers"), std::string::npos) << table.out;
}

TEST(OccupancyTraceCli, TableAndCsv) {
  const RunResult table = RunCli({kAlexNet, "-q", "--top", "2"});
  EXPECT_EQ(table.exit_code, 0) << table.Describe();
  EXPECT_NE(table.out.find("Theor.%"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("ampere_sgemm_32x32_sliced1x4_tn"), std::string::npos);
  EXPECT_NE(table.out.find("showing the top 2 of 16 rows"), std::string::npos) << table.out;
  const RunResult csv = RunCli({kAlexNet, "-q", "--top", "1", "--format", "csv"});
  EXPECT_EQ(csv.exit_code, 0) << csv.Describe();
  EXPECT_EQ(csv.out.rfind("name,backend,arch,count,total_ns,", 0), 0u) << csv.out;
  EXPECT_NE(csv.out.find("\nampere_sgemm_32x32_sliced1x4_tn,cuda,sm_80,6,2621000,"),
            std::string::npos)
      << csv.out;
}

TEST(OccupancyTraceCli, ArchOverride) {
  const json doc = RunJson({kAlexNet, "--arch", "sm_90", "--top", "1"});
  ASSERT_EQ(doc["rows"].size(), 1u);
  EXPECT_EQ(doc["rows"][0].value("arch", ""), "sm_90");
  EXPECT_DOUBLE_EQ(doc["rows"][0].value("theoretical_occupancy", -1.0), 0.3125);
}

TEST(OccupancyTraceCli, UsageErrorsExitTwo) {
  struct Case {
    std::vector<std::string> args;
    const char* message;
  };
  const std::vector<Case> cases = {
      {{kAlexNet, "--block-size", "128"}, "--block-size"},
      {{kAlexNet, "--registers", "32"}, "--registers"},
      {{kAlexNet, "--arch", "sm_90", "--shared-mem", "0"}, "--shared-mem"},
      {{kAlexNet, "--arch", "sm_99"}, "known: sm_70"},
      {{"--arch", "sm_90", "--block-size", "128", "--registers", "32", "--top", "3"}, "TRACE"},
      {{}, "--arch"},
  };
  for (const Case& c : cases) {
    const RunResult r = RunCli(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.message << r.Describe();
    EXPECT_EQ(r.err.rfind("tensormorph: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST(OccupancyTraceCli, UnreadableTraceExitsThree) {
  const RunResult r = RunCli({TM_SOURCE_DIR "/README.md"});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
}

// Nsight Compute exports with the Occupancy section but no Launch Statistics (no registers per
// thread): the row is Nsight Compute's own answer. From the files: k0001 Block Limit Warps 12,
// Registers 2, Shared Mem 4, SM 24, Barriers 24, Theoretical 16.67 % (8 warps), Achieved 11.32 %;
// its TheoreticalOccupancy rule says "limited by the number of required registers". k0004: 12, 16,
// 32, 24, 24, Theoretical 100 % (48 warps), Achieved 8.31 %.
TEST(OccupancyTraceCli, NcuOccupancySectionWithoutLaunchStatistics) {
  struct Case {
    const char* file;
    double theoretical, achieved;
    int64_t warps, registers, shared, blocks, active_warps;
    const char* limiter;
  };
  for (const Case& c :
       {Case{"llmperfopt_k0001_ncu.details.csv", 0.1667, 0.1132, 12, 2, 4, 24, 8, "registers"},
        Case{"llmperfopt_k0001_ncu.section_Occupancy.csv", 0.1667, 0.1132, 12, 2, 4, 24, 8,
             "registers"},
        Case{"llmperfopt_k0004_ncu.details.csv", 1.0, 0.0831, 12, 16, 32, 24, 48, "warps"}}) {
    SCOPED_TRACE(c.file);
    const json doc = RunJson({kNcu + c.file});
    EXPECT_EQ(doc.value("kernel_count", -1), 1);
    EXPECT_EQ(doc.value("computed_count", -1), 1);
    EXPECT_EQ(doc.value("reported_count", -1), 1);
    ASSERT_EQ(doc["rows"].size(), 1u);
    const json& row = doc["rows"][0];
    EXPECT_EQ(row["theoretical_source"], "ncu_occupancy_section");
    EXPECT_NEAR(row["theoretical_occupancy"].get<double>(), c.theoretical, 1e-9);
    EXPECT_NEAR(row["achieved_occupancy"].get<double>(), c.achieved, 1e-9);
    EXPECT_EQ(row["achieved_source"], "ncu");
    EXPECT_EQ(row["limits"]["warps"], c.warps);
    EXPECT_EQ(row["limits"]["registers"], c.registers);
    EXPECT_EQ(row["limits"]["shared_memory"], c.shared);
    EXPECT_EQ(row["limits"]["blocks"], c.blocks);
    EXPECT_EQ(row["limits"]["barriers"], 24);
    EXPECT_EQ(row["limiter"], c.limiter);
    EXPECT_EQ(row["active_warps_per_sm"], c.active_warps);
    EXPECT_EQ(row["max_warps_per_sm"], 48);  // CC 12.0
    EXPECT_EQ(row["arch"], "sm_120");
    EXPECT_EQ(row["block_size"], 128);
    EXPECT_TRUE(row["registers_per_thread"].is_null());
    EXPECT_TRUE(doc["skipped"].empty());
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
