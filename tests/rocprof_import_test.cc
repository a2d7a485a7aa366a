// End-to-end: the binary on the real rocprof samples in ../shared/data/other (rocprofv3 docs
// fixtures, rocprof-compute workloads) and on runs assembled from them in a temporary folder.
// Expected numbers come from the files themselves through a CSV split written here (rocprof
// quotes strings and never escapes quotes), sharing no code with src/.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kOther = TM_SHARED_DATA "/other/";
const std::string kAgentInfoFixture = TM_SOURCE_DIR "/tests/data/rocprofv3_agent_info.csv";
const std::string kJsonFixture = TM_SOURCE_DIR "/tests/data/rocprofv3_results.json";

// One CSV line into fields: a field is "..." (up to the next quote) or text up to a comma.
std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  size_t i = 0;
  for (;;) {
    std::string field;
    if (i < line.size() && line[i] == '"') {
      const size_t close = line.find('"', i + 1);
      field = line.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      const size_t comma = line.find(',', i);
      field = line.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
      i = comma == std::string::npos ? line.size() : comma;
    }
    fields.push_back(field);
    if (i >= line.size()) return fields;
    ++i;  // the comma
  }
}

struct Totals {
  int64_t count = 0;
  int64_t total_ns = 0;
};

// Rows and summed End - Start per kernel name, columns found by their header names.
std::map<std::string, Totals> CountKernels(const std::string& path) {
  std::istringstream lines(ReadFile(path));
  std::string line;
  std::getline(lines, line);
  const std::vector<std::string> header = SplitCsvLine(line);
  size_t name = 0, start = 0, end = 0;
  for (size_t i = 0; i < header.size(); ++i) {
    if (header[i] == "Kernel_Name" || header[i] == "KernelName") name = i;
    if (header[i] == "Start_Timestamp" || header[i] == "BeginNs") start = i;
    if (header[i] == "End_Timestamp" || header[i] == "EndNs") end = i;
  }
  std::map<std::string, Totals> totals;
  while (std::getline(lines, line)) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> f = SplitCsvLine(line);
    Totals& t = totals[f.at(name)];
    ++t.count;
    t.total_ns += std::stoll(f.at(end)) - std::stoll(f.at(start));
  }
  return totals;
}

json Json(const RunResult& r) {
  return json::parse(r.out, nullptr, false);
}

class TempDir {
 public:
  explicit TempDir(const std::string& name) : path_(fs::temp_directory_path() / name) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string operator/(const std::string& file) const { return (path_ / file).string(); }

 private:
  fs::path path_;
};

// A `kernels --format json` document of one rocprof input holds exactly the expected kernels:
// per name its count and total, and the sums over them.
void ExpectKernelsDocument(const json& doc, const std::map<std::string, Totals>& expected) {
  EXPECT_EQ(doc["inputs"][0]["format"], "rocprof");
  int64_t count = 0, total = 0;
  for (const auto& [name, t] : expected) {
    count += t.count;
    total += t.total_ns;
  }
  EXPECT_EQ(doc["kernel_count"], count);
  EXPECT_EQ(doc["total_ns"], total);
  ASSERT_EQ(doc["rows"].size(), expected.size());
  for (const json& row : doc["rows"]) {
    EXPECT_EQ(row["backend"], "rocm");
    auto it = expected.find(row["name"].get<std::string>());
    ASSERT_NE(it, expected.end()) << row["name"];
    EXPECT_EQ(row["count"], it->second.count) << row["name"];
    EXPECT_EQ(row["total_ns"], it->second.total_ns) << row["name"];
  }
}

