// End-to-end: the binary on the three real rocprof-compute workloads in ../shared/data/other/
// rocprof_compute (rocprof v1 backend MI200, rocprofv2 backend MI300X, rocprofv3 backend MI350).
// Expected numbers come from the CSV files through a split written here (rocprof-compute quotes
// strings and never escapes quotes) and rocprof-compute's formulas written out again
// (other-backends.md §1.4); nothing is shared with src/.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kWorkloads = TM_SHARED_DATA "/other/rocprof_compute/";
const std::string kMi200 = kWorkloads + "vcopy_MI200";
const std::string kMi300 = kWorkloads + "vcopy_MI300X_A1";
const std::string kMi350 = kWorkloads + "no_roof_MI350";

std::vector<std::string> Split(const std::string& line) {
  std::vector<std::string> fields;
  size_t i = 0;
  for (;;) {
    std::string f;
    if (i < line.size() && line[i] == '"') {
      const size_t close = line.find('"', i + 1);
      f = line.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      const size_t comma = line.find(',', i);
      f = line.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
      i = comma == std::string::npos ? line.size() : comma;
    }
    fields.push_back(f);
    if (i >= line.size() || line[i] != ',') break;
    ++i;
  }
  return fields;
}

// A CSV file as rows of column name -> text (first column of a repeated name wins).
std::vector<std::map<std::string, std::string>> ReadCsv(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  auto next = [&] {  // a line without its line end (the MI300X workload's files are CRLF)
    if (!std::getline(in, line)) return false;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    return true;
  };
  next();
  const std::vector<std::string> header = Split(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (next()) {
    if (line.empty()) continue;
    const std::vector<std::string> f = Split(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < f.size(); ++i) row.emplace(header[i], f[i]);
    rows.push_back(std::move(row));
  }
  return rows;
}

double Num(const std::map<std::string, std::string>& row, const std::string& name) {
  auto it = row.find(name);
  EXPECT_NE(it, row.end()) << name;
  return it == row.end() ? NAN : std::stod(it->second);
}

json RunJson(const std::vector<std::string>& args, int want_exit = 0) {
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, want_exit) << r.Describe();
  json doc = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.Describe();
  return doc;
}

struct Expected {
  std::string folder, pmc_file, device, gfx;
  int64_t kernels = 0, total_ns = 0;
};

Expected Totals(const std::string& folder, const std::string& pmc_file) {
  Expected e;
  e.folder = folder;
  e.pmc_file = pmc_file;
  for (const auto& row : ReadCsv(folder + "/" + pmc_file)) {
    ++e.kernels;
    e.total_ns += std::stoll(row.at("End_Timestamp")) - std::stoll(row.at("Start_Timestamp"));
  }
  return e;
}

TEST(RocprofComputeE2E, KernelCountsAndTotalsEqualTheFiles) {
  for (const Expected& e : {Totals(kMi200, "pmc_perf.csv"), Totals(kMi350, "pmc_perf_0.csv")}) {
    for (const std::string& input : {e.folder, e.folder + "/" + e.pmc_file}) {
      SCOPED_TRACE(input);
      const json doc = RunJson({"kernels", "--format", "json", "--quiet", input});
      EXPECT_EQ(doc["kernel_count"], e.kernels);
      EXPECT_EQ(doc["total_ns"], e.total_ns);
      ASSERT_EQ(doc["rows"].size(), 1u);  // every dispatch is vecCopy
      EXPECT_EQ(doc["rows"][0]["count"], e.kernels);
      EXPECT_EQ(doc["rows"][0]["backend"], "rocm");
    }
  }
  // The parent folder (workloads/<name>/ with one SoC folder) reads the same workload.
  const fs::path parent = fs::temp_directory_path() / "tm_rocprof_compute_parent";
  fs::remove_all(parent);
  fs::create_directories(parent);
  fs::copy(kMi200, parent / "MI200");
  const json doc = RunJson({"kernels", "--format", "json", "--quiet", parent.string()});
  EXPECT_EQ(doc["kernel_count"], 3);
  fs::remove_all(parent);
}

