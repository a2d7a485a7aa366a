// SQLite export of a real Nsight Systems export, checked with SQL against the original export's
// own tables (CUPTI_ACTIVITY_KIND_KERNEL / _MEMCPY / _MEMSET: an independent source), plus
// foreign keys, indexes and the links the exporter writes.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <map>
#include <string>
#include <tuple>

#include "export/exporter.h"
#include "support/run_tensormorph.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

const std::string kH100 =
    std::string(TM_SHARED_DATA) + "/nvidia/nsys_sqlite/nsysai_h100_2gpu_1s_2026.2.sqlite";
const std::string kOrt = std::string(TM_SHARED_DATA) +
                         "/other/onnxruntime/onnxruntime_profile_cpu_ort1.30.0_generated.json";

class Db {
 public:
  explicit Db(const std::string& path) {
    EXPECT_EQ(sqlite3_open_v2(("file:" + path + "?immutable=1").c_str(), &db_,
                              SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr),
              SQLITE_OK);
  }
  ~Db() { sqlite3_close(db_); }
  // name -> (count, sum) from a query selecting those three columns.
  std::map<std::string, std::pair<int64_t, int64_t>> Grouped(const std::string& sql) {
    std::map<std::string, std::pair<int64_t, int64_t>> rows;
    Query(sql, [&](sqlite3_stmt* st) {
      const unsigned char* key = sqlite3_column_text(st, 0);
      rows[key ? reinterpret_cast<const char*>(key) : "NULL"] = {sqlite3_column_int64(st, 1),
                                                                 sqlite3_column_int64(st, 2)};
    });
    return rows;
  }
  int64_t Int(const std::string& sql) {
    int64_t value = -1;
    Query(sql, [&](sqlite3_stmt* st) { value = sqlite3_column_int64(st, 0); });
    return value;
  }
  int64_t Rows(const std::string& sql) {
    int64_t rows = 0;
    Query(sql, [&](sqlite3_stmt*) { ++rows; });
    return rows;
  }

 private:
  template <typename F>
  void Query(const std::string& sql, F row) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(db_) << " in: " << sql;
      return;
    }
    while (sqlite3_step(st) == SQLITE_ROW) row(st);
    sqlite3_finalize(st);
  }
  sqlite3* db_ = nullptr;
};

std::string Export(const std::string& input, const std::string& name, Trace* trace) {
  StatusOr<Trace> loaded = LoadTrace(input, ImportOptions{});
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  if (!loaded.ok()) return "";
  *trace = std::move(*loaded);
  const std::string path = ::testing::TempDir() + "/" + name + ".db";
  Status status = FindExporter("sqlite")->Export(LinkedTrace(*trace), path);
  EXPECT_TRUE(status.ok()) << status.message();
  return path;
}

