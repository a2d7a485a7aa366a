// The rocpd importer (src/import/rocpd/) against SQL over the databases it reads.
//
// No real rocpd database is public. tests/data/rocpd/*.sql hold the rocpd tables (our DDL from
// the published rocpd 3.0.1 schema, rocpd_schema.sql) filled with the real rows of the rocprofv3
// documentation samples in ../shared/data/other/rocprofv3 (kernel_trace.csv, hip_trace.csv,
// memory_copy_trace.csv, counter_collection.csv, rocpd-to-csv.csv), written once by
// tests/data/rocpd/make_rocpd_sql.py (its docstring lists what is not from the samples: the
// agents, four made-up run uuids and one synthetic dispatch for the one hipLaunchKernel).
// Each test builds the database from that text here, and every expected number comes from SQL
// over the database (the oracle uses the SQLite C API only, no src/ code), or from the CSV
// importer reading the same sample.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
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
#include "support/sql_oracle.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/link/work_links.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::Trace;

const std::string kSql = std::string(TM_SOURCE_DIR) + "/tests/data/rocpd/";
const std::string kSamples = std::string(TM_SHARED_DATA) + "/other/rocprofv3/";

// An SQLite database for the oracle side: plain C API, nothing from src/.
using Db = tensormorph::testing::SqlOracle;

// Builds `<name>.db` in a fresh folder from tests/data/rocpd/<name>.sql, then runs `extra` SQL.
std::string BuildDb(const std::string& name, const std::string& extra = "") {
  const fs::path dir =
      fs::temp_directory_path() / ("tm_rocpd_" + std::to_string(::getpid()) + "_" +
                                   ::testing::UnitTest::GetInstance()->current_test_info()->name());
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string path = (dir / (name + "_results.db")).string();
  Db db(path, Db::Mode::kWritable);
  const std::string sql = ReadFile(kSql + name + ".sql");
  EXPECT_FALSE(sql.empty()) << kSql + name + ".sql";
  db.Exec(sql);
  if (!extra.empty()) db.Exec(extra);
  return path;
}

Trace Load(const std::string& path) {
  tensormorph::ImportOptions options;
  tensormorph::StatusOr<Trace> t = tensormorph::LoadTrace(path, options);
  EXPECT_TRUE(t.ok()) << t.status().message();
  return t.ok() ? std::move(t).value() : Trace{};
}

// Kernel name -> (count, total ns).
std::map<std::string, std::pair<int64_t, int64_t>> PerName(const Trace& t) {
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  for (const tensormorph::Kernel& k : t.kernels) {
    auto& e = out[std::string(t.str(k.name))];
    ++e.first;
    e.second += k.duration_ns;
  }
  return out;
}

std::map<std::string, std::pair<int64_t, int64_t>> PerNameSql(Db& db) {
  std::map<std::string, std::pair<int64_t, int64_t>> out;
  db.Query(
      "SELECT S.display_name, COUNT(*), SUM(K.end - K.start) FROM rocpd_kernel_dispatch K "
      "JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id AND S.guid = K.guid GROUP BY 1",
      [&](sqlite3_stmt* st) {
        out[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))] = {
            sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)};
      });
  return out;
}

TEST(RocpdImport, DetectedByTablesAsRocpd) {
  const std::string path = BuildDb("kernel_trace_results");
  const Trace t = Load(path);  // detection by content, no --input-format
  EXPECT_EQ(t.format, "rocpd");
  EXPECT_EQ(t.format_version, "rocpd SQLite, schema 3.0.1");
}