// MI300X_A1's times went through a spreadsheet (8.1097E+14): kernels are kept for their counters,
// with durations 0 and a warning, never a made-up duration.
TEST(RocprofComputeE2E, SpreadsheetTimesAreNotDurations) {
  const json info = RunJson({"info", "--format", "json", kMi300});
  const json& in = info["inputs"][0];
  EXPECT_EQ(in["counts"]["kernels"], 3);
  bool warned = false;
  for (const json& w : in["warnings"]) {
    warned |= w.get<std::string>().find("rounded by a spreadsheet") != std::string::npos;
  }
  EXPECT_TRUE(warned) << in["warnings"];
  const json k = RunJson({"kernels", "--format", "json", "--quiet", kMi300});
  EXPECT_EQ(k["total_ns"], 0);
}

TEST(RocprofComputeE2E, InfoShowsFormatBackendAndDevice) {
  const std::map<std::string, std::pair<std::string, std::string>> expected = {
      {kMi200, {"MI200", "rocprof v1 backend"}},
      {kMi300, {"MI300X_A1", "rocprofv2 backend"}},
      {kMi350, {"MI350", "rocprofv3 backend"}}};
  for (const auto& [folder, want] : expected) {
    SCOPED_TRACE(folder);
    const json doc = RunJson({"info", "--format", "json", folder});
    const json& in = doc["inputs"][0];
    EXPECT_EQ(in["format"], "rocprof");
    EXPECT_NE(in["format_version"].get<std::string>().find("rocprof-compute workload"),
              std::string::npos);
    EXPECT_NE(in["format_version"].get<std::string>().find(want.second), std::string::npos)
        << in["format_version"];
    ASSERT_EQ(in["devices"].size(), 1u);
    EXPECT_EQ(in["devices"][0]["backend"], "rocm");
    EXPECT_EQ(in["devices"][0]["name"], want.first);
    const auto sysinfo = ReadCsv(folder + "/sysinfo.csv");
    EXPECT_EQ(in["devices"][0]["sm_count"], std::stoll(sysinfo[0].at("cu_per_gpu")));
  }
}

// HBM bytes of all three dispatches by rocprof-compute's MI200 formula, from the raw counters.
TEST(RocprofComputeE2E, Mi200RooflineUsesMeasuredPeaksAndHbmBytes) {
  double hbm = 0, flops = 0, first = -1;
  for (const auto& r : ReadCsv(kMi200 + "/pmc_perf.csv")) {
    if (first < 0) first = 64 * Num(r, "TCC_EA_RDREQ_sum") + 64 * Num(r, "TCC_EA_WRREQ_64B_sum");
    hbm += 32 * Num(r, "TCC_EA_RDREQ_32B_sum") +
           64 * (Num(r, "TCC_EA_RDREQ_sum") - Num(r, "TCC_EA_RDREQ_32B_sum")) +
           64 * Num(r, "TCC_EA_WRREQ_64B_sum") +
           32 * (Num(r, "TCC_EA_WRREQ_sum") - Num(r, "TCC_EA_WRREQ_64B_sum"));
    flops += 64 * (Num(r, "SQ_INSTS_VALU_ADD_F32") + Num(r, "SQ_INSTS_VALU_MUL_F32") +
                   2 * Num(r, "SQ_INSTS_VALU_FMA_F32") + Num(r, "SQ_INSTS_VALU_TRANS_F32"));
  }
  // A copy of 2^20 doubles reads and writes 8 MiB: the first dispatch's counters say about that
  // (later ones show fewer HBM writes, lines still in L2 when the kernel ended).
  EXPECT_NEAR(first, 2.0 * 8 * 1048576, 0.001 * 16 * 1048576);
  const auto peaks = ReadCsv(kMi200 + "/roofline.csv");
  ASSERT_EQ(peaks[0].at("device"), "0");
  const double hbm_peak = Num(peaks[0], "HBMBw") * 1e9;       // 1388.9302 GB/s
  const double fp32_peak = Num(peaks[0], "FP32Flops") * 1e9;  // 20941.971 GFLOP/s

  const json doc = RunJson({"roofline", "--format", "json", kMi200});
  ASSERT_EQ(doc["rows"].size(), 1u) << doc;
  const json& row = doc["rows"][0];
  EXPECT_EQ(row["peak_source"], "measured (rocprof-compute roofline.csv)");
  EXPECT_DOUBLE_EQ(row["peak_bytes_per_s"].get<double>(), hbm_peak);
  EXPECT_DOUBLE_EQ(row["peak_flops_per_s"].get<double>(), fp32_peak);
  EXPECT_DOUBLE_EQ(row["dram_bytes"].get<double>(), hbm);
  EXPECT_DOUBLE_EQ(row["flops"].get<double>(), flops);  // vecCopy does no arithmetic: 0
  EXPECT_EQ(row["count"], 3);
}