TEST(RocprofImportE2E, KernelTotalsEqualTheFiles) {
  for (const std::string file :
       {"rocprofv3/kernel_trace.csv", "rocprofv3/kernel_trace_truncated.csv",
        "rocprofv3_rocm62/kernel_trace.csv", "rocprof_compute/vcopy_MI200/timestamps.csv",
        "rocprof_compute/no_roof_MI350/pmc_perf_0.csv",
        "rocprof_v1/mi250x_hpctraining/results.csv"}) {
    SCOPED_TRACE(file);
    const std::map<std::string, Totals> expected = CountKernels(kOther + file);
    ASSERT_FALSE(expected.empty());
    RunResult r = RunTensormorph({"kernels", "--format", "json", "--quiet", kOther + file});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    const json doc = Json(r);
    ASSERT_FALSE(doc.is_discarded()) << r.Describe();
    ExpectKernelsDocument(doc, expected);
  }
}

TEST(RocprofImportE2E, AgentNamesFromAgentInfo) {
  TempDir dir("tm_rocprof_e2e_agents");
  fs::copy_file(kOther + "rocprofv3/kernel_trace.csv", dir / "42_kernel_trace.csv");
  fs::copy_file(kAgentInfoFixture, dir / "42_agent_info.csv");
  RunResult r =
      RunTensormorph({"info", "--format", "json", "--quiet", dir / "42_kernel_trace.csv"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  const json& devices = doc["inputs"][0]["devices"];
  ASSERT_EQ(devices.size(), 1u) << r.Describe();
  // The fixture's agents: nodes 0-1 CPUs, 2-5 MI300X GPUs; "Agent 4" is GPU ordinal 2.
  EXPECT_EQ(devices[0]["name"], "AMD Instinct MI300X");
  EXPECT_EQ(devices[0]["index"], 2);
  EXPECT_EQ(devices[0]["label"], "rocm:2 AMD Instinct MI300X");
  EXPECT_EQ(devices[0]["sm_count"], 304);
  EXPECT_EQ(doc["inputs"][0]["described_device_count"], 4);
  // Without agent_info the device is the agent, with no ordinal guessed.
  RunResult alone = RunTensormorph(
      {"info", "--format", "json", "--quiet", kOther + "rocprofv3/kernel_trace.csv"});
  ASSERT_EQ(alone.exit_code, 0) << alone.Describe();
  EXPECT_EQ(Json(alone)["inputs"][0]["devices"][0]["label"], "rocm:agent4");
}

TEST(RocprofImportE2E, MemoryCopies) {
  const std::string file = kOther + "rocprofv3/memory_copy_trace.csv";
  std::istringstream lines(ReadFile(file));
  std::string line;
  int rows = -1;  // the header
  while (std::getline(lines, line)) rows += !line.empty();
  RunResult r = RunTensormorph({"info", "--format", "json", "--quiet", file});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(Json(r)["inputs"][0]["counts"]["memcpys"], rows);
  EXPECT_EQ(rows, 4);
}

TEST(RocprofImportE2E, CutOffFileWarnsWithFileAndLine) {
  TempDir dir("tm_rocprof_e2e_cut");
  const std::string text = ReadFile(kOther + "rocprofv3/kernel_trace_truncated.csv");
  const size_t last_row = text.rfind('\n', text.size() - 2) + 1;
  const std::string cut = dir / "cut.csv";
  std::ofstream(cut, std::ios::binary) << text.substr(0, last_row + 75);
  RunResult r = RunTensormorph({"info", "--format", "json", "--quiet", cut});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  EXPECT_EQ(doc["inputs"][0]["counts"]["kernels"], 3);
  bool named = false;
  for (const json& w : doc["inputs"][0]["warnings"]) {
    named |= w.get<std::string>().starts_with(cut + ":5: the file ends inside this row");
  }
  EXPECT_TRUE(named) << r.out;
}

TEST(RocprofImportE2E, ForeignHeaderIsAnError) {
  TempDir dir("tm_rocprof_e2e_foreign");
  const std::string file = dir / "other.csv";
  std::ofstream(file) << "time,value\n1,2\n";
  RunResult r = RunTensormorph({"kernels", "--input-format", "rocprof", "--quiet", file});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_NE(r.err.find(file + ":1:1: not a rocprof CSV header"), std::string::npos) << r.err;
}

// Theoretical occupancy of the rocprofv3 sample on gfx942 (MI300X), by hand from
// ../shared/reference/other-backends.md §2 (4 SIMDs per CU, 8 waves per SIMD, 512 VGPRs per lane
// in granules of 8 with AGPRs after the arch VGPRs aligned to 4, 800 SGPRs in granules of 16):
//   every launch: workgroup 64 work-items = 1 wave64.
//   addition/multiply/subtract: 8 VGPRs + 0 AGPRs -> 8 allocated -> 512 / 8 = 64, capped at 8
//     waves per SIMD; divide: alignTo(12, 4) + 4 AGPRs = 16 -> 512 / 16 = 32, capped at 8.
//   SGPRs 16 -> 800 / 16 = 50, capped at 8 waves per SIMD.
//   workgroups per CU: registers 4 x 8 / 1 = 32; waves 4 x 8 / 1 = 32; single-wave workgroups
//     take no barrier slot (limit = the 32 wave slots); LDS 0 sets no limit.
//   -> 32 workgroups x 1 wave = 32 of 32 waves: 100 %, limiter "warps" (first of the tied).
TEST(RocprofImportE2E, OccupancyOfTheRocprofv3Sample) {
  const std::string file = kOther + "rocprofv3/kernel_trace.csv";
  RunResult r =
      RunTensormorph({"occupancy", "--arch", "gfx942", "--format", "json", "--quiet", file});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  EXPECT_EQ(doc["kernel_count"], 9);
  EXPECT_EQ(doc["computed_count"], 9);
  const std::map<std::string, int> counts = {{"void addition_kernel<float>", 3},
                                             {"divide_kernel", 2},
                                             {"multiply_kernel", 2},
                                             {"subtract_kernel", 2}};
  ASSERT_EQ(doc["rows"].size(), 4u) << r.out;
  for (const json& row : doc["rows"]) {
    const std::string name = row["name"];
    const std::string key = name.substr(0, name.find('('));
    EXPECT_EQ(row["count"], counts.at(key)) << name;
    EXPECT_EQ(row["arch"], "gfx942");
    EXPECT_EQ(row["block_size"], 64);
    EXPECT_EQ(row["registers_per_thread"], key == "divide_kernel" ? 12 : 8);
    EXPECT_DOUBLE_EQ(row["theoretical_occupancy"].get<double>(), 1.0) << name;
    EXPECT_EQ(row["active_warps_per_sm"], 32);
    EXPECT_EQ(row["max_warps_per_sm"], 32);
    EXPECT_EQ(row["limiter"], "warps");
    EXPECT_EQ(row["limits"]["registers"], 32);
    EXPECT_EQ(row["limits"]["warps"], 32);
    EXPECT_EQ(row["limits"]["blocks"], 32);
    EXPECT_TRUE(row["limits"]["shared_memory"].is_null());
  }
  // Without --arch or agent_info the gfx target is unknown.
  RunResult unknown = RunTensormorph({"occupancy", "--format", "json", "--quiet", file});
  ASSERT_EQ(unknown.exit_code, 0) << unknown.Describe();
  EXPECT_EQ(Json(unknown)["skipped"]["unknown_architecture"], 9);
}

// The JSON fixture's GEMM on its own agent's gfx942 (no --arch): workgroup 256 = 4 waves;
//   128 VGPRs + 128 AGPRs -> alignTo(128, 4) + 128 = 256 allocated -> 512 / 256 = 2 waves/SIMD;
//   96 SGPRs -> 800 / 96 = 8 waves/SIMD; LDS 16384 B (granule 512) -> 65536 / 16384 = 4 WGs;
//   workgroups per CU: registers 4 x 2 / 4 = 2, waves 32 / 4 = 8, barriers 16, LDS 4
//   -> 2 workgroups x 4 waves = 8 of 32 waves: 25 %, limited by registers.
TEST(RocprofImportE2E, OccupancyFromTheAgentsGfxTarget) {
  RunResult r = RunTensormorph({"occupancy", "--format", "json", "--quiet", kJsonFixture});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  ASSERT_EQ(doc["rows"].size(), 2u) << r.out;
  const json& gemm = doc["rows"][0];
  EXPECT_EQ(gemm["name"], "gemm_kernel(float const*, float const*, float*, int)");
  EXPECT_EQ(gemm["arch"], "gfx942");
  EXPECT_EQ(gemm["count"], 2);
  EXPECT_DOUBLE_EQ(gemm["theoretical_occupancy"].get<double>(), 0.25);
  EXPECT_EQ(gemm["limiter"], "registers");
  EXPECT_EQ(gemm["limits"]["registers"], 2);
  EXPECT_EQ(gemm["limits"]["shared_memory"], 4);
  EXPECT_EQ(gemm["limits"]["warps"], 8);
}

// rocprof v1's Chrome trace (results.json): kernels from the exact BeginNs/EndNs of the dispatch
// rows (pids named GPU<N>), not from the truncated microsecond ts/dur strings. The expectation
// walks the JSON here: process names from the process_name metadata, per KernelName the count
// and the summed EndNs - BeginNs.
TEST(RocprofImportE2E, V1ChromeTraceKernelsFromTheDispatchNanoseconds) {
  for (const std::string& file :
       {kOther + "rocprof_v1/r9700_rdna4_llamacpp/results.json",
        std::string(TM_SOURCE_DIR "/tests/data/rocprof_v1_results_r9700_head.json")}) {
    SCOPED_TRACE(file);
    const json trace = json::parse(ReadFile(file));
    std::map<int64_t, std::string> process;
    for (const json& e : trace["traceEvents"]) {
      if (e.value("ph", "") == "M" && e.value("name", "") == "process_name") {
        process[e["pid"].get<int64_t>()] = e["args"]["name"].get<std::string>();
      }
    }
    std::map<std::string, Totals> expected;
    int64_t truncated_total_us = 0;
    for (const json& e : trace["traceEvents"]) {
      if (e.value("ph", "") != "X" || !process[e["pid"].get<int64_t>()].starts_with("GPU"))
        continue;
      const json& a = e["args"];
      Totals& t = expected[a["KernelName"].get<std::string>()];
      ++t.count;
      t.total_ns +=
          std::stoll(a["EndNs"].get<std::string>()) - std::stoll(a["BeginNs"].get<std::string>());
      truncated_total_us += std::stoll(e["dur"].get<std::string>());
    }
    ASSERT_FALSE(expected.empty());
    RunResult r = RunTensormorph({"kernels", "--format", "json", "--quiet", file});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    const json doc = Json(r);
    ExpectKernelsDocument(doc, expected);
    EXPECT_NE(doc["total_ns"], truncated_total_us * 1000) << "times taken from the truncated dur";
    // The device from otherData's rocminfo: gpu-id 2 is the agent on node 2 (Agent3), the second
    // of the four GPU agents (nodes 1-4; node 0 is the CPU).
    RunResult info = RunTensormorph({"info", "--format", "json", "--quiet", file});
    ASSERT_EQ(info.exit_code, 0) << info.Describe();
    const json devices = Json(info)["inputs"][0]["devices"];
    ASSERT_EQ(devices.size(), 1u) << devices;
    EXPECT_EQ(devices[0]["name"], trace["otherData"]["Agent3.MarketingName"]) << devices;
    EXPECT_EQ(trace["otherData"]["Agent3.Name"], "gfx1201");
    EXPECT_EQ(devices[0]["compute_capability"], "12.0") << devices;
    EXPECT_EQ(devices[0]["sm_count"],
              std::stoi(trace["otherData"]["Agent3.ComputeUnit"].get<std::string>()))
        << devices;
    EXPECT_EQ(devices[0]["index"], 1) << devices;
  }
}

// rocminfo's text as rocprof v1 stores it (results.sysinfo.txt): per "Agent N" block, the value
// of one of the agent's own fields (two-space indent), read here line by line.
std::map<int64_t, std::map<std::string, std::string>> RocminfoByNode(const std::string& text) {
  std::map<int64_t, std::map<std::string, std::string>> by_node;
  std::map<std::string, std::string> agent;
  auto flush = [&] {
    if (agent.count("Node")) by_node[std::stoll(agent["Node"])] = agent;
    agent.clear();
  };
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("Agent ", 0) == 0) flush();
    if (line.size() < 3 || line.rfind("  ", 0) != 0 || line[2] == ' ') continue;
    const size_t colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string key = line.substr(2, colon - 2), value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    value.erase(value.find_last_not_of(' ') + 1);
    agent[key] = value;
  }
  flush();
  return by_node;
}