TEST(RocpdImport, KernelsMatchSql) {
  const std::string path = BuildDb("kernel_trace_results");
  Db db(path, Db::Mode::kWritable);
  const Trace t = Load(path);
  ASSERT_EQ(static_cast<int64_t>(t.kernels.size()),
            db.Int("SELECT COUNT(*) FROM rocpd_kernel_dispatch"));
  EXPECT_EQ(t.kernels.size(), 9u);  // kernel_trace.csv's rows
  EXPECT_EQ(PerName(t), PerNameSql(db));
  int64_t lo = INT64_MAX, hi = 0;
  for (const auto& k : t.kernels) {
    lo = std::min(lo, k.start_ns);
    hi = std::max(hi, k.end_ns());
  }
  EXPECT_EQ(lo, db.Int("SELECT MIN(start) FROM rocpd_kernel_dispatch"));
  EXPECT_EQ(hi, db.Int("SELECT MAX(end) FROM rocpd_kernel_dispatch"));

  // Launch configuration of every dispatch, found by its start time.
  size_t checked = 0;
  db.Query(
      "SELECT K.start, K.workgroup_size_x, K.workgroup_size_y, K.workgroup_size_z, "
      "(K.grid_size_x + K.workgroup_size_x - 1) / K.workgroup_size_x, "
      "(K.grid_size_y + K.workgroup_size_y - 1) / K.workgroup_size_y, "
      "(K.grid_size_z + K.workgroup_size_z - 1) / K.workgroup_size_z, K.group_segment_size, "
      "S.arch_vgpr_count, S.accum_vgpr_count, S.sgpr_count, K.stream_id, E.stack_id "
      "FROM rocpd_kernel_dispatch K JOIN rocpd_info_kernel_symbol S ON S.id = K.kernel_id "
      "JOIN rocpd_event E ON E.id = K.event_id",
      [&](sqlite3_stmt* st) {
        auto col = [&](int i) { return sqlite3_column_int64(st, i); };
        for (const auto& k : t.kernels) {
          if (k.start_ns != col(0)) continue;
          ++checked;
          EXPECT_EQ(k.block.x, col(1));
          EXPECT_EQ(k.block.y, col(2));
          EXPECT_EQ(k.block.z, col(3));
          EXPECT_EQ(k.grid.x, col(4));
          EXPECT_EQ(k.grid.y, col(5));
          EXPECT_EQ(k.grid.z, col(6));
          EXPECT_EQ(k.shared_memory_bytes, col(7));
          EXPECT_EQ(k.registers_per_thread, col(8));
          EXPECT_EQ(k.accum_registers_per_thread, col(9));
          EXPECT_EQ(k.scalar_registers, col(10));
          EXPECT_EQ(k.stream, col(11));
          EXPECT_EQ(k.link.correlation & 0xFFFFFFFFu, static_cast<uint64_t>(col(12)));
        }
      });
  EXPECT_EQ(checked, t.kernels.size());
}

TEST(RocpdImport, AgentsAreDevices) {
  const std::string path = BuildDb("kernel_trace_results");
  Db db(path, Db::Mode::kWritable);
  const Trace t = Load(path);
  // Every kernel ran on agent 4; the device carries that agent's description.
  ASSERT_EQ(db.Int("SELECT COUNT(DISTINCT agent_id) FROM rocpd_kernel_dispatch"), 1);
  ASSERT_EQ(t.devices.size(), 1u);
  const auto& d = t.devices[0];
  const std::string agent =
      "SELECT {} FROM rocpd_info_agent WHERE id = "
      "(SELECT agent_id FROM rocpd_kernel_dispatch LIMIT 1)";
  auto select = [&](const char* what) {
    std::string sql = agent;
    sql.replace(sql.find("{}"), 2, what);
    return sql;
  };
  EXPECT_EQ(d.name, db.Text(select("product_name")));
  EXPECT_EQ(d.sm_count, db.Int(select("json_extract(extdata, '$.cu_count')")));
  EXPECT_EQ(d.warp_size, db.Int(select("json_extract(extdata, '$.wave_front_size')")));
  const int64_t version = db.Int(select("json_extract(extdata, '$.gfx_target_version')"));
  EXPECT_EQ(d.compute_major, version / 10000);
  EXPECT_EQ(d.compute_minor, version / 100 % 100);
  // The GPU ordinal: GPU agents with a smaller logical index come first.
  EXPECT_EQ(d.index, db.Int("SELECT COUNT(*) FROM rocpd_info_agent WHERE type = 'GPU' AND "
                            "logical_index < (SELECT logical_index FROM rocpd_info_agent WHERE "
                            "id = (SELECT agent_id FROM rocpd_kernel_dispatch LIMIT 1))"));
  EXPECT_EQ(t.metadata.at("rocm_agent" + std::to_string(d.trace_id) + "_gfx_arch"),
            "\"" + db.Text(select("name")) + "\"");
  EXPECT_EQ(t.described_device_count,
            db.Int("SELECT COUNT(*) FROM rocpd_info_agent WHERE type = 'GPU'"));
}

// The same dispatches as the rocprofv3 CSV importer reads from kernel_trace.csv, per kernel name,
// as `tensormorph kernels --format json` prints them for each input.
TEST(RocpdImport, SameKernelsAsTheCsv) {
  const std::string path = BuildDb("kernel_trace_results");
  auto rows = [](const std::string& input) {
    const auto r = tensormorph::testing::RunTensormorph({"kernels", "--format", "json", input}, 60);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    json doc = json::parse(r.out, nullptr, false);
    std::map<std::string, std::pair<int64_t, int64_t>> out;
    if (doc.is_discarded()) return out;
    for (const json& row : doc["rows"]) {
      out[row["name"].get<std::string>()] = {row["count"].get<int64_t>(),
                                             row["total_ns"].get<int64_t>()};
    }
    return out;
  };
  const auto db_rows = rows(path);
  EXPECT_EQ(db_rows.size(), 4u);
  EXPECT_EQ(db_rows, rows(kSamples + "kernel_trace.csv"));
}