// MI300X: the CDNA3 formula with TCC_BUBBLE; no roofline.csv, so the device database's MI300X.
TEST(RocprofComputeE2E, Mi300HbmBytesAndDatabasePeaks) {
  double hbm = 0;
  for (const auto& r : ReadCsv(kMi300 + "/pmc_perf.csv")) {
    const double bubble = Num(r, "TCC_BUBBLE_sum"), rd = Num(r, "TCC_EA0_RDREQ_sum"),
                 rd32 = Num(r, "TCC_EA0_RDREQ_32B_sum"), wr = Num(r, "TCC_EA0_WRREQ_sum"),
                 wr64 = Num(r, "TCC_EA0_WRREQ_64B_sum");
    hbm += 128 * bubble + 32 * rd32 + 64 * (rd - bubble - rd32) + 32 * (wr - wr64) + 64 * wr64;
  }
  const json doc = RunJson({"roofline", "--format", "json", kMi300});
  ASSERT_EQ(doc["rows"].size(), 1u) << doc;
  const json& row = doc["rows"][0];
  EXPECT_DOUBLE_EQ(row["dram_bytes"].get<double>(), hbm);
  EXPECT_EQ(row["peak_source"], "database: mi300x");
  EXPECT_TRUE(row["achieved_bytes_per_s"].is_null());  // no durations
}

// MI350: a partial workload (pmc_perf_0 + SQ_LEVEL_WAVES passes), no FLOP or HBM counters and no
// roofline.csv: the roofline skips its kernels and says why.
TEST(RocprofComputeE2E, Mi350WithoutRoofCountersSaysWhy) {
  const json doc = RunJson({"roofline", "--format", "json", kMi350});
  EXPECT_TRUE(doc["rows"].empty()) << doc;
  ASSERT_FALSE(doc["skipped"].empty()) << doc;
}

// Theoretical occupancy of vecCopy by the AMD rules (other-backends.md §2.2), by hand:
//   MI200 gfx90a: 256 work-items = 4 waves of 64; VGPRs 8 arch + 0 AGPR -> granule 8 -> 512/8 =
//   64 -> capped at 8 waves/SIMD; SGPR 16 -> 800/16 = 50 -> 8; LDS 0 -> no limit; workgroups per
//   CU by waves = 4 SIMDs x 8 / 4 = 8, by barriers 16 -> 8 workgroups = 32 waves = 8 per SIMD:
//   100 %. MI300X gfx942: 4 + 4 VGPRs = 8 -> the same, 100 %. MI350 gfx950: 4 reported (x2 = 8),
//   the same, 100 %.
// Achieved on MI200, from its SQ_LEVEL_WAVES pass (rocprof's MeanOccupancyPerActiveCU):
//   SQ_ACCUM_PREV_HIRES x 4 / SQ_BUSY_CYCLES / cu_per_gpu / max_waves_per_cu, duration-weighted.
TEST(RocprofComputeE2E, OccupancyFromLaunchConfigurationAndSqLevelWaves) {
  const auto sq = ReadCsv(kMi200 + "/SQ_LEVEL_WAVES.csv");
  const auto pmc = ReadCsv(kMi200 + "/pmc_perf.csv");
  double weighted = 0, time = 0;
  for (size_t i = 0; i < sq.size(); ++i) {
    const double pct =
        100 * Num(sq[i], "SQ_ACCUM_PREV_HIRES") * 4 / Num(sq[i], "SQ_BUSY_CYCLES") / 104 / 32;
    const double ns = Num(pmc[i], "End_Timestamp") - Num(pmc[i], "Start_Timestamp");
    weighted += pct * ns;
    time += ns;
  }
  for (const auto& [folder, arch] : std::map<std::string, std::string>{
           {kMi200, "gfx90a"}, {kMi300, "gfx942"}, {kMi350, "gfx950"}}) {
    SCOPED_TRACE(folder);
    const json doc = RunJson({"occupancy", "--format", "json", folder});
    ASSERT_EQ(doc["rows"].size(), 1u) << doc;
    const json& row = doc["rows"][0];
    EXPECT_EQ(row["arch"], arch);
    EXPECT_DOUBLE_EQ(row["theoretical_occupancy"].get<double>(), 1.0);
    if (folder == kMi200) {
      EXPECT_EQ(row["achieved_source"], "rocprof_compute");
      EXPECT_NEAR(row["achieved_occupancy"].get<double>(), weighted / time / 100, 1e-12);
    } else {
      EXPECT_TRUE(row["achieved_occupancy"].is_null());  // no SQ_ACCUM_PREV_HIRES collected
    }
  }
}

