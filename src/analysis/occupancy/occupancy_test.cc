#include "tensormorph/analysis/occupancy/occupancy.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/csv.h"
#include "tensormorph/analysis/occupancy/gpu_limits.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;

constexpr int64_t kKiB = 1024;

GpuArch Arch(const std::string& name) {
  StatusOr<GpuArch> arch = ParseArch(name);
  EXPECT_TRUE(arch.ok()) << name << ": " << arch.status().message();
  return arch.ok() ? arch.value() : GpuArch{};
}

LaunchConfig Launch(int64_t block, int64_t regs, int64_t shared = 0,
                    std::optional<int64_t> carveout = std::nullopt) {
  LaunchConfig l;
  l.block_size = block;
  l.registers_per_thread = regs;
  l.dynamic_shared_bytes = shared;
  l.carveout_bytes = carveout;
  return l;
}

OccupancyResult Occupancy(const std::string& arch, const LaunchConfig& launch) {
  StatusOr<OccupancyResult> r = ComputeOccupancy(Arch(arch), launch);
  EXPECT_TRUE(r.ok()) << arch << ": " << r.status().message();
  return r.ok() ? r.value() : OccupancyResult{};
}

std::string RunError(const std::string& arch, const LaunchConfig& launch) {
  StatusOr<OccupancyResult> r = ComputeOccupancy(Arch(arch), launch);
  EXPECT_FALSE(r.ok()) << arch << " accepted an impossible launch";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  return r.status().message();
}

// ------------------------------------------------------------------------------------------------
// (1) The NVIDIA rules table of ../shared/reference/nvidia.md §3, transcribed row by row (values
// in KB are 1024 bytes), with the per-CC constants of its cuda_occupancy.h table: blocks per SM,
// carveout steps, barrier slots (x2 except 8.x other than 8.0, 10.1, 11.0, 12.x).

struct ReferenceRow {
  const char* arch;
  int warps_per_sm;
  int threads_per_sm;
  int blocks_per_sm;
  int smem_per_sm_kb;
  int smem_per_block_kb;
  int smem_unit;
  int reserved;
  std::vector<int> carveouts_kb;  // the full list where the reference gives one, else first/last
  bool full_carveout_list;
  int barrier_factor;  // 0: not reported below CC 9.0
};

const std::vector<ReferenceRow>& Reference() {
  static const std::vector<ReferenceRow> rows = {
      {"7.0", 64, 2048, 32, 96, 96, 256, 0, {0, 8, 16, 32, 64, 96}, true, 0},
      {"7.5", 32, 1024, 16, 64, 64, 256, 0, {32, 64}, true, 0},
      {"8.0", 64, 2048, 32, 164, 163, 128, 1024, {0, 8, 16, 32, 64, 100, 132, 164}, true, 0},
      {"8.6", 48, 1536, 16, 100, 99, 128, 1024, {0, 8, 16, 32, 64, 100}, true, 0},
      {"8.7", 48, 1536, 16, 164, 163, 128, 1024, {0, 8, 16, 32, 64, 100, 132, 164}, true, 0},
      {"8.9", 48, 1536, 24, 100, 99, 128, 1024, {0, 8, 16, 32, 64, 100}, true, 0},
      {"9.0",
       64,
       2048,
       32,
       228,
       227,
       128,
       1024,
       {0, 8, 16, 32, 64, 100, 132, 164, 196, 228},
       true,
       2},
      {"10.0", 64, 2048, 32, 228, 227, 128, 1024, {0, 228}, false, 2},
      {"10.1", 48, 1536, 24, 228, 227, 128, 1024, {0, 228}, false, 1},  // = 11.0 (renamed)
      {"10.3", 64, 2048, 32, 228, 227, 128, 1024, {0, 228}, false, 2},
      {"11.0", 48, 1536, 24, 228, 227, 128, 1024, {0, 228}, false, 1},
      {"12.0", 48, 1536, 24, 100, 99, 128, 1024, {0, 100}, false, 1},
      {"12.1", 48, 1536, 24, 100, 99, 128, 1024, {0, 100}, false, 1},
  };
  return rows;
}

