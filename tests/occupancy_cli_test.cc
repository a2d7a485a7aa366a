// End-to-end: `tensormorph occupancy` as a user runs it. The NVIDIA case is the launch of
// ../shared/data/nvidia/ncu_csv/llmperfopt_k0001_ncu.details.csv (128 threads, CC 12.0), whose
// Occupancy rows say: Block Limit SM 24, Block Limit Registers 2, Block Limit Shared Mem 4, Block
// Limit Warps 12, Theoretical Active Warps per SM 8, Theoretical Occupancy 16.67 %. The export does
// not record registers or shared memory; 255 registers and 1 KB on an 8 KB configuration are one
// input the file's limits allow (see src/analysis/occupancy/occupancy_test.cc for the ranges).

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;

using tensormorph::testing::RunResult;

RunResult RunCli(const std::vector<std::string>& args) {
  return tensormorph::testing::RunTensormorph(args, 60);
}

json RunJson(std::vector<std::string> args) {
  args.insert(args.begin(), "occupancy");
  args.insert(args.end(), {"--format", "json"});
  const RunResult r = RunCli(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  json doc = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(doc.is_discarded()) << r.out;
  return doc.is_discarded() ? json::object() : doc;
}

TEST(OccupancyCli, NsightComputeLaunchK0001) {
  const json doc = RunJson({"--arch", "12.0", "--block-size", "128", "--registers", "255",
                            "--shared-mem", "1024", "--carveout", "8192"});
  EXPECT_EQ(doc.value("schema", ""), "tensormorph.occupancy/1");
  EXPECT_EQ(doc.value("arch", ""), "sm_120");
  EXPECT_EQ(doc.value("active_blocks_per_sm", -1), 2);
  EXPECT_EQ(doc.value("active_warps_per_sm", -1), 8);  // Theoretical Active Warps per SM
  EXPECT_EQ(doc.value("max_warps_per_sm", -1), 48);
  EXPECT_NEAR(doc.value("occupancy", -1.0) * 100, 16.67, 0.005);  // Theoretical Occupancy
  EXPECT_EQ(doc.value("limiter", ""), "registers");
  ASSERT_TRUE(doc.contains("limits") && doc["limits"].is_object());
  const json& limits = doc["limits"];
  EXPECT_EQ(limits.value("warps", -1), 12);         // Block Limit Warps
  EXPECT_EQ(limits.value("registers", -1), 2);      // Block Limit Registers
  EXPECT_EQ(limits.value("shared_memory", -1), 4);  // Block Limit Shared Mem
  EXPECT_EQ(limits.value("blocks", -1), 24);        // Block Limit SM
  EXPECT_EQ(limits.value("barriers", -1), 24);      // Block Limit Barriers
}

// llmperfopt_k0004_ncu.details.csv: 128 threads, no shared memory on a 32 KB configuration:
// Block Limit Registers 16, Shared Mem 32, Warps 12, SM 24; 48 warps, 100 %.
TEST(OccupancyCli, NsightComputeLaunchK0004) {
  const json doc = RunJson(
      {"--arch", "sm_120", "--block-size", "128", "--registers", "32", "--carveout", "32768"});
  EXPECT_EQ(doc.value("active_warps_per_sm", -1), 48);
  EXPECT_DOUBLE_EQ(doc.value("occupancy", -1.0), 1.0);
  EXPECT_EQ(doc.value("limiter", ""), "warps");
  EXPECT_EQ(doc["limits"].value("registers", -1), 16);
  EXPECT_EQ(doc["limits"].value("shared_memory", -1), 32);
}

TEST(OccupancyCli, AmdUsesTheSameSchema) {
  const json doc = RunJson({"--arch", "gfx942", "--block-size", "256", "--registers", "130",
                            "--agprs", "70", "--sgprs", "96"});
  EXPECT_EQ(doc.value("schema", ""), "tensormorph.occupancy/1");
  EXPECT_EQ(doc.value("arch", ""), "gfx942");
  EXPECT_EQ(doc.value("active_blocks_per_sm", -1), 2);
  EXPECT_EQ(doc.value("active_warps_per_sm", -1), 8);
  EXPECT_EQ(doc.value("max_warps_per_sm", -1), 32);
  EXPECT_DOUBLE_EQ(doc.value("occupancy", -1.0), 0.25);
  EXPECT_EQ(doc.value("limiter", ""), "registers");
  EXPECT_DOUBLE_EQ(doc.value("waves_per_simd", -1.0), 2.0);
  EXPECT_EQ(doc.value("wave_size", -1), 64);
  for (const char* key : {"warps", "registers", "shared_memory", "blocks"}) {
    EXPECT_TRUE(doc["limits"].contains(key)) << key;
  }
  EXPECT_TRUE(doc["limits"]["shared_memory"].is_null());  // no LDS: no limit
}

TEST(OccupancyCli, TableAndCsv) {
  const RunResult table =
      RunCli({"occupancy", "--arch", "sm_90", "--block-size", "256", "--registers", "64"});
  EXPECT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("theoretical occupancy: 50.00 %, limited by registers"),
            std::string::npos)
      << table.out;
  const RunResult csv = RunCli({"occupancy", "--arch", "sm_90", "--block-size", "256",
                                "--registers", "64", "--format", "csv"});
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("arch,block_size,", 0), 0u) << csv.out;
  EXPECT_NE(csv.out.find("\nsm_90,256,64,0,,4,32,64,0.500000,registers,8,4,228,32\n"),
            std::string::npos)
      << csv.out;
}