TEST(ExportSqlite, NsightSystemsKernelsMatchTheExportsOwnTables) {
  Trace trace;
  const std::string path = Export(kH100, "h100_2gpu", &trace);
  Db exported(path), original(kH100);
  const auto ours =
      exported.Grouped("SELECT name, count(*), sum(duration_ns) FROM kernels GROUP BY name");
  const auto theirs = original.Grouped(
      "SELECT s.value, count(*), sum(k.\"end\" - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
      "JOIN StringIds s ON s.id = k.demangledName GROUP BY s.value");
  ASSERT_GT(theirs.size(), 1u);
  EXPECT_EQ(ours, theirs);
  // Per (deviceId, streamId): our devices.trace_id is nsys's deviceId.
  EXPECT_EQ(exported.Grouped("SELECT d.trace_id || '/' || k.stream, count(*), sum(duration_ns) "
                             "FROM kernels k JOIN devices d ON d.id = k.device_id GROUP BY 1"),
            original.Grouped("SELECT deviceId || '/' || streamId, count(*), sum(\"end\" - start) "
                             "FROM CUPTI_ACTIVITY_KIND_KERNEL GROUP BY 1"));
  EXPECT_EQ(exported.Grouped("SELECT kind, count(*), sum(bytes) FROM memcpy GROUP BY kind"),
            (std::map<std::string, std::pair<int64_t, int64_t>>{
                {"memcpy",
                 {original.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY"),
                  original.Int("SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMCPY")}},
                {"memset",
                 {original.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_MEMSET"),
                  original.Int("SELECT sum(bytes) FROM CUPTI_ACTIVITY_KIND_MEMSET")}}}));
  // Every kernel's launch call has the kernel's correlation id.
  EXPECT_EQ(exported.Int("SELECT count(*) FROM kernels k JOIN api_calls a ON a.id = k.launch_id "
                         "WHERE a.correlation != k.correlation"),
            0);
  const TraceLinks links = LinkTrace(trace);
  int64_t launched = 0;
  for (const WorkLink& link : links.kernels) launched += link.launch != kNoRow;
  // The export's own tables link as many: a runtime call of the same process (globalTid / 2^24)
  // with the kernel's correlationId.
  EXPECT_EQ(launched,
            original.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS ("
                         "SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE "
                         "r.correlationId = k.correlationId AND "
                         "r.globalTid / 16777216 = k.globalPid / 16777216)"));
  EXPECT_EQ(exported.Int("SELECT count(*) FROM kernels WHERE launch_id IS NOT NULL"), launched);
  EXPECT_EQ(exported.Int("SELECT count(*) FROM api_calls"),
            static_cast<int64_t>(trace.api_calls.size()));
}

TEST(ExportSqlite, ForeignKeysResolveAndIndexesExist) {
  Trace trace;
  for (const auto& [input, name] : {std::pair{kH100, "h100_fk"}, std::pair{kOrt, "ort_fk"}}) {
    const std::string path = Export(input, name, &trace);
    Db db(path);
    EXPECT_EQ(db.Rows("PRAGMA foreign_key_check"), 0) << input;
    EXPECT_EQ(db.Int("SELECT value FROM metadata WHERE key = 'schema_version'"), 1);
    for (const char* index : {"kernels_by_place", "kernels_by_name", "kernels_by_correlation",
                              "memcpy_by_place", "api_calls_by_correlation", "ops_by_name"}) {
      EXPECT_EQ(db.Int(std::string("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
                                   "name = '") +
                       index + "'"),
                1)
          << index;
    }
    EXPECT_EQ(db.Int("SELECT count(*) FROM kernels"), static_cast<int64_t>(trace.kernels.size()));
    EXPECT_EQ(db.Int("SELECT count(*) FROM ops") + db.Int("SELECT count(*) FROM annotations"),
              static_cast<int64_t>(trace.slices.size()));
  }
}

// Through the command line: `tensormorph export TRACE --to sqlite -o OUT` and then the query the
// docs promise "just works", against the export's own kernel table; a second run overwrites.
TEST(ExportSqlite, CommandLineExportAnswersTheDocumentedQuery) {
  const std::string out = ::testing::TempDir() + "/cli_export.db";
  for (int run = 0; run < 2; ++run) {
    const testing::RunResult r =
        testing::RunTensormorph({"export", kH100, "--to", "sqlite", "-o", out, "--quiet"});
    ASSERT_TRUE(r.Clean() && r.exit_code == 0) << r.Describe();
  }
  Db exported(out), original(kH100);
  EXPECT_EQ(
      exported.Grouped("select name, count(*), sum(duration_ns) from kernels group by name"),
      original.Grouped("SELECT s.value, count(*), sum(k.\"end\" - k.start) FROM "
                       "CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s ON s.id = k.demangledName "
                       "GROUP BY s.value"));
  const testing::RunResult bad = testing::RunTensormorph(
      {"export", kH100, "--to", "sqlite", "-o", "/nonexistent-dir/out.db", "--quiet"});
  EXPECT_NE(bad.exit_code, 0) << bad.Describe();
  EXPECT_NE(bad.err.find("/nonexistent-dir/out.db"), std::string::npos) << bad.Describe();
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