TEST(OccupancyRules, TableMatchesTheReferenceForEveryComputeCapability) {
  for (const ReferenceRow& row : Reference()) {
    SCOPED_TRACE(row.arch);
    const GpuArch arch = Arch(row.arch);
    const NvidiaLimits& n = arch.nvidia;
    EXPECT_EQ(n.max_warps_per_sm, row.warps_per_sm);
    EXPECT_EQ(n.max_warps_per_sm * n.warp_size, row.threads_per_sm);
    EXPECT_EQ(n.max_blocks_per_sm, row.blocks_per_sm);
    EXPECT_EQ(n.registers_per_sm, 65536);
    EXPECT_EQ(n.max_registers_per_block, 65536);
    EXPECT_EQ(n.max_registers_per_thread, 255);
    EXPECT_EQ(n.register_allocation_unit, 256);
    EXPECT_EQ(n.max_threads_per_block, 1024);
    EXPECT_EQ(n.max_shared_per_sm, row.smem_per_sm_kb * kKiB);
    EXPECT_EQ(n.max_shared_per_block, row.smem_per_block_kb * kKiB);
    EXPECT_EQ(n.shared_allocation_unit, row.smem_unit);
    EXPECT_EQ(n.reserved_shared_per_block, row.reserved);
    EXPECT_EQ(n.barrier_slots_per_block_slot, row.barrier_factor);
    ASSERT_FALSE(n.carveout_steps.empty());
    if (row.full_carveout_list) {
      std::vector<int64_t> expected;
      for (int kb : row.carveouts_kb) expected.push_back(kb * kKiB);
      EXPECT_EQ(n.carveout_steps, expected);
    } else {
      EXPECT_EQ(n.carveout_steps.front(), row.carveouts_kb.front() * kKiB);
      EXPECT_EQ(n.carveout_steps.back(), row.carveouts_kb.back() * kKiB);
    }
  }
}

// The calculator applies the table: limits, granularities and maxima show up in its results.
TEST(OccupancyRules, CalculatorAppliesEveryRowsLimitsAndGranularities) {
  for (const ReferenceRow& row : Reference()) {
    SCOPED_TRACE(row.arch);
    // One-warp blocks, 8 registers (one 256-register unit per warp): 16384 / 256 = 64 warps per
    // sub-partition, 256 per SM, so warps and blocks are the limits.
    OccupancyResult r = Occupancy(row.arch, Launch(32, 8));
    EXPECT_EQ(r.limits.warps, row.warps_per_sm);
    EXPECT_EQ(r.limits.blocks, row.blocks_per_sm);
    EXPECT_EQ(r.limits.registers, 256);
    EXPECT_EQ(r.registers_allocated, 256);
    EXPECT_EQ(r.max_warps_per_sm, row.warps_per_sm);
    EXPECT_EQ(r.active_blocks_per_sm, std::min(row.warps_per_sm, row.blocks_per_sm));
    // 9 registers per thread take two units per warp.
    EXPECT_EQ(Occupancy(row.arch, Launch(32, 9)).registers_allocated, 512);
    // 1 byte of shared memory: one allocation unit on top of the reservation.
    EXPECT_EQ(Occupancy(row.arch, Launch(32, 8, 1)).shared_per_block, row.reserved + row.smem_unit);
    // The per-thread and per-block maxima are accepted, one more is an error.
    EXPECT_TRUE(ComputeOccupancy(Arch(row.arch), Launch(32, 255)).ok());
    RunError(row.arch, Launch(32, 256));
    EXPECT_EQ(Occupancy(row.arch, Launch(32, 8, row.smem_per_block_kb * kKiB)).active_blocks_per_sm,
              1);
    RunError(row.arch, Launch(32, 8, row.smem_per_block_kb * kKiB + 1));
    // Every carveout step is a capacity the SM can be given, the last one the SM's maximum. A
    // 0 KB carveout cannot hold a block's 1 KB reservation (CC >= 8.0): the driver then takes
    // the first step that does, 8 KB.
    for (int kb : row.carveouts_kb) {
      const int64_t bytes = kb * kKiB;
      EXPECT_EQ(Occupancy(row.arch, Launch(32, 8, 0, bytes)).shared_per_sm,
                bytes >= row.reserved ? bytes : 8 * kKiB)
          << kb << " KB";
    }
    EXPECT_EQ(Occupancy(row.arch, Launch(32, 8)).shared_per_sm, row.smem_per_sm_kb * kKiB);
    RunError(row.arch, Launch(32, 8, 0, row.smem_per_sm_kb * kKiB + 1));
    if (row.barrier_factor > 0) {
      EXPECT_EQ(r.limits.barriers, row.blocks_per_sm * row.barrier_factor);
    } else {
      EXPECT_EQ(r.limits.barriers, kNoLimit);
    }
  }
}

TEST(OccupancyRules, Sm72IsNotInTheReferenceAndIsMarkedSo) {
  const GpuArch arch = Arch("sm_72");
  EXPECT_STRNE(arch.nvidia.unconfirmed, "");
  EXPECT_EQ(arch.nvidia.max_blocks_per_sm, 32);  // cuda_occupancy.h: every CC 7.x but 7.5
}

// ------------------------------------------------------------------------------------------------
// Architecture names.

