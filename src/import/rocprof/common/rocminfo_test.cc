#include "import/rocprof/common/rocminfo.h"

#include <gtest/gtest.h>

namespace tensormorph::rocprof {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// The layout of rocminfo's text (ROCm 6.x, as in rocprof v1's results.sysinfo.txt): agent
// headings between rows of stars, the agent's own fields at two spaces, nested sections deeper.
constexpr const char* kText =
    "CMD: rocminfo\n"
    "\x1b[37mROCk module version 6.7.0 is loaded\x1b[0m\n"
    "HSA Agents               \n"
    "*******                  \n"
    "Agent 1                  \n"
    "*******                  \n"
    "  Name:                    AMD EPYC 7763 64-Core Processor    \n"
    "  Node:                    0                                  \n"
    "  Device Type:             CPU                                \n"
    "*******                  \n"
    "Agent 2                  \n"
    "*******                  \n"
    "  Name:                    gfx90a                             \n"
    "  Marketing Name:          AMD Instinct MI250X/MI250          \n"
    "  Node:                    1                                  \n"
    "  Device Type:             GPU                                \n"
    "  Cache Info:              \n"
    "    L1:                      16(0x10) KB                      \n"
    "  Compute Unit:            104                                \n"
    "  Wavefront Size:          64(0x40)                           \n"
    "  Max Waves Per CU:        32(0x20)                           \n"
    "  ISA Info:                \n"
    "    ISA 1                    \n"
    "      Name:                    amdgcn-amd-amdhsa--gfx90a:sramecc+:xnack-\n";

TEST(Rocminfo, TextGivesEachAgentsOwnFields) {
  ASSERT_TRUE(LooksLikeRocminfoText(kText));
  const RocminfoAgents parsed = ParseRocminfoText(kText);
  ASSERT_EQ(parsed.size(), 2u);
  EXPECT_EQ(parsed.at(2).at("Name"), "gfx90a") << "the ISA section's Name is not the agent's";
  EXPECT_EQ(parsed.at(2).at("MarketingName"), "AMD Instinct MI250X/MI250");
  EXPECT_EQ(parsed.at(2).count("L1"), 0u);
  const std::vector<AgentInfo> agents = AgentsFromRocminfo(parsed);
  ASSERT_EQ(agents.size(), 2u);
  EXPECT_FALSE(agents[0].gpu);
  const AgentInfo& gpu = agents[1];
  EXPECT_TRUE(gpu.gpu);
  EXPECT_EQ(gpu.node_id, 1);
  EXPECT_EQ(gpu.gpu_ordinal, 0);
  EXPECT_EQ(gpu.cu_count, 104);
  EXPECT_EQ(gpu.wave_front_size, 64);
  EXPECT_EQ(gpu.max_waves_per_cu, 32);
  EXPECT_EQ(gpu.gfx_target_version, 90010);  // gfx90a: 9, 0, stepping 0xa
}

TEST(Rocminfo, FlattenedKeysAreTheSameFields) {
  // results.json's otherData: spaces removed, fields after "Memory Properties" nested under it.
  RocminfoAgents flat;
  AddFlattenedRocminfoKey("Agent3.Name", "gfx1201", &flat);
  AddFlattenedRocminfoKey("Agent3.Node", "2", &flat);
  AddFlattenedRocminfoKey("Agent3.DeviceType", "GPU", &flat);
  AddFlattenedRocminfoKey("Agent3.MemoryProperties.WavefrontSize", "32(0x20)", &flat);
  AddFlattenedRocminfoKey("Agent3.CacheInfo.L1", "32(0x20) KB", &flat);
  AddFlattenedRocminfoKey("AgentX.Name", "not an agent", &flat);
  AddFlattenedRocminfoKey("Agent4", "no field", &flat);
  ASSERT_EQ(flat.size(), 1u);
  const std::vector<AgentInfo> agents = AgentsFromRocminfo(flat);
  ASSERT_EQ(agents.size(), 1u);
  EXPECT_EQ(agents[0].wave_front_size, 32);
  EXPECT_EQ(agents[0].gfx_target_version, 120001);
}

TEST(Rocminfo, AgentWithoutNodeIsLeftOut) {
  EXPECT_TRUE(AgentsFromRocminfo(ParseRocminfoText("Agent 1\n  Name: gfx90a\n")).empty());
  EXPECT_TRUE(AgentsFromRocminfo(ParseRocminfoText("Agent 1\n  Node: n/a\n")).empty());
  EXPECT_FALSE(LooksLikeRocminfoText("\"Name\",\"Calls\""));
}

TEST(Rocminfo, SysinfoFileIsNamedAfterTheResults) {
  EXPECT_EQ(SysinfoPathBeside("/run/results.csv"), "/run/results.sysinfo.txt");
  EXPECT_EQ(SysinfoPathBeside("/run/results.db"), "/run/results.sysinfo.txt");
  EXPECT_EQ(SysinfoPathBeside("results.csv.gz"), "results.sysinfo.txt");
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::rocprof