TEST(RocpdImport, MergedRunsAreProcessesWithTheirOwnIds) {
  const std::string path = BuildDb("merged_results");
  Db db(path, Db::Mode::kWritable);
  const Trace t = Load(path);
  EXPECT_EQ(static_cast<int64_t>(t.kernels.size()),
            db.Int("SELECT COUNT(*) FROM rocpd_kernel_dispatch"));
  EXPECT_EQ(PerName(t), PerNameSql(db));
  EXPECT_EQ(t.world_size, db.Int("SELECT COUNT(*) FROM rocpd_info_process"));
  EXPECT_FALSE(t.rank.has_value());
  const json processes = json::parse(t.metadata.at("rocpd_processes"));
  std::set<int64_t> pids, pids_sql;
  for (const json& p : processes) pids.insert(p["pid"].get<int64_t>());
  db.Query("SELECT pid FROM rocpd_info_process",
           [&](sqlite3_stmt* st) { pids_sql.insert(sqlite3_column_int64(st, 0)); });
  EXPECT_EQ(pids, pids_sql);
  // Correlation ids repeat across runs (kernel_trace.csv and counter_collection.csv both have
  // correlation 1), but not in the model.
  EXPECT_GT(db.Int("SELECT COUNT(*) - COUNT(DISTINCT E.stack_id) FROM rocpd_kernel_dispatch K "
                   "JOIN rocpd_event E ON E.id = K.event_id AND E.guid = K.guid"),
            0);
  std::set<uint64_t> ids;
  for (const auto& k : t.kernels) ids.insert(k.link.correlation);
  EXPECT_EQ(ids.size(), t.kernels.size());
}

TEST(RocpdImport, ApiCallsAndTheirLinksMatchSql) {
  const std::string path = BuildDb("merged_results");
  Db db(path, Db::Mode::kWritable);
  const Trace t = Load(path);
  EXPECT_EQ(static_cast<int64_t>(t.api_calls.size()),
            db.Int("SELECT COUNT(*) FROM rocpd_region R JOIN rocpd_event E ON E.id = R.event_id "
                   "AND E.guid = R.guid JOIN rocpd_string C ON C.id = E.category_id AND C.guid "
                   "= E.guid WHERE C.string LIKE 'HIP%'"));
  std::map<std::string, int64_t> names, names_sql;
  for (const auto& c : t.api_calls) ++names[std::string(t.str(c.name))];
  db.Query(
      "SELECT S.string, COUNT(*) FROM rocpd_region R JOIN rocpd_string S ON S.id = "
      "R.name_id AND S.guid = R.guid GROUP BY 1",
      [&](sqlite3_stmt* st) {
        names_sql[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))] =
            sqlite3_column_int64(st, 1);
      });
  EXPECT_EQ(names, names_sql);

  // Kernels whose launch call is in the same run with the same correlation (stack_id).
  std::map<int64_t, std::string> launch_sql;  // kernel start -> launching function
  db.Query(
      "SELECT K.start, N.string FROM rocpd_kernel_dispatch K JOIN rocpd_event KE ON KE.id = "
      "K.event_id AND KE.guid = K.guid JOIN rocpd_region R ON R.guid = K.guid AND R.pid = K.pid "
      "JOIN rocpd_event RE ON RE.id = R.event_id AND RE.guid = R.guid AND RE.stack_id = "
      "KE.stack_id JOIN rocpd_string N ON N.id = R.name_id AND N.guid = R.guid",
      [&](sqlite3_stmt* st) {
        launch_sql[sqlite3_column_int64(st, 0)] =
            reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
      });
  ASSERT_EQ(launch_sql.size(), 1u);  // the one launch of rocpd-to-csv.csv
  const tensormorph::TraceLinks links = tensormorph::LinkTrace(t);
  std::map<int64_t, std::string> launch;
  for (size_t i = 0; i < t.kernels.size(); ++i) {
    if (links.kernels[i].launch == tensormorph::kNoRow) continue;
    launch[t.kernels[i].start_ns] = std::string(t.str(t.api_calls[links.kernels[i].launch].name));
  }
  EXPECT_EQ(launch, launch_sql);
}