TEST(OccupancyArchNames, SpellingsOfOneArchitecture) {
  for (const char* s : {"sm_90", "SM_90", "sm90", "9.0", "90", "sm_90a", "compute_90", " sm_90 "}) {
    EXPECT_EQ(Arch(s).name, "sm_90") << s;
  }
  for (const char* s : {"100", "10.0", "sm_100f", "sm_100a"}) EXPECT_EQ(Arch(s).name, "sm_100");
  for (const char* s : {"12.0", "120", "sm_120"}) EXPECT_EQ(Arch(s).name, "sm_120");
  EXPECT_EQ(Arch("86").name, "sm_86");
  EXPECT_EQ(Arch("gfx942").vendor, GpuVendor::kAmd);
  EXPECT_EQ(Arch("GFX942:sramecc+:xnack-").name, "gfx942");
  for (const char* s : {"gfx908", "gfx90a", "gfx950", "gfx1100"}) EXPECT_EQ(Arch(s).name, s);
}

TEST(OccupancyArchNames, UnknownNamesListTheKnownOnes) {
  for (const char* s : {"sm_95", "gfx1200", "", "9", "abc", "9.10", "sm_"}) {
    StatusOr<GpuArch> arch = ParseArch(s);
    ASSERT_FALSE(arch.ok()) << s;
    EXPECT_EQ(arch.status().code(), StatusCode::kInvalidArgument);
    EXPECT_NE(arch.status().message().find("sm_70"), std::string::npos);
    EXPECT_NE(arch.status().message().find("gfx1100"), std::string::npos);
  }
}

// ------------------------------------------------------------------------------------------------
// (2) Nsight Compute's own Occupancy section, from the real exports in
// ../shared/data/nvidia/ncu_csv/ (Nsight Compute 2025.1.1, RTX 5090, CC 12.0). Block size and CC
// are read from each file's "Block Size" and "CC" columns; the expected block limits, theoretical
// active warps and occupancy from its Occupancy rows.
//
// The exports hold no Launch Statistics section (command.yaml asked only for SpeedOfLight,
// MemoryWorkloadAnalysis, Occupancy, SchedulerStats, SpeedOfLight_RooflineChart), so registers per
// thread, shared memory per block and the driver's shared memory configuration are not in them.
// The file's own block limits pin them down (KB = 1024 bytes, 4 warps per 128-thread block):
//   k0001: Block Limit Registers 2 -> floor(floor(16384 / R) x 4 / 4) = 2 -> 16384 / R in [2, 3)
//          -> R (registers per warp, a multiple of 256) in {5632 .. 8192} -> per thread 169..255.
//          Block Limit Shared Mem 4 -> capacity / A in [4, 5), A = static + dynamic + 1024 rounded
//          to 128; on an 8 KB configuration A in (1638.4, 2048] -> 513..1024 bytes per block (and
//          one range per other carveout step). The test uses 1024 bytes on 8 KB.
//   k0004: Block Limit Registers 16 -> 16384 / R in [16, 17) -> R = 1024 -> 25..32 per thread.
//          Block Limit Shared Mem 32: the kernel (an elementwise copy) has no shared memory, so A
//          = 1024 and the configuration is 32 KB (32768 / 1024 = 32).
// Both ends of each register range are run; the sweep test below checks the ranges are exact.

struct AssumedInputs {
  std::vector<int64_t> registers;  // both ends of the range the file allows
  int64_t shared_bytes;
  int64_t carveout_bytes;
  int64_t registers_low;  // the full range, for the sweep
  int64_t registers_high;
};

const std::map<std::string, AssumedInputs>& Assumed() {
  static const std::map<std::string, AssumedInputs> inputs = {
      {"llmperfopt_k0001", {{169, 255}, 1024, 8 * kKiB, 169, 255}},
      {"llmperfopt_k0004", {{25, 32}, 0, 32 * kKiB, 25, 32}},
  };
  return inputs;
}

// "13,485" -> 13485; "16.67" -> 16.67.
double NcuNumber(std::string text) {
  std::erase(text, ',');
  return std::stod(text);
}

struct NcuLaunch {
  std::string file;
  std::string stem;  // "llmperfopt_k0001"
  int64_t block_size = 0;
  std::string cc;
  std::map<std::string, double> occupancy;  // Occupancy section metric -> value
  std::string theoretical_rule;             // the TheoreticalOccupancy rule's text, if it fired
};

