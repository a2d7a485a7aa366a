// `tensormorph memory` on the allocator tables of Nsight Systems and rocpd exports, against SQL
// over the same database (SQLite C API only; no src/ code).
//
// No shared export has these tables, so each test builds one from the documented schema:
//  - Nsight Systems: the real H100 export nsysai_h100_2gpu_1s_2026.2.sqlite (its kernels on
//    deviceId 0 and 1) with a CUDA_GPU_MEMORY_USAGE_EVENTS table added, columns as the Nsight
//    Systems SQLite schema reference lists them. The rows are NOT real: sizes, addresses and
//    times written here (allocations and frees on both GPUs, pinned host memory, a free of an
//    address allocated before the capture).
//  - rocpd: tests/data/rocpd/memory_results.sql, written by make_rocpd_sql.py: the kernels of
//    kernel_trace_results.sql (see rocpd_import_test.cc) with a rocpd_memory_allocate table
//    whose first four rows are the REAL rows of the rocprofv3 sample memory_allocation_trace.csv
//    (host memory on CPU agent 0, frees with size 0 and no agent, as rocprofv3 writes them); the
//    GPU rows on agents 2 and 3 (a free without size or agent, a REALLOC), a VIRTUAL and a
//    SCRATCH row (not program allocations: left out) are NOT real.
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>

#include "support/files.h"
#include "support/run_tensormorph.h"
#include "support/sql_oracle.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using Db = tensormorph::testing::SqlOracle;
using tensormorph::testing::RunTensormorph;

fs::path TempDir() {
  const fs::path dir =
      fs::temp_directory_path() / ("tm_memory_tables_" + std::to_string(::getpid()) + "_" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

json Memory(const std::string& path) {
  auto r = RunTensormorph({"memory", "--format", "json", "--quiet", "--top", "0", path});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out);
}

// Peak of the running sum per group, from SQL rows (group, time, delta) in time order.
std::map<std::string, std::pair<int64_t, int64_t>> PeaksBySql(Db& db, const std::string& sql) {
  std::map<std::string, std::pair<int64_t, int64_t>> peaks;  // group -> (peak, records)
  db.Query(sql, [&](sqlite3_stmt* st) {
    peaks[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))] = {
        sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)};
  });
  return peaks;
}

