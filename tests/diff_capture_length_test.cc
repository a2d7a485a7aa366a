// `tensormorph diff` on two captures of different length and no steps: a real Nsight Systems
// export against a copy of it cut short with SQL (every activity that starts after 60 % of the
// kernel span deleted). A kernel launched fewer times in the short copy is compared by its mean
// per call (basis "per_call"), not by its total; a kernel whose launches all precede the cut
// keeps its total. The oracle is SQL over both databases (sum and count of end - start per
// demangled name, the span of CUPTI_ACTIVITY_KIND_KERNEL), sharing no code with src/.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_tensormorph.h"
#include "support/sql_oracle.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;
using Db = tensormorph::testing::SqlOracle;

const std::string kExport =
    std::string(TM_SHARED_DATA) + "/nvidia/nsys_sqlite/nsysai_h100_2gpu_1s_2026.2.sqlite";

struct Sum {
  int64_t count = 0, total = 0;
};

std::map<std::string, Sum> KernelSums(Db& db) {
  std::map<std::string, Sum> sums;
  db.Query(
      "SELECT s.value, COUNT(*), SUM(k.\"end\" - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
      "JOIN StringIds AS s ON s.id = k.demangledName GROUP BY s.value",
      [&](sqlite3_stmt* st) {
        sums[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))] = {
            sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)};
      });
  return sums;
}

int64_t KernelSpan(Db& db) {
  return db.Int("SELECT MAX(\"end\") - MIN(start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
}

// The copy, with everything that starts after `fraction` of the kernel span deleted.
std::string CutShort(const fs::path& dir, double fraction) {
  const fs::path copy = dir / "cut_short.sqlite";
  fs::copy_file(kExport, copy, fs::copy_options::overwrite_existing);
  fs::permissions(copy, fs::perms::owner_read | fs::perms::owner_write);
  Db db(copy.string(), Db::Mode::kWritable);
  const int64_t first = db.Int("SELECT MIN(start) FROM CUPTI_ACTIVITY_KIND_KERNEL");
  const auto cut = first + static_cast<int64_t>(fraction * static_cast<double>(KernelSpan(db)));
  for (const char* table :
       {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET",
        "CUPTI_ACTIVITY_KIND_RUNTIME", "NVTX_EVENTS", "OSRT_API"}) {
    if (db.HasTable(table)) {
      db.Exec(std::string("DELETE FROM ") + table + " WHERE start > " + std::to_string(cut));
    }
  }
  return copy.string();
}

TEST(DiffCaptureLength, LaunchCountsThatDifferCompareTheMeanPerCall) {
  const fs::path dir = fs::temp_directory_path() / "tm_diff_capture_length";
  fs::create_directories(dir);
  const std::string cut = CutShort(dir, 0.6);
  Db full_db(kExport), cut_db(cut, Db::Mode::kWritable);
  const std::map<std::string, Sum> full = KernelSums(full_db), shorter = KernelSums(cut_db);
  ASSERT_FALSE(full.empty());

  RunResult r =
      RunTensormorph({"diff", "--format", "json", "--quiet", "--kind", "kernel", kExport, cut});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = json::parse(r.out);
  EXPECT_EQ(doc["base"]["steps"], 0);
  EXPECT_EQ(doc["basis"], "total");
  EXPECT_EQ(doc["base"]["kernel_span_ns"], KernelSpan(full_db));
  EXPECT_EQ(doc["new"]["kernel_span_ns"], KernelSpan(cut_db));
  EXPECT_EQ(doc["capture_lengths_differ"], true);

  size_t per_call = 0, by_total = 0;
  for (const json& row : doc["rows"]) {
    const std::string name = row["name"];
    SCOPED_TRACE(name);
    const auto base = full.find(name), next = shorter.find(name);
    ASSERT_NE(base, full.end());
    if (next == shorter.end()) {  // every launch after the cut
      EXPECT_EQ(row["status"], "removed");
      continue;
    }
    EXPECT_EQ(row["base_count"], base->second.count);
    EXPECT_EQ(row["new_count"], next->second.count);
    EXPECT_EQ(row["base_total_ns"], base->second.total);
    EXPECT_EQ(row["new_total_ns"], next->second.total);
    if (base->second.count == next->second.count) {
      ++by_total;
      EXPECT_FALSE(row.contains("basis")) << row;
      EXPECT_EQ(row["delta_ns"], next->second.total - base->second.total);
      continue;
    }
    ++per_call;
    ASSERT_EQ(row["basis"], "per_call") << row;
    const double base_mean = static_cast<double>(base->second.total) / base->second.count;
    const double new_mean = static_cast<double>(next->second.total) / next->second.count;
    EXPECT_DOUBLE_EQ(row["base_per_call_ns"].get<double>(), base_mean);
    EXPECT_DOUBLE_EQ(row["new_per_call_ns"].get<double>(), new_mean);
    EXPECT_EQ(row["delta_ns"], std::llround(new_mean - base_mean));
    const double percent = 100.0 * (new_mean - base_mean) / base_mean;
    EXPECT_NEAR(row["delta_percent"].get<double>(), percent, 1e-9 * std::fabs(percent) + 1e-12);
    // The totals alone would call a 40 % shorter capture an improvement; per call it is one
    // only when the launches themselves got faster.
    if (std::fabs(percent) <= 5) {
      EXPECT_EQ(row["status"], "unchanged") << row;
    }
  }
  EXPECT_EQ(doc["per_call_rows"], per_call);
  EXPECT_GT(per_call, 0U);

  // The table says so too.
  RunResult table = RunTensormorph({"diff", "--quiet", "--kind", "kernel", kExport, cut});
  ASSERT_EQ(table.exit_code, 0) << table.Describe();
  EXPECT_NE(table.out.find(std::to_string(per_call) + " rows launch a different number of times"),
            std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("the captures differ in length"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("/call"), std::string::npos);
  fs::remove_all(dir);
  (void)by_total;
}

// A saved baseline carries the span; one saved before it did reads as "unknown", and rows whose
// counts differ still compare per call.
TEST(DiffCaptureLength, BaselinesCarryTheSpan) {
  const fs::path dir = fs::temp_directory_path() / "tm_diff_capture_length_baseline";
  fs::create_directories(dir);
  const std::string cut = CutShort(dir, 0.5);
  const std::string saved = (dir / "full.baseline.json").string();
  RunResult save = RunTensormorph({"baseline", "save", "--quiet", kExport, "-o", saved});
  ASSERT_EQ(save.exit_code, 0) << save.Describe();
  json baseline = json::parse(std::ifstream(saved));
  Db full_db(kExport);
  EXPECT_EQ(baseline["total"]["kernel_span_ns"], KernelSpan(full_db));

  baseline["total"].erase("kernel_span_ns");
  const std::string old = (dir / "old.baseline.json").string();
  std::ofstream(old) << baseline.dump();
  RunResult r = RunTensormorph({"diff", "--format", "json", "--quiet", old, cut});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = json::parse(r.out);
  EXPECT_TRUE(doc["base"]["kernel_span_ns"].is_null());
  EXPECT_TRUE(doc["capture_lengths_differ"].is_null());
  EXPECT_GT(doc["per_call_rows"].get<size_t>(), 0U);
  fs::remove_all(dir);
}

}  // namespace TM_UNITY_ID
}  // namespace