std::vector<NcuLaunch> LoadNcuLaunches() {
  std::vector<NcuLaunch> launches;
  const fs::path dir = fs::path(TM_SHARED_DATA) / "nvidia" / "ncu_csv";
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() == ".csv") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  for (const fs::path& path : files) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    const auto rows = testing::ParseCsv(buffer.str());
    if (rows.empty()) continue;
    std::map<std::string, size_t> col;
    for (size_t i = 0; i < rows[0].size(); ++i) col[rows[0][i]] = i;
    if (!col.contains("Section Name") || !col.contains("Metric Name")) continue;  // an error log
    std::map<std::string, NcuLaunch> by_id;
    for (size_t r = 1; r < rows.size(); ++r) {
      const auto& row = rows[r];
      auto get = [&](const char* name) {
        const auto it = col.find(name);
        return it != col.end() && it->second < row.size() ? row[it->second] : std::string();
      };
      if (get("Section Name") != "Occupancy") continue;
      NcuLaunch& l = by_id[get("ID")];
      l.file = path.filename().string();
      l.stem = l.file.substr(0, l.file.find("_ncu"));
      l.cc = get("CC");
      // "(32, 4, 1)" -> 128 threads.
      long x = 0, y = 0, z = 0;  // NOLINT(google-runtime-int): sscanf's %ld
      EXPECT_EQ(std::sscanf(get("Block Size").c_str(), "(%ld, %ld, %ld)", &x, &y, &z), 3);
      l.block_size = x * y * z;
      if (!get("Metric Name").empty())
        l.occupancy[get("Metric Name")] = NcuNumber(get("Metric Value"));
      if (get("Rule Name") == "TheoreticalOccupancy") l.theoretical_rule = get("Rule Description");
    }
    // Files with only the section's rule row (ncu.metrics.csv) hold no Occupancy metrics.
    for (auto& [id, launch] : by_id) {
      if (!launch.occupancy.empty()) launches.push_back(std::move(launch));
    }
  }
  return launches;
}

TEST(OccupancyNcu, ExportsHoldTheLaunchesThisTestExpects) {
  const std::vector<NcuLaunch> launches = LoadNcuLaunches();
  std::set<std::string> stems;
  for (const NcuLaunch& l : launches) stems.insert(l.stem);
  EXPECT_TRUE(stems.contains("llmperfopt_k0001"));
  EXPECT_TRUE(stems.contains("llmperfopt_k0004"));
  EXPECT_GE(launches.size(), 3u);  // k0001 details and Occupancy section, k0004 details
}

TEST(OccupancyNcu, ReproducesNsightComputesOccupancySection) {
  const std::vector<NcuLaunch> launches = LoadNcuLaunches();
  ASSERT_FALSE(launches.empty());
  const std::map<OccupancyLimiter, const char*> ncu_limit_names = {
      {OccupancyLimiter::kWarps, "Block Limit Warps"},
      {OccupancyLimiter::kRegisters, "Block Limit Registers"},
      {OccupancyLimiter::kSharedMemory, "Block Limit Shared Mem"},
      {OccupancyLimiter::kBlocks, "Block Limit SM"}};
  for (const NcuLaunch& l : launches) {
    SCOPED_TRACE(l.file);
    const auto assumed = Assumed().find(l.stem);
    if (assumed == Assumed().end()) {
      ADD_FAILURE() << "no launch inputs recorded for " << l.stem << "; add them to Assumed()";
      continue;
    }
    for (const char* metric :
         {"Block Limit Warps", "Block Limit Registers", "Block Limit Shared Mem", "Block Limit SM",
          "Theoretical Active Warps per SM", "Theoretical Occupancy"}) {
      ASSERT_TRUE(l.occupancy.contains(metric)) << metric;
    }
    const auto& m = l.occupancy;
    for (int64_t registers : assumed->second.registers) {
      SCOPED_TRACE(fmt::format("{} registers per thread", registers));
      LaunchConfig launch = Launch(l.block_size, registers, 0, assumed->second.carveout_bytes);
      launch.static_shared_bytes = assumed->second.shared_bytes;
      const OccupancyResult r = Occupancy(l.cc, launch);
      EXPECT_EQ(r.limits.warps, m.at("Block Limit Warps"));
      EXPECT_EQ(r.limits.registers, m.at("Block Limit Registers"));
      EXPECT_EQ(r.limits.shared_memory, m.at("Block Limit Shared Mem"));
      EXPECT_EQ(r.limits.blocks, m.at("Block Limit SM"));
      if (m.contains("Block Limit Barriers")) {
        EXPECT_EQ(r.limits.barriers, m.at("Block Limit Barriers"));
      }
      EXPECT_EQ(r.active_warps_per_sm, m.at("Theoretical Active Warps per SM"));
      // Nsight Compute prints the percentage with two decimals.
      EXPECT_NEAR(r.occupancy * 100, m.at("Theoretical Occupancy"), 0.005);
      // The limiter: the smallest of the file's four block limits (ties: any of them).
      double fewest = 1e18;
      for (const auto& [limiter, name] : ncu_limit_names) fewest = std::min(fewest, m.at(name));
      EXPECT_EQ(m.at(ncu_limit_names.at(r.limiter)), fewest) << LimiterName(r.limiter);
      if (!l.theoretical_rule.empty() && r.limiter == OccupancyLimiter::kRegisters) {
        EXPECT_NE(l.theoretical_rule.find("limited by the number of required registers"),
                  std::string::npos)
            << l.theoretical_rule;
      }
    }
  }
}