// The real H100 export copied to `path`, with an empty CUDA_GPU_MEMORY_USAGE_EVENTS table in the
// columns the Nsight Systems SQLite schema reference lists; t0 and pid of its first kernel.
struct NsightExport {
  explicit NsightExport(const fs::path& path) : db(Copy(path), Db::Mode::kWritable) {
    t0 = db.Int("SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    pid = db.Int("SELECT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL LIMIT 1");
    db.Exec(
        "CREATE TABLE CUDA_GPU_MEMORY_USAGE_EVENTS (start INTEGER NOT NULL, globalPid INTEGER "
        "NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, address INTEGER NOT "
        "NULL, pc INTEGER NOT NULL, bytes INTEGER NOT NULL, memKind INTEGER NOT NULL, "
        "memoryOperationType INTEGER NOT NULL, name TEXT, correlationId INTEGER, streamId "
        "INTEGER, localMemoryPoolAddress INTEGER, localMemoryPoolReleaseThreshold INTEGER, "
        "localMemoryPoolSize INTEGER, localMemoryPoolUtilizedSize INTEGER, "
        "importedMemoryPoolAddress INTEGER, importedMemoryPoolProcessId INTEGER)");
  }
  static std::string Copy(const fs::path& path) {
    fs::copy_file(fs::path(TM_SHARED_DATA) / "nvidia/nsys_sqlite/nsysai_h100_2gpu_1s_2026.2.sqlite",
                  path);
    fs::permissions(path, fs::perms::owner_read | fs::perms::owner_write);
    return path.string();
  }
  Db db;
  int64_t t0 = 0, pid = 0;
};

TEST(MemoryTables, NsightMemoryUsageEventsAreARunningSumPerDevice) {
  const fs::path path = TempDir() / "h100_with_memory_usage.sqlite";
  NsightExport nsys(path);
  Db& db = nsys.db;
  const int64_t t0 = nsys.t0, pid = nsys.pid;
  // (time after the first kernel, device, address, bytes, memKind, operation)
  const int64_t rows[][6] = {
      {100, 0, 0x7f0000000000, 1 << 30, 2, 0}, {200, 1, 0x7f1000000000, 1 << 29, 2, 0},
      {300, 0, 0x7f0040000000, 1 << 28, 2, 0}, {400, 0, 0x7f0000000000, 1 << 30, 2, 1},
      {500, 0, 0x7f0050000000, 3 << 28, 2, 0}, {600, 1, 0x7f1000000000, 1 << 29, 2, 1},
      {700, 0, 0x600000000000, 1 << 20, 1, 0}, {800, 0, 0x7f0060000000, 1 << 20, 2, 1},
      {900, 0, 0x7f0050000000, 3 << 28, 2, 1}, {1000, 0, 0x600000000000, 1 << 20, 1, 1}};
  for (const auto& r : rows) {
    db.Exec(
        "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId, contextId, "
        "address, pc, bytes, memKind, memoryOperationType) VALUES (" +
        std::to_string(t0 + r[0]) + ", " + std::to_string(pid) + ", " + std::to_string(r[1]) +
        ", 1, " + std::to_string(r[2]) + ", 0, " + std::to_string(r[3]) + ", " +
        std::to_string(r[4]) + ", " + std::to_string(r[5]) + ")");
  }
  // Host memory (pageable, pinned) is the host's; device memory its device's. Frees subtract.
  const auto expected = PeaksBySql(
      db,
      "SELECT g, MAX(running), COUNT(*) FROM (SELECT CASE WHEN memKind IN (0, 1) THEN 'cpu' ELSE "
      "'gpu' || deviceId END AS g, SUM(CASE memoryOperationType WHEN 0 THEN bytes ELSE -bytes "
      "END) OVER (PARTITION BY CASE WHEN memKind IN (0, 1) THEN -1 ELSE deviceId END ORDER BY "
      "start ROWS UNBOUNDED PRECEDING) AS running FROM CUDA_GPU_MEMORY_USAGE_EVENTS) GROUP BY g");
  ASSERT_EQ(expected.size(), 3U);

  const json doc = Memory(path.string());
  ASSERT_EQ(doc["devices"].size(), expected.size()) << doc.dump();
  for (const json& d : doc["devices"]) {
    const std::string label = d["device"];
    std::smatch ordinal;  // "cuda:0 NVIDIA ...", or "cuda:id0" where the export has no ordinal
    const bool gpu = std::regex_search(label, ordinal, std::regex("^cuda:(?:id)?([0-9]+)"));
    const std::string group = gpu ? "gpu" + ordinal[1].str() : label;
    ASSERT_TRUE(expected.contains(group)) << label;
    SCOPED_TRACE(label);
    EXPECT_EQ(d["basis"], "running sum");
    EXPECT_EQ(d["peak_allocated_bytes"], expected.at(group).first);
    EXPECT_EQ(d["records"], expected.at(group).second);
  }
  // The free of 0x7f0060000000 (never allocated in the capture) counts as allocated before it:
  // the running sum dips below zero, and the peak is still the largest sum.
  EXPECT_EQ(expected.at("gpu0").first, (1 << 30) + (1 << 28));
}

// cudaMallocAsync allocations carry their pool's size after the event: the device's reserved
// memory is the sum of its pools' latest sizes, recomputed here from the rows in time order (the
// rows are NOT real: two pools on device 1, a trim of one after a free, and a plain cudaMalloc).
TEST(MemoryTables, NsightMemoryPoolSizesAreTheReservedTotal) {
  const fs::path path = TempDir() / "h100_with_pools.sqlite";
  NsightExport nsys(path);
  Db& db = nsys.db;
  const int64_t t0 = nsys.t0, pid = nsys.pid;
  constexpr int64_t kMib = 1 << 20;
  // (time, address, bytes, operation, pool address or 0, pool size)
  const int64_t rows[][6] = {{100, 0x7f1000000000, 256 * kMib, 0, 0x7f0f00000000, 1024 * kMib},
                             {200, 0x7f2000000000, 512 * kMib, 0, 0x7f0e00000000, 2048 * kMib},
                             {300, 0x7f1000000000, 256 * kMib, 1, 0x7f0f00000000, 512 * kMib},
                             {400, 0x7f3000000000, 128 * kMib, 0, 0, 0}};
  for (const auto& r : rows) {
    const std::string pool = r[4] ? std::to_string(r[4]) : "NULL";
    const std::string size = r[4] ? std::to_string(r[5]) : "NULL";
    db.Exec(
        "INSERT INTO CUDA_GPU_MEMORY_USAGE_EVENTS (start, globalPid, deviceId, contextId, "
        "address, pc, bytes, memKind, memoryOperationType, localMemoryPoolAddress, "
        "localMemoryPoolSize) VALUES (" +
        std::to_string(t0 + r[0]) + ", " + std::to_string(pid) + ", 1, 1, " + std::to_string(r[1]) +
        ", 0, " + std::to_string(r[2]) + ", 2, " + std::to_string(r[3]) + ", " + pool + ", " +
        size + ")");
  }
  // The reserved total after each row: the latest size of every pool seen so far, summed.
  std::map<int64_t, int64_t> pools;
  int64_t peak_reserved = 0, running = 0, peak_allocated = 0;
  db.Query(
      "SELECT localMemoryPoolAddress, localMemoryPoolSize, bytes, memoryOperationType FROM "
      "CUDA_GPU_MEMORY_USAGE_EVENTS ORDER BY start",
      [&](sqlite3_stmt* st) {
        if (sqlite3_column_type(st, 0) != SQLITE_NULL) {
          pools[sqlite3_column_int64(st, 0)] = sqlite3_column_int64(st, 1);
        }
        int64_t reserved = 0;
        for (const auto& [address, size] : pools) reserved += size;
        peak_reserved = std::max(peak_reserved, reserved);
        running += (sqlite3_column_int64(st, 3) == 0 ? 1 : -1) * sqlite3_column_int64(st, 2);
        peak_allocated = std::max(peak_allocated, running);
      });
  EXPECT_EQ(peak_reserved, 3072 * kMib);  // both pools at their largest, at 200
  const json doc = Memory(path.string());
  ASSERT_EQ(doc["devices"].size(), 1U) << doc.dump();
  EXPECT_EQ(doc["devices"][0]["peak_allocated_bytes"], peak_allocated);
  EXPECT_EQ(doc["devices"][0]["peak_reserved_bytes"], peak_reserved);
  EXPECT_EQ(doc["devices"][0]["basis"], "running sum");
}

TEST(MemoryTables, RocpdAllocationsPairFreesWithTheirAllocation) {
  const std::string path = (TempDir() / "memory_results.db").string();
  {
    Db db(path, Db::Mode::kWritable);
    db.Exec(tensormorph::testing::ReadFile(std::string(TM_SOURCE_DIR) +
                                           "/tests/data/rocpd/memory_results.sql"));
  }
  Db db(path);
  // Each FREE or REALLOC replaces the latest ALLOC or REALLOC of its address before it: its size
  // and agent. Only REAL memory counts.
  auto previous = [](const std::string& column) {
    return "(SELECT B." + column +
           " FROM rocpd_memory_allocate B WHERE B.address = A.address AND B.type IN ('ALLOC', "
           "'REALLOC') AND B.level = 'REAL' AND B.start < A.start ORDER BY B.start DESC LIMIT 1)";
  };
  const std::string events =
      "SELECT A.start AS start, COALESCE(" + previous("agent_id") +
      ", A.agent_id) AS agent, CASE A.type WHEN 'ALLOC' THEN A.size WHEN 'REALLOC' THEN A.size - " +
      previous("size") + " ELSE -" + previous("size") +
      " END AS delta, CASE A.type WHEN 'REALLOC' THEN 2 ELSE 1 END AS records FROM "
      "rocpd_memory_allocate A WHERE A.level = 'REAL'";
  const auto expected = PeaksBySql(
      db,
      "SELECT CASE T.type WHEN 'CPU' THEN 'cpu' ELSE 'agent' || E.agent END, MAX(running), "
      "SUM(records) FROM (SELECT agent, records, SUM(delta) OVER (PARTITION BY agent ORDER BY "
      "start ROWS UNBOUNDED PRECEDING) AS running FROM (" +
          events + ")) E JOIN rocpd_info_agent T ON T.id = E.agent GROUP BY E.agent");
  ASSERT_EQ(expected.size(), 3U);
  EXPECT_EQ(expected.at("cpu").first, 2048);                      // the sample's two 1 KiB
  EXPECT_EQ(expected.at("agent2").first, (1 << 30) + (1 << 29));  // before the 1 GiB free

  const json doc = Memory(path);
  ASSERT_EQ(doc["devices"].size(), expected.size()) << doc.dump();
  std::map<std::string, json> by_label;
  for (const json& d : doc["devices"]) {
    by_label[d["device"]] = d;
    EXPECT_EQ(d["basis"], "running sum");
  }
  // Agents 2 and 3 are the first and second GPU (rocm:0, rocm:1), agent 0 the host.
  std::map<std::string, std::string> group_of = {{"cpu", "cpu"}};
  for (const auto& [label, d] : by_label) {
    if (label.starts_with("rocm:0")) group_of[label] = "agent2";
    if (label.starts_with("rocm:1")) group_of[label] = "agent3";
  }
  ASSERT_EQ(group_of.size(), 3U) << doc.dump();
  for (const auto& [label, group] : group_of) {
    SCOPED_TRACE(label);
    EXPECT_EQ(by_label.at(label)["peak_allocated_bytes"], expected.at(group).first);
    EXPECT_EQ(by_label.at(label)["records"], expected.at(group).second);
  }
  // Alive at the end: nothing on the host (both freed); on agent 2 the 0.5 GiB allocation and the
  // REALLOC's 0.25 GiB.
  EXPECT_TRUE(by_label.at("cpu")["alive_at_end"].empty());
  for (const auto& [label, group] : group_of) {
    if (group != "agent2") continue;
    int64_t alive = 0;
    for (const json& row : by_label.at(label)["alive_at_end"]) alive += row["bytes"].get<int64_t>();
    EXPECT_EQ(alive, (1 << 29) + (1 << 28));
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