TEST(OccupancyCli, ABlockThatCannotLaunchIsOccupancyZeroWithANote) {
  const json doc = RunJson({"--arch", "sm_90", "--block-size", "1024", "--registers", "128"});
  EXPECT_EQ(doc.value("active_blocks_per_sm", -1), 0);
  EXPECT_EQ(doc.value("occupancy", -1.0), 0.0);
  EXPECT_EQ(doc.value("limiter", ""), "registers");
  EXPECT_NE(doc.value("note", "").find("cannot launch"), std::string::npos);
}

TEST(OccupancyCli, UsageErrorsExitTwo) {
  struct Case {
    std::vector<std::string> args;
    const char* message;  // part of the error line
  };
  const std::vector<Case> cases = {
      {{"--arch", "sm_95", "--block-size", "128", "--registers", "32"}, "known: sm_70"},
      {{"--arch", "sm_90", "--block-size", "abc", "--registers", "32"}, "not a non-negative"},
      {{"--arch", "sm_90", "--block-size", "128", "--registers", "-4"}, "not a non-negative"},
      {{"--arch", "sm_90", "--block-size", "0", "--registers", "32"}, "block size"},
      {{"--arch", "sm_90", "--block-size", "2048", "--registers", "32"}, "1024"},
      {{"--arch", "sm_90", "--block-size", "128", "--registers", "300"}, "255"},
      {{"--arch", "sm_90", "--block-size", "128"}, "--registers"},
      {{"--arch", "sm_120", "--block-size", "128", "--registers", "32", "--shared-mem", "200000"},
       "shared memory"},
      {{"--arch", "gfx942", "--block-size", "128", "--registers", "32", "--carveout", "1024"},
       "carveout"},
      {{"--arch", "sm_90", "--block-size", "128", "--registers", "32", "--format", "xml"},
       "--format"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = c.args;
    args.insert(args.begin(), "occupancy");
    const RunResult r = RunCli(args);
    EXPECT_EQ(r.exit_code, 2) << c.message << "\n" << r.err;
    EXPECT_EQ(r.err.rfind("tensormorph: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "");
  }
  // The unknown-architecture message lists every known one.
  const RunResult r =
      RunCli({"occupancy", "--arch", "gfx1200", "--block-size", "64", "--registers", "32"});
  for (const char* arch : {"sm_70", "sm_90", "sm_120", "gfx908", "gfx942", "gfx1100"}) {
    EXPECT_NE(r.err.find(arch), std::string::npos) << arch;
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