TEST(RocpdImport, MemoryCopiesMatchSql) {
  const std::string path = BuildDb("merged_results");
  Db db(path, Db::Mode::kWritable);
  const Trace t = Load(path);
  ASSERT_EQ(static_cast<int64_t>(t.transfers.size()),
            db.Int("SELECT COUNT(*) FROM rocpd_memory_copy"));
  std::map<std::string, std::pair<int64_t, int64_t>> kinds, kinds_sql;
  for (const auto& x : t.transfers) {
    auto& e = kinds[std::string(t.str(x.name))];
    ++e.first;
    e.second += x.duration_ns;
    EXPECT_NE(x.device, tensormorph::kNoDevice);  // each copy has a GPU side (agent 4)
  }
  db.Query(
      "SELECT CASE S.string WHEN 'MEMORY_COPY_HOST_TO_DEVICE' THEN 'Memcpy HtoD' "
      "WHEN 'MEMORY_COPY_DEVICE_TO_HOST' THEN 'Memcpy DtoH' END, COUNT(*), SUM(M.end - M.start) "
      "FROM rocpd_memory_copy M JOIN rocpd_string S ON S.id = M.name_id AND S.guid = M.guid "
      "GROUP BY 1",
      [&](sqlite3_stmt* st) {
        kinds_sql[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))] = {
            sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)};
      });
  EXPECT_EQ(kinds, kinds_sql);
  uint64_t bytes = 0;
  for (const auto& x : t.transfers) bytes += x.bytes;
  EXPECT_EQ(static_cast<int64_t>(bytes), db.Int("SELECT SUM(size) FROM rocpd_memory_copy"));
}

TEST(RocpdImport, CountersPerDispatchMatchSql) {
  // A second SQ_WAVES instance row for dispatch 1 of counter_collection.csv's run: rocpd keeps
  // one row per counter dimension instance, which counters_collection sums.
  const std::string path = BuildDb(
      "merged_results",
      "INSERT INTO rocpd_pmc_event_00000000_0000_7000_8000_000000000004 (id, guid, event_id, "
      "pmc_id, value) SELECT 1000, guid, event_id, pmc_id, 100.0 FROM "
      "rocpd_pmc_event_00000000_0000_7000_8000_000000000004 ORDER BY id LIMIT 1");
  Db db(path, Db::Mode::kWritable);
  const Trace t = Load(path);
  std::map<int64_t, double> sql;  // kernel start -> SQ_WAVES
  db.Query(
      "SELECT K.start, SUM(P.value) FROM rocpd_pmc_event P JOIN rocpd_info_pmc I ON I.id = "
      "P.pmc_id AND I.guid = P.guid JOIN rocpd_kernel_dispatch K ON K.event_id = P.event_id AND "
      "K.guid = P.guid WHERE I.name = 'SQ_WAVES' GROUP BY K.guid, K.dispatch_id",
      [&](sqlite3_stmt* st) { sql[sqlite3_column_int64(st, 0)] = sqlite3_column_double(st, 1); });
  ASSERT_EQ(sql.size(), 4u);
  std::map<int64_t, double> got;
  for (const auto& c : t.kernel_counters) {
    ASSERT_LT(c.kernel, t.kernels.size());
    for (const auto& m : c.metrics) {
      if (t.str(m.name) == "SQ_WAVES") got[t.kernels[c.kernel].start_ns] = m.value;
    }
  }
  EXPECT_EQ(got, sql);
}

TEST(RocpdImport, RankFromTheRecordedEnvironment) {
  const std::string path =
      BuildDb("kernel_trace_results",
              "UPDATE rocpd_info_process_00000000_0000_7000_8000_000000000001 SET environment = "
              "'{\"OMPI_COMM_WORLD_RANK\": \"3\", \"OMPI_COMM_WORLD_SIZE\": \"8\"}'");
  Db db(path, Db::Mode::kWritable);
  const Trace t = Load(path);
  EXPECT_EQ(t.rank, db.Int("SELECT CAST(json_extract(environment, '$.OMPI_COMM_WORLD_RANK') AS "
                           "INTEGER) FROM rocpd_info_process"));
  EXPECT_EQ(t.world_size, db.Int("SELECT CAST(json_extract(environment, "
                                 "'$.OMPI_COMM_WORLD_SIZE') AS INTEGER) FROM rocpd_info_process"));
}