// rocprof v1's SQLite results.db: the kernels are the KERN table's rows, summed here with SQL
// (KernelName keeps results.csv's quotes there), and equal those of the same run's results.csv.
// Both name the device from results.sysinfo.txt beside them: gpu-id 8 is the agent with Node 8.
TEST(RocprofImportE2E, V1ResultsDbIsItsKernTableAndTheRunsCsv) {
  const std::string dir = kOther + "rocprof_v1/mi250x_hpctraining/";
  std::map<std::string, Totals> expected;
  std::set<int64_t> gpu_ids;
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2((dir + "results.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT substr(KernelName, 2, length(KernelName) - 2), \"gpu-id\", "
                               "EndNs - BeginNs FROM KERN",
                               -1, &st, nullptr),
            SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW) {
    Totals& t = expected[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))];
    ++t.count;
    t.total_ns += sqlite3_column_int64(st, 2);
    gpu_ids.insert(sqlite3_column_int64(st, 1));
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  ASSERT_EQ(expected.size(), 13u);
  ASSERT_EQ(gpu_ids.size(), 1u);
  const auto agents = RocminfoByNode(ReadFile(dir + "results.sysinfo.txt"));
  ASSERT_TRUE(agents.count(*gpu_ids.begin()));
  const std::map<std::string, std::string>& agent = agents.at(*gpu_ids.begin());
  for (const std::string file : {"results.db", "results.csv"}) {
    SCOPED_TRACE(file);
    RunResult r = RunTensormorph({"kernels", "--format", "json", "--quiet", dir + file});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    ExpectKernelsDocument(Json(r), expected);
    RunResult info = RunTensormorph({"info", "--format", "json", dir + file});
    ASSERT_EQ(info.exit_code, 0) << info.Describe();
    EXPECT_EQ(info.err, "") << "no warning";
    const json input = Json(info)["inputs"][0];
    EXPECT_NE(input["format_version"].get<std::string>().find("with results.sysinfo.txt"),
              std::string::npos)
        << input["format_version"];
    const json devices = input["devices"];
    ASSERT_EQ(devices.size(), 1u) << devices;
    EXPECT_EQ(devices[0]["name"], agent.at("Marketing Name")) << devices;
    EXPECT_EQ(agent.at("Name"), "gfx90a");
    EXPECT_EQ(devices[0]["compute_capability"], "9.0") << devices;
    EXPECT_EQ(devices[0]["sm_count"], std::stoi(agent.at("Compute Unit"))) << devices;
  }
}

// An SQLite database without the KERN table is not read as rocprof v1 by guesswork.
TEST(RocprofImportE2E, SqliteWithoutKernIsNotARocprofResultsDb) {
  const fs::path dir = fs::temp_directory_path() / ("tm_rocprof_db_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string path = (dir / "other.db").string();
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(
      sqlite3_exec(db, "CREATE TABLE KERNELS (\"BeginNs\" INTEGER); INSERT INTO KERNELS VALUES (1)",
                   nullptr, nullptr, nullptr),
      SQLITE_OK);
  sqlite3_close(db);
  RunResult r = RunTensormorph({"info", "--input-format", "rocprof", path});
  EXPECT_NE(r.exit_code, 0) << r.Describe();
  EXPECT_NE(r.err.find("without rocprof v1's KERN table"), std::string::npos) << r.Describe();
  fs::remove_all(dir);
}

}  // namespace TM_UNITY_ID
}  // namespace
