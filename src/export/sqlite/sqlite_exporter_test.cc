// The SQLite export of a small synthetic trace: rows, NULLs for absent values, links, foreign
// keys and indexes, read back with the SQLite C API.
#include "export/sqlite/sqlite_exporter.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>

#include "import/common/op_inputs_json.h"
#include "model/trace_order.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

class ReadDb {
 public:
  explicit ReadDb(const std::string& path) {
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  }
  ~ReadDb() { sqlite3_close(db_); }
  // The first column of every row, as text ("NULL" for NULL).
  std::vector<std::string> Column(const std::string& sql) {
    std::vector<std::string> values;
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(db_) << " in " << sql;
      return values;
    }
    while (sqlite3_step(st) == SQLITE_ROW) {
      const unsigned char* text = sqlite3_column_text(st, 0);
      values.emplace_back(text ? reinterpret_cast<const char*>(text) : "NULL");
    }
    sqlite3_finalize(st);
    return values;
  }
  std::string One(const std::string& sql) {
    std::vector<std::string> values = Column(sql);
    return values.empty() ? "<no row>" : values[0];
  }

 private:
  sqlite3* db_ = nullptr;
};

Trace MakeTrace() {
  Trace trace;
  trace.format = "synthetic";
  Device gpu;
  gpu.backend = Backend::kRocm;
  gpu.name = "AMD Instinct MI300X";
  gpu.trace_id = 4;
  trace.devices.push_back(gpu);
  trace.tracks.push_back({100, 101, "", "", "main"});
  ApiCall launch{1000, 50, {9, -1}, trace.strings.Intern("hipLaunchKernel"), 0, ApiKind::kRuntime};
  trace.api_calls.push_back(launch);
  Slice op;
  op.start_ns = 900;
  op.duration_ns = 500;
  op.name = trace.strings.Intern("aten::add");
  op.inputs = trace.op_inputs.Add(
      OpInputsFromObjectText(R"({"dims": [[4], [4]], "types": ["float", "float"]})"));
  trace.slices.push_back(op);
  Slice inner = op;
  inner.start_ns = 950;
  inner.duration_ns = 200;
  inner.name = trace.strings.Intern("aten::add_");
  inner.inputs = 0;
  trace.slices.push_back(inner);
  for (int i = 0; i < 3; ++i) {
    Kernel k;
    k.start_ns = 2000 + 100 * i;
    k.duration_ns = 10 + i;
    k.name = trace.strings.Intern(i == 2 ? "other \"kernel\"" : "add_kernel");
    k.device = 0;
    k.stream = 1;
    k.link.correlation = i == 0 ? 9 : 0;
    trace.kernels.push_back(k);
  }
  Transfer set;
  set.kind = TransferKind::kMemset;
  set.name = trace.strings.Intern("Memset (Device)");
  set.device = 0;
  set.stream = 2;
  set.start_ns = 3000;
  set.duration_ns = 7;
  set.bytes = 64;
  trace.transfers.push_back(set);
  KernelCounters counters;
  counters.kernel = 1;
  counters.dram_bytes = 4096;
  counters.metrics.push_back({trace.strings.Intern("Memory Workload Analysis"),
                              trace.strings.Intern("dram__bytes.sum"), trace.strings.Intern("byte"),
                              4096});
  trace.kernel_counters.push_back(counters);
  trace.warnings.push_back("a warning");
  SortTraceTables(&trace);
  ComputeTraceSpan(&trace);
  return trace;
}

TEST(SqliteExport, WritesEveryTableWithLinksAndNulls) {
  const std::string path = testing::TempDir() + "/sqlite_synthetic.db";
  ASSERT_TRUE(FindExporter("sqlite")->Export(LinkedTrace(MakeTrace()), path).ok());
  ReadDb db(path);
  EXPECT_EQ(db.One("SELECT value FROM metadata WHERE key = 'schema_version'"), "1");
  EXPECT_EQ(db.Column("SELECT name || ':' || count(*) || ':' || sum(duration_ns) FROM kernels "
                      "GROUP BY name ORDER BY name"),
            (std::vector<std::string>{"add_kernel:2:21", "other \"kernel\":1:12"}));
  EXPECT_EQ(db.One("SELECT end_ns - start_ns - duration_ns FROM kernels WHERE id = 0"), "0");
  // Absent values are NULL, not 0 / -1.
  EXPECT_EQ(db.One("SELECT count(*) FROM kernels WHERE correlation IS NULL AND grid_x IS NULL"),
            "2");
  EXPECT_EQ(db.One("SELECT sm_count FROM devices"), "NULL");
  EXPECT_EQ(db.One("SELECT backend || ' ' || name || ' ' || trace_id FROM devices"),
            "rocm AMD Instinct MI300X 4");
  // The linked kernel knows its launch call and, through it, the innermost op.
  EXPECT_EQ(db.One("SELECT a.name || ' ' || o.name || ' ' || k.link FROM kernels k "
                   "JOIN api_calls a ON a.id = k.launch_id JOIN ops o ON o.id = k.op_id"),
            "hipLaunchKernel aten::add_ op");
  EXPECT_EQ(db.One("SELECT p.name FROM ops o JOIN ops p ON p.id = o.parent_op_id"), "aten::add");
  EXPECT_EQ(db.One("SELECT input_dims || ' ' || input_types FROM ops WHERE name = 'aten::add'"),
            "[[4], [4]] [\"float\", \"float\"]");
  EXPECT_EQ(db.One("SELECT kind || ' ' || bytes || ' ' || stream FROM memcpy"), "memset 64 2");
  EXPECT_EQ(db.Column("SELECT stream || ':' || kernel_count || ':' || memcpy_count FROM streams "
                      "ORDER BY id"),
            (std::vector<std::string>{"1:3:0", "2:0:1"}));
  EXPECT_EQ(db.Column("SELECT section || '/' || name || '=' || value FROM kernel_counters "
                      "ORDER BY section"),
            (std::vector<std::string>{"Memory Workload Analysis/dram__bytes.sum=4096.0",
                                      "derived/dram_bytes=4096.0"}));
  EXPECT_EQ(db.One("SELECT message FROM warnings"), "a warning");
  EXPECT_TRUE(db.Column("PRAGMA foreign_key_check").empty());
  for (const char* index : {"kernels_by_place", "kernels_by_name", "kernels_by_correlation"}) {
    EXPECT_EQ(db.One(std::string("SELECT count(*) FROM sqlite_master WHERE type = 'index' AND "
                                 "name = '") +
                     index + "'"),
              "1")
        << index;
  }
}

TEST(SqliteExport, OverwritesAnExistingFile) {
  const std::string path = testing::TempDir() + "/sqlite_overwrite.db";
  std::ofstream(path) << "not a database";
  ASSERT_TRUE(FindExporter("sqlite")->Export(LinkedTrace(MakeTrace()), path).ok());
  ASSERT_TRUE(
      FindExporter("sqlite")->Export(LinkedTrace(Trace()), path).ok());  // and an older export
  ReadDb db(path);
  EXPECT_EQ(db.One("SELECT count(*) FROM kernels"), "0");
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp"));
}

TEST(SqliteExport, UnwritablePathIsAnErrorNamingTheFile) {
  const std::string path = "/nonexistent-dir/out.db";
  Status status = FindExporter("sqlite")->Export(LinkedTrace(MakeTrace()), path);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kIoError);
  EXPECT_TRUE(status.message().starts_with(path + ": ")) << status.message();
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