TEST(RocprofComputeE2E, BadFolders) {
  const fs::path dir = fs::temp_directory_path() / "tm_rocprof_compute_bad";
  fs::remove_all(dir);
  fs::create_directories(dir);
  fs::copy_file(kMi200 + "/sysinfo.csv", dir / "sysinfo.csv");
  RunResult r = RunTensormorph({"info", dir.string()});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_NE(r.err.find("no pmc_perf.csv"), std::string::npos) << r.err;

  // A ragged row: warned about with its line, the other dispatches kept.
  std::ifstream in(kMi200 + "/pmc_perf.csv");
  std::string header, row1, row2, row3;
  std::getline(in, header);
  std::getline(in, row1);
  std::getline(in, row2);
  std::getline(in, row3);
  std::ofstream(dir / "pmc_perf.csv") << header << '\n'
                                      << row1 << '\n'
                                      << row2.substr(0, row2.size() / 2) << '\n'
                                      << row3 << '\n';
  const json doc = RunJson({"info", "--format", "json", dir.string()});
  const json& in0 = doc["inputs"][0];
  EXPECT_EQ(in0["counts"]["kernels"], 2);
  bool warned = false;
  for (const json& w : in0["warnings"]) {
    warned |= w.get<std::string>().find("pmc_perf.csv:3") != std::string::npos;
  }
  EXPECT_TRUE(warned) << in0["warnings"];
  fs::remove_all(dir);
}

// The columns of a wide pmc_perf.csv that are not counters: rocprof-compute's identity and launch
// columns, and the copies a side-by-side merge of passes adds (Wave_Size_1, XCC_Index_9).
bool IsIdentity(const std::string& column) {
  static const std::vector<std::string> kIdentity = {
      "Dispatch_ID", "GPU_ID",         "Grid_Size", "Workgroup_Size",  "LDS_Per_Workgroup",
      "Arch_VGPR",   "Accum_VGPR",     "SGPR",      "Wave_Size",       "Scratch_Per_Workitem",
      "Kernel_Name", "Correlation_ID", "XCC_Index", "Start_Timestamp", "End_Timestamp"};
  for (const std::string& id : kIdentity) {
    if (column == id) return true;
    if (column.rfind(id + "_", 0) == 0 &&
        column.find_first_not_of("0123456789", id.size() + 1) == std::string::npos) {
      return true;
    }
  }
  return false;
}