// rocprofv3 writes one database per process; each records its rank in the process environment.
// Two such databases of one job (ranks 0 and 1 of 2, the same run's rows) are its two ranks; the
// same rank twice is two inputs, not a job.
TEST(RocpdImport, PerProcessDatabasesOfOneJobAreItsRanks) {
  const std::string first = BuildDb("kernel_trace_results");
  const auto with_rank = [&](const std::string& name, int rank) {
    const std::string path = (fs::path(first).parent_path() / (name + "_results.db")).string();
    fs::copy_file(first, path, fs::copy_options::overwrite_existing);
    Db(path, Db::Mode::kWritable)
        .Exec(
            "UPDATE rocpd_info_process_00000000_0000_7000_8000_000000000001 SET environment = "
            "'{\"RANK\": \"" +
            std::to_string(rank) + "\", \"WORLD_SIZE\": \"2\"}'");
    return path;
  };
  const std::string rank0 = with_rank("rank0", 0), rank1 = with_rank("rank1", 1);
  for (const std::string& path : {rank0, rank1}) {
    EXPECT_EQ(Db(path, Db::Mode::kWritable).Int("SELECT COUNT(*) FROM rocpd_info_process"), 1)
        << "one process per database";
  }
  const auto run = [](const std::vector<std::string>& args) {
    const tensormorph::testing::RunResult r = tensormorph::testing::RunTensormorph(args);
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    return r.exit_code == 0 ? json::parse(r.out) : json::object();
  };
  const json job = run({"collectives", "--format", "json", rank1, rank0});
  EXPECT_TRUE(job["job"]["is_job"].get<bool>()) << job["job"];
  EXPECT_TRUE(job["job"]["complete"].get<bool>());
  EXPECT_EQ(job["job"]["world_size"], 2);
  ASSERT_EQ(job["ranks"].size(), 2u);
  EXPECT_EQ(job["ranks"][0]["rank"], 0);
  EXPECT_EQ(job["ranks"][0]["input"], rank0);
  EXPECT_EQ(job["ranks"][1]["input"], rank1);
  const json timeline = run({"timeline", "--format", "json", rank0, rank1});
  EXPECT_TRUE(timeline["ranks"]["is_job"].get<bool>());

  const std::string again = with_rank("rank0_again", 0);
  const json twice = run({"collectives", "--format", "json", rank0, again});
  EXPECT_FALSE(twice["job"]["is_job"].get<bool>());
  EXPECT_NE(twice["job"]["verdict"].get<std::string>().find("two inputs name the same rank"),
            std::string::npos)
      << twice["job"]["verdict"];
}

TEST(RocpdImport, BadRowsAreSkippedWithAWarning) {
  const std::string path = BuildDb(
      "kernel_trace_results",
      "UPDATE rocpd_kernel_dispatch_00000000_0000_7000_8000_000000000001 SET end = start - 1 "
      "WHERE dispatch_id = 4");
  Db db(path, Db::Mode::kWritable);
  const Trace t = Load(path);
  EXPECT_EQ(static_cast<int64_t>(t.kernels.size()),
            db.Int("SELECT COUNT(*) FROM rocpd_kernel_dispatch WHERE end >= start"));
  EXPECT_EQ(t.counts.skipped, 1u);
  bool warned = false;
  for (const std::string& w : t.warnings) {
    warned = warned || w.find("rocpd_kernel_dispatch row") != std::string::npos;
  }
  EXPECT_TRUE(warned);
}

TEST(RocpdImport, OtherSqliteKeepsTheNsightError) {
  const fs::path path = fs::temp_directory_path() / "tm_rocpd_not_rocpd.db";
  fs::remove(path);
  {
    Db db(path.string(), Db::Mode::kWritable);
    db.Exec("CREATE TABLE unrelated (x INTEGER); INSERT INTO unrelated VALUES (1);");
  }
  tensormorph::StatusOr<Trace> t = tensormorph::LoadTrace(path.string(), {});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("not an Nsight Systems export"), std::string::npos)
      << t.status().message();
  tensormorph::ImportOptions forced;
  forced.input_format = "rocpd";
  t = tensormorph::LoadTrace(path.string(), forced);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("not a rocpd database"), std::string::npos)
      << t.status().message();
}

TEST(RocpdImport, TruncatedDatabaseIsAnErrorNotACrash) {
  const std::string path = BuildDb("merged_results");
  const std::string bytes = ReadFile(path);
  const std::string cut = path + ".cut.db";
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 3);
  tensormorph::StatusOr<Trace> t = tensormorph::LoadTrace(cut, {});
  if (t.ok()) {
    EXPECT_LE(t->kernels.size(), 14u);  // whatever pages survived, never more rows
  } else {
    EXPECT_FALSE(t.status().message().empty());
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