// Every register count from 1 to 255 that reproduces the file's "Block Limit Registers" lies in
// the range derived by hand above, and every count in that range does.
TEST(OccupancyNcu, RegisterRangesDerivedFromTheExportsAreExact) {
  for (const NcuLaunch& l : LoadNcuLaunches()) {
    SCOPED_TRACE(l.file);
    const auto assumed = Assumed().find(l.stem);
    if (assumed == Assumed().end() || !l.occupancy.contains("Block Limit Registers")) continue;
    int64_t low = 0, high = 0;
    for (int64_t registers = 1; registers <= 255; ++registers) {
      const OccupancyResult r = Occupancy(l.cc, Launch(l.block_size, registers));
      if (r.limits.registers != l.occupancy.at("Block Limit Registers")) continue;
      if (low == 0) low = registers;
      if (high != 0) {
        EXPECT_EQ(registers, high + 1) << "the range has a hole";
      }
      high = registers;
    }
    EXPECT_EQ(low, assumed->second.registers_low);
    EXPECT_EQ(high, assumed->second.registers_high);
  }
}

// ------------------------------------------------------------------------------------------------
// (3) AMD, computed by hand from ../shared/reference/other-backends.md §2 (LLVM's rules).

// llvm-calc-occupancy's documented example: -mcpu=gfx90a --wg-size=512 --vgprs=50 --sgprs=30
// -> 8 waves per EU. By hand: 512 / 64 = 8 waves per workgroup. VGPRs: 50 -> aligned to 8 = 56,
// 512 / 56 = 9, capped at 8 waves per SIMD. SGPRs: 30 -> 32, 800 / 32 = 25, capped at 8.
// Registers: 4 SIMDs x 8 / 8 = 4 workgroups; wave slots: 32 / 8 = 4; barriers 16; no LDS.
// 4 workgroups x 8 waves = 32 waves per CU = 8 per SIMD, occupancy 32 / 32.
TEST(OccupancyAmd, LlvmCalcOccupancyExample) {
  LaunchConfig l = Launch(512, 50);
  l.scalar_registers = 30;
  const OccupancyResult r = Occupancy("gfx90a", l);
  EXPECT_EQ(r.waves_per_simd_vgpr, 8);
  EXPECT_EQ(r.waves_per_simd_sgpr, 8);
  EXPECT_EQ(r.registers_allocated, 56);
  EXPECT_EQ(r.limits.registers, 4);
  EXPECT_EQ(r.limits.warps, 4);
  EXPECT_EQ(r.limits.blocks, 16);
  EXPECT_EQ(r.limits.shared_memory, kNoLimit);
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_EQ(r.active_warps_per_sm, 32);
  EXPECT_EQ(r.max_warps_per_sm, 32);
  EXPECT_DOUBLE_EQ(r.waves_per_simd, 8.0);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.limiter, OccupancyLimiter::kWarps);  // tied with registers: warps comes first
  EXPECT_EQ(r.limiters.size(), 2u);
}

// LLVM's unit-test table for gfx90a/gfx940 (D138443): waves per SIMD from total VGPRs,
// 512 / alignTo(V, 8) capped at 8. Past 256 the extra entries are AGPRs (arch 256 + AGPRs).
TEST(OccupancyAmd, Gfx90aVgprTable) {
  const std::vector<std::pair<int64_t, int64_t>> table = {
      {1, 8},  {64, 8},  {65, 7},  {72, 7},  {73, 6},  {80, 6},  {81, 5},  {96, 5},
      {97, 4}, {128, 4}, {129, 3}, {168, 3}, {169, 2}, {256, 2}, {260, 1}, {512, 1}};
  for (const char* arch : {"gfx90a", "gfx942", "gfx950"}) {
    for (const auto& [vgprs, waves] : table) {
      LaunchConfig l = Launch(64, std::min<int64_t>(vgprs, 256));
      l.accum_registers = vgprs > 256 ? vgprs - 256 : 0;
      EXPECT_EQ(Occupancy(arch, l).waves_per_simd_vgpr, waves) << arch << " " << vgprs << " VGPRs";
    }
  }
}

// MI100 (gfx908): "with 119 VGPRs used, only two wavefronts can be active" (ROCm MI100 doc):
// alignTo(119, 4) = 120, 256 / 120 = 2. A 256-thread workgroup (4 waves): 4 x 2 / 4 = 2
// workgroups, 8 waves of 40. AGPRs are a separate file there: max(100, 128) = 128 -> 2 waves.
TEST(OccupancyAmd, Gfx908SeparateAccumulationFile) {
  const OccupancyResult r = Occupancy("gfx908", Launch(256, 119));
  EXPECT_EQ(r.waves_per_simd_vgpr, 2);
  EXPECT_EQ(r.active_blocks_per_sm, 2);
  EXPECT_EQ(r.active_warps_per_sm, 8);
  EXPECT_EQ(r.max_warps_per_sm, 40);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.2);
  EXPECT_EQ(r.limiter, OccupancyLimiter::kRegisters);
  LaunchConfig l = Launch(256, 100);
  l.accum_registers = 128;
  EXPECT_EQ(Occupancy("gfx908", l).registers_allocated, 128);
  EXPECT_EQ(Occupancy("gfx908", l).waves_per_simd_vgpr, 2);
}

