// Independent oracle for `tensormorph kernels` and `tensormorph info` on every Nsight Systems
// SQLite export in shared/data/nvidia/nsys_sqlite/.
//
// This file shares no code with src/: it queries each export with the SQLite C API, the way
// `nsys stats --report cuda_gpu_kern_sum` defines the summary:
//   * one row per kernel name, the name being the demangled name (CUPTI_ACTIVITY_KIND_KERNEL
//     .demangledName looked up in StringIds);
//   * count, total = SUM(end - start), min, max by SQL GROUP BY;
//   * median (mean of the two middle values for an even count) and sample standard deviation
//     (n - 1; 0 for one launch) computed here from the durations SQL selects;
// and requires the product's JSON to give the same numbers. An export without the kernel table
// (tables exist only when they hold data) must exit 0 with an empty summary and a note.
// The expected per-file facts (which file has kernels) are hard-coded from PROVENANCE.md.

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "support/run_tensormorph.h"
#include "support/sql_oracle.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;

// ------------------------------------------------------------------------------------------------
// SQL side.

using Db = tensormorph::testing::SqlOracle;

struct SqlRow {
  int64_t count = 0, total = 0, min = 0, max = 0;
  std::vector<int64_t> durations;  // ascending
};

// cuda_gpu_kern_sum by SQL: name → aggregates and the sorted durations.
std::map<std::string, SqlRow> KernelSummaryBySql(Db& db) {
  std::map<std::string, SqlRow> rows;
  const std::string from =
      " FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.demangledName ";
  db.Query(
      "SELECT s.value, COUNT(*), SUM(k.\"end\" - k.start), MIN(k.\"end\" - k.start), "
      "MAX(k.\"end\" - k.start)" +
          from + "GROUP BY s.value",
      [&](sqlite3_stmt* st) {
        SqlRow& r = rows[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))];
        r.count = sqlite3_column_int64(st, 1);
        r.total = sqlite3_column_int64(st, 2);
        r.min = sqlite3_column_int64(st, 3);
        r.max = sqlite3_column_int64(st, 4);
      });
  db.Query("SELECT s.value, k.\"end\" - k.start AS d" + from + "ORDER BY s.value, d",
           [&](sqlite3_stmt* st) {
             rows[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))].durations.push_back(
                 sqlite3_column_int64(st, 1));
           });
  return rows;
}

double Median(const std::vector<int64_t>& d) {
  const size_t n = d.size();
  if (n == 0) return 0;
  return n % 2 == 1 ? static_cast<double>(d[n / 2])
                    : (static_cast<long double>(d[n / 2 - 1]) + d[n / 2]) / 2.0L;
}

double SampleStddev(const std::vector<int64_t>& d) {
  const size_t n = d.size();
  if (n < 2) return 0;
  long double sum = 0;
  for (int64_t v : d) sum += v;
  const long double mean = sum / n;
  long double ss = 0;
  for (int64_t v : d) ss += (v - mean) * (v - mean);
  return static_cast<double>(std::sqrt(ss / (n - 1)));
}

bool Close(double actual, double expected) {
  const double diff = std::fabs(actual - expected);
  return diff <= 0.05 || diff <= 1e-9 * std::fabs(expected);
}

// ------------------------------------------------------------------------------------------------
// Running the binary.

std::string ShellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

struct RunResult {
  int exit_code = -1;
  std::string out, err;
};

RunResult Run(const std::vector<std::string>& args) {
  const fs::path err_file =
      fs::temp_directory_path() / ("tm_nsys_oracle_" + std::to_string(::getpid()) + ".err");
  std::string cmd = ShellQuote(tensormorph::testing::BinaryUnderTest());
  for (const std::string& a : args) cmd += " " + ShellQuote(a);
  cmd += " 2>" + ShellQuote(err_file.string());
  RunResult r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) r.out.append(buf, n);
  const int status = pclose(pipe);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file);
  r.err.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  fs::remove(err_file);
  return r;
}