// rocprof-compute profiling through rocpd (ROCm 7) writes pmc_perf.csv long: one row per
// (dispatch, counter) under its SQL's header (GPU_ID, Dispatch_ID, ..., Counter_Name,
// Counter_Value over rocpd's counters_collection view). Built here from the real MI300X
// workload's wide file, cell by cell, the long folder must read as
// the wide one: its 3 dispatches, not 3 x the counters, and the same roofline counters.
TEST(RocprofComputeE2E, LongRocpdPmcPerfIsPivotedToTheWideFilesDispatches) {
  const fs::path dir = fs::temp_directory_path() / "tm_rocprof_compute_long" / "vcopy_MI300X";
  fs::remove_all(dir.parent_path());
  fs::create_directories(dir);
  fs::copy_file(kMi300 + "/sysinfo.csv", dir / "sysinfo.csv");
  std::ofstream out(dir / "pmc_perf.csv");
  out << "GPU_ID,Dispatch_ID,Grid_Size,Workgroup_Size,LDS_Per_Workgroup,Scratch_Per_Workitem,"
         "Arch_VGPR,Accum_VGPR,SGPR,Kernel_Name,Start_Timestamp,End_Timestamp,Kernel_ID,"
         "Counter_Name,Counter_Value\n";
  size_t counter_rows = 0, dispatches = 0;
  for (const auto& row : ReadCsv(kMi300 + "/pmc_perf.csv")) {
    ++dispatches;
    const std::string identity =
        row.at("GPU_ID") + "," + row.at("Dispatch_ID") + "," + row.at("Grid_Size") + "," +
        row.at("Workgroup_Size") + "," + row.at("LDS_Per_Workgroup") + "," +
        row.at("Scratch_Per_Workitem") + "," + row.at("Arch_VGPR") + "," + row.at("Accum_VGPR") +
        "," + row.at("SGPR") + ",\"" + row.at("Kernel_Name") + "\"," + row.at("Start_Timestamp") +
        "," + row.at("End_Timestamp") + ",0,";
    for (const auto& [column, value] : row) {
      if (IsIdentity(column)) continue;
      out << identity << column << ',' << value << '\n';
      ++counter_rows;
    }
  }
  out.close();
  ASSERT_EQ(dispatches, 3u);
  ASSERT_GT(counter_rows, 2000u * dispatches);

  const json wide = RunJson({"roofline", "--format", "json", kMi300});
  const json lng = RunJson({"roofline", "--format", "json", dir.string()});
  EXPECT_EQ(lng["kernel_count"], 3);
  EXPECT_EQ(lng["kernel_count"], wide["kernel_count"]);
  ASSERT_EQ(lng["rows"].size(), 1u) << lng;
  for (const char* field : {"name", "count", "flops", "dram_bytes", "precision", "peak_source"}) {
    EXPECT_EQ(lng["rows"][0][field], wide["rows"][0][field]) << field;
  }
  const json info = RunJson({"info", "--format", "json", (dir / "pmc_perf.csv").string()});
  EXPECT_EQ(info["inputs"][0]["counts"]["kernels"], 3);
  EXPECT_NE(info["inputs"][0]["format_version"].get<std::string>().find("pivoted"),
            std::string::npos)
      << info["inputs"][0]["format_version"];
  fs::remove_all(dir.parent_path());
}

// A long file whose every row is a new dispatch with a new counter is no table: pivoted it would
// hold rows x counters cells (4.5 million here from 3,000 rows). It is refused at the row where
// that shows, not read until memory runs out.
TEST(RocprofComputeE2E, LongLayoutThatIsNoTableIsRefused) {
  const fs::path dir = fs::temp_directory_path() / "tm_rocprof_compute_no_table";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream out(dir / "pmc_perf.csv");
  out << "GPU_ID,Dispatch_ID,Grid_Size,Workgroup_Size,LDS_Per_Workgroup,Scratch_Per_Workitem,"
         "Arch_VGPR,Accum_VGPR,SGPR,Kernel_Name,Start_Timestamp,End_Timestamp,Kernel_ID,"
         "Counter_Name,Counter_Value\n";
  for (int i = 0; i < 3000; ++i) {
    out << "2," << i << ",64,64,0,0,4,0,16,k," << 1000 + i << ',' << 1001 + i << ",0,C" << i
        << ",1\n";
  }
  out.close();
  RunResult r = RunTensormorph({"info", (dir / "pmc_perf.csv").string()});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_NE(r.err.find("do not form a table"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("pmc_perf.csv:"), std::string::npos) << r.err;
  fs::remove_all(dir);
}

}  // namespace TM_UNITY_ID
}  // namespace