// gfx942, 130 arch VGPRs + 70 AGPRs: alignTo(130, 4) = 132, + 70 = 202, alignTo(202, 8) = 208,
// 512 / 208 = 2 waves per SIMD. 256 work-items = 4 waves: 4 x 2 / 4 = 2 workgroups (registers),
// wave slots 32 / 4 = 8, barriers 16 -> 2 workgroups, 8 waves of 32 = 25 %, 2 waves per SIMD.
TEST(OccupancyAmd, Gfx942UnifiedAccumulationRegisters) {
  LaunchConfig l = Launch(256, 130);
  l.accum_registers = 70;
  const OccupancyResult r = Occupancy("gfx942", l);
  EXPECT_EQ(r.registers_allocated, 208);
  EXPECT_EQ(r.waves_per_simd_vgpr, 2);
  EXPECT_EQ(r.limits.registers, 2);
  EXPECT_EQ(r.limits.warps, 8);
  EXPECT_EQ(r.active_blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.25);
  EXPECT_DOUBLE_EQ(r.waves_per_simd, 2.0);
  EXPECT_EQ(r.limiter, OccupancyLimiter::kRegisters);
}

// 40,000 bytes of LDS in a one-wave workgroup with 32 VGPRs (8 waves per SIMD, 32 workgroups by
// registers, 32 wave slots, no barrier limit for one wave):
//   gfx950: alignTo(40000, 1280) = 40960, 163840 / 40960 = 4 workgroups -> 4 / 32 = 12.5 %;
//   gfx942: alignTo(40000, 512) = 40448, 65536 / 40448 = 1 workgroup -> 1 / 32.
TEST(OccupancyAmd, LdsPerCuAndGranule) {
  const OccupancyResult mi355 = Occupancy("gfx950", Launch(64, 32, 40000));
  EXPECT_EQ(mi355.shared_per_block, 40960);
  EXPECT_EQ(mi355.limits.shared_memory, 4);
  EXPECT_EQ(mi355.limits.registers, 32);
  EXPECT_EQ(mi355.limits.blocks, 32);
  EXPECT_EQ(mi355.active_blocks_per_sm, 4);
  EXPECT_DOUBLE_EQ(mi355.occupancy, 0.125);
  EXPECT_EQ(mi355.limiter, OccupancyLimiter::kSharedMemory);
  const OccupancyResult mi300 = Occupancy("gfx942", Launch(64, 32, 40000));
  EXPECT_EQ(mi300.shared_per_block, 40448);
  EXPECT_EQ(mi300.active_blocks_per_sm, 1);
  EXPECT_DOUBLE_EQ(mi300.occupancy, 1.0 / 32);
}

// gfx908, 102 SGPRs: alignTo(102, 16) = 112, 800 / 112 = 7 waves per SIMD; 24 VGPRs give
// 256 / 24 = 10. One-wave workgroups: 4 x 7 = 28 workgroups (SGPRs), 28 waves of 40 = 70 %.
TEST(OccupancyAmd, SgprsLimitOnGfx9) {
  LaunchConfig l = Launch(64, 24);
  l.scalar_registers = 102;
  const OccupancyResult r = Occupancy("gfx908", l);
  EXPECT_EQ(r.waves_per_simd_vgpr, 10);
  EXPECT_EQ(r.waves_per_simd_sgpr, 7);
  EXPECT_EQ(r.limits.vgprs, 40);
  EXPECT_EQ(r.limits.sgprs, 28);
  EXPECT_EQ(r.active_blocks_per_sm, 28);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.7);
  EXPECT_DOUBLE_EQ(r.waves_per_simd, 7.0);
  EXPECT_EQ(r.limiter, OccupancyLimiter::kRegisters);
  // gfx1100: SGPRs never limit.
  l.scalar_registers = 128;
  EXPECT_EQ(Occupancy("gfx1100", l).waves_per_simd_sgpr, 16);
}