std::optional<json> RunJson(const std::vector<std::string>& args, RunResult* raw = nullptr) {
  RunResult r = Run(args);
  if (raw != nullptr) *raw = r;
  EXPECT_EQ(r.exit_code, 0) << "stderr: " << r.err;
  json doc = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
  EXPECT_FALSE(doc.is_discarded()) << "not JSON: " << r.out.substr(0, 500);
  if (r.exit_code != 0 || doc.is_discarded()) return std::nullopt;
  return doc;
}

// ------------------------------------------------------------------------------------------------
// The corpus.

const fs::path kDir = fs::path(TM_SHARED_DATA) / "nvidia" / "nsys_sqlite";

std::vector<fs::path> Exports() {
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(kDir, ec)) {
    if (e.path().extension() == ".sqlite") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// From PROVENANCE.md: launches per file (0 = the export has no kernel table).
const std::map<std::string, int64_t> kKnownKernelCounts = {
    {"nsysai_mock_rtx3080_2026.1.sqlite", 2},
    {"nsysai_h100_2gpu_1s_2026.2.sqlite", 3442},
    {"jacc_report1_no_cuda_kernels_2026.1.sqlite", 0},
    {"extrap_ex-gpu_s10_callchains_old_schema.sqlite", 6},  // the older layout
};

TEST(NsysSqlOracle, CorpusIsThere) {
  const std::vector<fs::path> files = Exports();
  std::set<std::string> names;
  for (const fs::path& f : files) names.insert(f.filename().string());
  for (const auto& [name, count] : kKnownKernelCounts) {
    EXPECT_TRUE(names.contains(name)) << name << " missing from " << kDir;
  }
}

TEST(NsysSqlOracle, KernelSummaryEqualsSql) {
  for (const fs::path& file : Exports()) {
    SCOPED_TRACE(file.filename().string());
    Db db(file);
    const bool has_table = db.HasTable("CUPTI_ACTIVITY_KIND_KERNEL");
    const int64_t launches =
        has_table ? db.Int("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL") : 0;
    auto known = kKnownKernelCounts.find(file.filename().string());
    if (known != kKnownKernelCounts.end()) {
      EXPECT_EQ(launches, known->second);
    }

    RunResult raw;
    std::optional<json> doc =
        RunJson({"kernels", "--format", "json", "--quiet", file.string()}, &raw);
    if (!doc) continue;
    const json& rows = (*doc)["rows"];
    if (launches == 0) {
      // As nsys stats: "does not contain CUDA kernel data". Exit 0, nothing summed, a note.
      EXPECT_TRUE(rows.empty());
      EXPECT_EQ((*doc)["kernel_count"], 0);
      ASSERT_TRUE(doc->contains("note"));
      EXPECT_NE((*doc)["note"].get<std::string>().find("no CUDA kernel data"), std::string::npos)
          << (*doc)["note"];
      EXPECT_NE(raw.err.find("no CUDA kernel data"), std::string::npos) << raw.err;
      continue;
    }

    // nsys groups by the StringIds id; grouping by its text is the same when no two ids share
    // a text, which StringIds guarantees (interned strings).
    EXPECT_EQ(db.Int("SELECT count(DISTINCT demangledName) FROM CUPTI_ACTIVITY_KIND_KERNEL"),
              db.Int("SELECT count(DISTINCT s.value) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
                     "JOIN StringIds AS s ON s.id = k.demangledName"));
    const std::map<std::string, SqlRow> expected = KernelSummaryBySql(db);
    const int64_t all_total = db.Int("SELECT SUM(\"end\" - start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
    EXPECT_EQ((*doc)["kernel_count"].get<int64_t>(), launches);
    EXPECT_EQ((*doc)["total_ns"].get<int64_t>(), all_total);
    ASSERT_EQ(rows.size(), expected.size());
    std::set<std::string> seen;
    for (const json& row : rows) {
      const std::string name = row.value("name", "");
      SCOPED_TRACE(name);
      EXPECT_TRUE(seen.insert(name).second) << "duplicate row";
      auto it = expected.find(name);
      ASSERT_NE(it, expected.end()) << "a name SQL does not give";
      const SqlRow& e = it->second;
      EXPECT_EQ(row["backend"], "cuda");
      EXPECT_EQ(row["count"].get<int64_t>(), e.count);
      EXPECT_EQ(row["total_ns"].get<int64_t>(), e.total);
      EXPECT_EQ(row["min_ns"].get<int64_t>(), e.min);
      EXPECT_EQ(row["max_ns"].get<int64_t>(), e.max);
      EXPECT_TRUE(Close(row["mean_ns"].get<double>(), static_cast<double>(e.total) / e.count))
          << row["mean_ns"];
      EXPECT_TRUE(Close(row["median_ns"].get<double>(), Median(e.durations)))
          << row["median_ns"] << " vs " << Median(e.durations);
      EXPECT_TRUE(Close(row["stddev_ns"].get<double>(), SampleStddev(e.durations)))
          << row["stddev_ns"] << " vs " << SampleStddev(e.durations);
      EXPECT_NEAR(row["percent"].get<double>(), 100.0 * e.total / all_total, 1e-6);
    }
    // Largest total first, as nsys orders the report.
    for (size_t i = 1; i < rows.size(); ++i) {
      EXPECT_GE(rows[i - 1]["total_ns"].get<int64_t>(), rows[i]["total_ns"].get<int64_t>());
    }
  }
}

TEST(NsysSqlOracle, InfoDescribesEachExport) {
  for (const fs::path& file : Exports()) {
    SCOPED_TRACE(file.filename().string());
    Db db(file);
    std::optional<json> doc = RunJson({"info", "--format", "json", "--quiet", file.string()});
    if (!doc) continue;
    ASSERT_EQ((*doc)["inputs"].size(), 1u);
    const json& in = (*doc)["inputs"][0];
    EXPECT_EQ(in["format"], "nsys-sqlite");
    const std::string version = in["format_version"];
    if (db.HasTable("META_DATA_EXPORT")) {
      const std::string schema_version =
          db.Text("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'");
      const std::string product =
          db.Text("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_PRODUCT_VERSION'");
      ASSERT_FALSE(schema_version.empty());
      EXPECT_NE(version.find(schema_version), std::string::npos) << version;
      EXPECT_NE(version.find(product), std::string::npos) << version;
    } else {  // older exports do not describe themselves
      EXPECT_NE(version.find("unknown"), std::string::npos) << version;
    }

    auto count = [&](const std::string& table, const std::string& where = "") -> int64_t {
      return db.HasTable(table) ? db.Int("SELECT count(*) FROM " + table + where) : 0;
    };
    const json& counts = in["counts"];
    EXPECT_EQ(counts["kernels"], count("CUPTI_ACTIVITY_KIND_KERNEL"));
    EXPECT_EQ(counts["memcpys"], count("CUPTI_ACTIVITY_KIND_MEMCPY"));
    EXPECT_EQ(counts["memsets"], count("CUPTI_ACTIVITY_KIND_MEMSET"));
    EXPECT_EQ(counts["runtime_calls"].get<int64_t>() + counts["driver_calls"].get<int64_t>(),
              count("CUPTI_ACTIVITY_KIND_RUNTIME"));
    EXPECT_EQ(counts["driver_calls"],
              count("CUPTI_ACTIVITY_KIND_RUNTIME", " WHERE eventClass IN (1, 13)"));
    // Ranges: PyTorch's emit_nvtx ones ("aten::view, op_id = 314290") are framework ops.
    const std::string ranges = " WHERE eventType IN (59, 60, 70, 71)";
    const std::string pytorch = " AND (text LIKE '%, op_id = %' OR text LIKE '%, seq = %')";
    EXPECT_EQ(counts["ops"], count("NVTX_EVENTS", ranges + pytorch));
    EXPECT_EQ(counts["annotations"].get<int64_t>() + counts["ops"].get<int64_t>(),
              count("NVTX_EVENTS", ranges));

    // Devices: those that ran something, by deviceId; properties from TARGET_INFO_GPU.
    std::set<int64_t> device_ids;
    for (const char* table : {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
                              "CUPTI_ACTIVITY_KIND_MEMSET"}) {
      if (!db.HasTable(table)) continue;
      db.Query(std::string("SELECT DISTINCT deviceId FROM ") + table,
               [&](sqlite3_stmt* st) { device_ids.insert(sqlite3_column_int64(st, 0)); });
    }
    const bool gpu_table = db.HasTable("TARGET_INFO_GPU");
    // The older layout keys TARGET_INFO_GPU by deviceId (names only) and describes each GPU in
    // TARGET_INFO_CUDA_GPU.
    const bool legacy = gpu_table && db.HasTable("TARGET_INFO_CUDA_GPU") &&
                        db.Int(
                            "SELECT count(*) FROM pragma_table_info('TARGET_INFO_GPU') "
                            "WHERE name = 'id'") == 0;
    EXPECT_EQ(in["described_device_count"], count("TARGET_INFO_GPU"));
    ASSERT_EQ(in["devices"].size(), device_ids.size());
    for (const json& d : in["devices"]) {
      const int64_t id = d["trace_id"];
      const std::string key = std::to_string(id);
      EXPECT_TRUE(device_ids.contains(id)) << id;
      EXPECT_EQ(d["backend"], "cuda");
      if (legacy) {
        EXPECT_EQ(d["name"], db.Text("SELECT name FROM TARGET_INFO_GPU WHERE deviceId = " + key));
        EXPECT_EQ(d["sm_count"], db.Int("SELECT numMultiprocessors FROM TARGET_INFO_CUDA_GPU "
                                        "WHERE deviceId = " +
                                        key));
        EXPECT_EQ(d["compute_capability"],
                  db.Text("SELECT computeCapabilityMajor || '.' || computeCapabilityMinor FROM "
                          "TARGET_INFO_CUDA_GPU WHERE deviceId = " +
                          key));
      } else if (gpu_table) {
        EXPECT_EQ(d["name"], db.Text("SELECT name FROM TARGET_INFO_GPU WHERE id = " + key));
        EXPECT_EQ(d["sm_count"], db.Int("SELECT smCount FROM TARGET_INFO_GPU WHERE id = " + key));
      }
    }
    std::set<std::string> backends;
    for (const json& b : in["backends"]) backends.insert(b.get<std::string>());
    EXPECT_EQ(backends.contains("cuda"), !device_ids.empty());
    if (!gpu_table && !device_ids.empty()) {
      bool warned = false;
      for (const json& w : in["warnings"]) {
        warned |= w.get<std::string>().find("TARGET_INFO_GPU") != std::string::npos;
      }
      EXPECT_TRUE(warned) << "no warning about the missing TARGET_INFO_GPU";
    }
  }
}

TEST(NsysSqlOracle, LaunchLinksFollowCorrelationWithinAProcess) {
  // nsys stats joins a kernel to its runtime call on correlationId and the process
  // (k.globalPid == r.globalTid & 0xFFFFFFFFFF000000): correlation ids repeat across processes.
  // In the two-GPU export 11 kernels share an id with a call of another process; they must not
  // be linked to it.
  for (const fs::path& file : Exports()) {
    SCOPED_TRACE(file.filename().string());
    Db db(file);
    if (!db.HasTable("CUPTI_ACTIVITY_KIND_KERNEL") || !db.HasTable("CUPTI_ACTIVITY_KIND_RUNTIME")) {
      continue;
    }
    const int64_t unlaunched = db.Int(
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE NOT EXISTS (SELECT 1 FROM "
        "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId AND "
        "(r.globalTid & 0xFFFFFFFFFF000000) = k.globalPid)");
    RunResult raw;
    std::optional<json> doc = RunJson({"ops", "--format", "json", "--quiet", file.string()}, &raw);
    ASSERT_TRUE(doc);
    int64_t no_launch = 0;
    for (const json& row : (*doc)["rows"]) {
      if (row["origin"] == "no_launch") no_launch += row["kernels"].get<int64_t>();
    }
    EXPECT_EQ(no_launch, unlaunched);
    if (file.filename() == "nsysai_h100_2gpu_1s_2026.2.sqlite") {
      EXPECT_EQ(no_launch, 1810);
    }
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