// gfx1100, 256 work-items, 96 VGPRs.
//   wave32 (default): 8 waves; alignTo(96, 24) = 96, 1536 / 96 = 16 waves per SIMD; 4 x 16 / 8
//   = 8 workgroups; wave slots 64 / 8 = 8; barriers 32 -> 8 workgroups, 64 of 64 waves.
//   wave64: 4 waves; alignTo(96, 12) = 96, 768 / 96 = 8 per SIMD; 4 x 8 / 4 = 8 workgroups;
//   wave slots 64 / 4 = 16 -> 8 workgroups, 32 of 64 waves (registers).
TEST(OccupancyAmd, Gfx1100Wave32AndWave64) {
  const OccupancyResult w32 = Occupancy("gfx1100", Launch(256, 96));
  EXPECT_EQ(w32.warp_size, 32);
  EXPECT_EQ(w32.warps_per_block, 8);
  EXPECT_EQ(w32.waves_per_simd_vgpr, 16);
  EXPECT_EQ(w32.active_blocks_per_sm, 8);
  EXPECT_EQ(w32.max_warps_per_sm, 64);
  EXPECT_DOUBLE_EQ(w32.occupancy, 1.0);
  LaunchConfig l = Launch(256, 96);
  l.wave_size = 64;
  const OccupancyResult w64 = Occupancy("gfx1100", l);
  EXPECT_EQ(w64.warps_per_block, 4);
  EXPECT_EQ(w64.waves_per_simd_vgpr, 8);
  EXPECT_EQ(w64.limits.warps, 16);
  EXPECT_EQ(w64.active_blocks_per_sm, 8);
  EXPECT_DOUBLE_EQ(w64.occupancy, 0.5);
  EXPECT_EQ(w64.limiter, OccupancyLimiter::kRegisters);
}

// Small workgroups share SIMDs: 64 work-items with 128 VGPRs on gfx90a give 512 / 128 = 4 waves
// per SIMD, so 16 one-wave workgroups per CU (not 4). Two-wave workgroups on gfx908 with 24
// VGPRs: registers 4 x 10 / 2 = 20, wave slots 40 / 2 = 20, barrier slots 16 -> 16 (blocks).
TEST(OccupancyAmd, WavesSpreadOverSimdsAndBarrierSlots) {
  const OccupancyResult one_wave = Occupancy("gfx90a", Launch(64, 128));
  EXPECT_EQ(one_wave.active_blocks_per_sm, 16);
  EXPECT_DOUBLE_EQ(one_wave.waves_per_simd, 4.0);
  EXPECT_EQ(one_wave.limits.blocks, 32);  // one-wave workgroups take no barrier slot
  const OccupancyResult two_waves = Occupancy("gfx908", Launch(128, 24));
  EXPECT_EQ(two_waves.limits.registers, 20);
  EXPECT_EQ(two_waves.limits.warps, 20);
  EXPECT_EQ(two_waves.limits.blocks, 16);
  EXPECT_EQ(two_waves.active_blocks_per_sm, 16);
  EXPECT_EQ(two_waves.limiter, OccupancyLimiter::kBlocks);
  EXPECT_DOUBLE_EQ(two_waves.occupancy, 0.8);
}

// 1024 work-items (16 waves) with 256 VGPRs on gfx90a: 512 / 256 = 2 waves per SIMD, 8 slots per
// CU for 16 waves -> the workgroup cannot launch.
TEST(OccupancyAmd, WorkgroupThatCannotLaunch) {
  const OccupancyResult r = Occupancy("gfx90a", Launch(1024, 256));
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_EQ(r.occupancy, 0);
  EXPECT_EQ(r.limiter, OccupancyLimiter::kRegisters);
  EXPECT_NE(r.note.find("cannot launch"), std::string::npos) << r.note;
}

TEST(OccupancyAmd, InvalidInputs) {
  EXPECT_NE(RunError("gfx942", Launch(64, 257)).find("256"), std::string::npos);
  LaunchConfig agprs = Launch(64, 32);
  agprs.accum_registers = 257;
  RunError("gfx942", agprs);
  agprs.accum_registers = 1;
  EXPECT_NE(RunError("gfx1100", agprs).find("no accumulation"), std::string::npos);
  RunError("gfx942", Launch(64, 32, 65537));
  EXPECT_TRUE(ComputeOccupancy(Arch("gfx950"), Launch(64, 32, 160 * kKiB)).ok());
  RunError("gfx950", Launch(64, 32, 160 * kKiB + 1));
  RunError("gfx942", Launch(64, 32, 0, 65536));  // a carveout is NVIDIA's
  LaunchConfig wave32 = Launch(64, 32);
  wave32.wave_size = 32;
  RunError("gfx942", wave32);
  LaunchConfig sgprs = Launch(64, 32);
  sgprs.scalar_registers = 113;
  RunError("gfx90a", sgprs);
  RunError("gfx90a", Launch(1025, 32));
}

// ------------------------------------------------------------------------------------------------
// (4) NVIDIA edge cases and hand-computed launches.

// sm_90, 256 threads, 64 registers: 64 x 32 = 2048 per warp; 16384 / 2048 = 8 warps per
// sub-partition, 32 per SM, 32 / 8 = 4 blocks; 4 x 8 warps = 32 of 64 = 50 %.
TEST(OccupancyNvidia, RegistersLimitedLaunch) {
  const OccupancyResult r = Occupancy("sm_90", Launch(256, 64));
  EXPECT_EQ(r.limits.registers, 4);
  EXPECT_EQ(r.limits.warps, 8);
  EXPECT_EQ(r.limits.shared_memory, 228);  // 1 KB reserved per block, 228 KB per SM
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_EQ(r.active_warps_per_sm, 32);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limiter, OccupancyLimiter::kRegisters);
}

// sm_86, 10,000 bytes per block: 10000 + 1024 = 11024 -> 11136 allocated (87 x 128).
//   default (100 KB): 102400 / 11136 = 9 blocks; carveout 0 -> too small for one block, so the
//   smallest step that holds one, 16 KB: 1 block; carveout 20000 -> the 32 KB step: 2 blocks.
TEST(OccupancyNvidia, CarveoutRoundsUpToASupportedStep) {
  EXPECT_EQ(Occupancy("sm_86", Launch(128, 32, 10000)).shared_per_block, 11136);
  EXPECT_EQ(Occupancy("sm_86", Launch(128, 32, 10000)).limits.shared_memory, 9);
  const OccupancyResult none = Occupancy("sm_86", Launch(128, 32, 10000, 0));
  EXPECT_EQ(none.shared_per_sm, 16384);
  EXPECT_EQ(none.limits.shared_memory, 1);
  const OccupancyResult some = Occupancy("sm_86", Launch(128, 32, 10000, 20000));
  EXPECT_EQ(some.shared_per_sm, 32768);
  EXPECT_EQ(some.limits.shared_memory, 2);
  EXPECT_EQ(some.limiter, OccupancyLimiter::kSharedMemory);
  // Turing offers 32 or 64 KB only: a carveout of 0 means 32 KB.
  EXPECT_EQ(Occupancy("sm_75", Launch(128, 32, 1, 0)).shared_per_sm, 32768);
}

TEST(OccupancyNvidia, UnusedResourcesSetNoLimit) {
  const OccupancyResult r = Occupancy("sm_70", Launch(128, 0));  // no registers, no shared memory
  EXPECT_EQ(r.limits.registers, kNoLimit);
  EXPECT_EQ(r.limits.shared_memory, kNoLimit);  // no reservation before CC 8.0
  EXPECT_EQ(r.active_blocks_per_sm, 16);        // 64 warps / 4
}

// Block 800 threads = 25 warps, 80 registers = 2560 per warp: 25 x 2560 = 64000 fits the 65536
// per block, but the hardware checks 28 warps (rounded up to the 4 sub-partitions): 71680.
TEST(OccupancyNvidia, BlocksThatCannotLaunch) {
  const OccupancyResult r = Occupancy("sm_80", Launch(800, 80));
  EXPECT_EQ(r.limits.registers, 0);
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_EQ(r.occupancy, 0);
  EXPECT_EQ(r.limiter, OccupancyLimiter::kRegisters);
  EXPECT_NE(r.note.find("cannot launch"), std::string::npos);
  EXPECT_EQ(Occupancy("sm_90", Launch(1024, 128)).active_blocks_per_sm, 0);
  EXPECT_EQ(Occupancy("sm_90", Launch(1024, 64)).active_blocks_per_sm, 1);  // exactly 65536
}

TEST(OccupancyNvidia, InvalidInputsAreErrors) {
  EXPECT_NE(RunError("sm_90", Launch(0, 32)).find("block size"), std::string::npos);
  EXPECT_NE(RunError("sm_90", Launch(1025, 32)).find("1024"), std::string::npos);
  EXPECT_NE(RunError("sm_90", Launch(-5, 32)).find("block size"), std::string::npos);
  EXPECT_NE(RunError("sm_90", Launch(128, 256)).find("255"), std::string::npos);
  RunError("sm_90", Launch(128, -1));
  EXPECT_NE(RunError("sm_120", Launch(128, 32, 99 * kKiB + 1)).find("101376"), std::string::npos);
  LaunchConfig huge = Launch(128, 32);
  huge.static_shared_bytes = INT64_MAX;
  huge.dynamic_shared_bytes = INT64_MAX;
  RunError("sm_90", huge);
  RunError("sm_90", Launch(128, 32, 0, 228 * kKiB + 1));
  RunError("sm_90", Launch(128, 32, 0, -1));
  LaunchConfig amd_only = Launch(128, 32);
  amd_only.accum_registers = 8;
  RunError("sm_90", amd_only);
}

TEST(OccupancyNvidia, OptInNoteAbove48KB) {
  EXPECT_EQ(Occupancy("sm_90", Launch(128, 32, 48 * kKiB)).note, "");
  EXPECT_NE(Occupancy("sm_90", Launch(128, 32, 48 * kKiB + 1)).note.find("opt-in"),
            std::string::npos);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
