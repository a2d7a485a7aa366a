// End-to-end: the binary on the real rocprof-compute 3.5 database (../shared/data/other/
// rocprof_compute_db, MI350, schema 1.3.0). Every expected number is selected from the file here
// with the SQLite C API: dispatch counts and times from compute_dispatch, FLOPs and bytes from
// compute_kernel_metric_value by rocprof-compute's formulas written out again (other-backends.md
// §1.4), the measured peaks from compute_workload.roofline_bench_extdata; nothing is shared with
// src/. Edited copies of the database (times removed) check the timestamp-less layout.

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "support/run_tensormorph.h"
#include "support/sql_oracle.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kDb =
    TM_SHARED_DATA "/other/rocprof_compute_db/rocprof_compute_3.5_mi350_23ed6f36.db";

using Db = tensormorph::testing::SqlOracle;

// A kernel's per-dispatch mean ("Avg") of a metric, by panel and label.
std::string MeanSql(const std::string& kernel_like, const std::string& sub_table,
                    const std::string& name, const std::string& value_name = "Avg") {
  return "SELECT v.value FROM compute_kernel_metric_value v JOIN compute_metric_definition d "
         "ON d.metric_uuid = v.metric_uuid JOIN compute_kernel k ON k.kernel_uuid = "
         "v.kernel_uuid WHERE k.kernel_name LIKE '" +
         kernel_like + "' AND d.sub_table_name = '" + sub_table + "' AND d.name = '" + name +
         "' AND v.value_name = '" + value_name + "'";
}

// rocprof-compute's VALU FLOPs of one precision: 64 x (ADD + MUL + 2 FMA + TRANS).
double ValuFlopsSql(Db& db, const std::string& kernel_like, const std::string& p) {
  auto mix = [&](const std::string& op) {
    return db.Real(MeanSql(kernel_like, "VALU Arithmetic Instruction Mix", p + "-" + op));
  };
  return 64 * (mix("ADD") + mix("MUL") + 2 * mix("FMA") + mix("Trans"));
}

json RunJson(const std::vector<std::string>& args) {
  const RunResult r = RunTensormorph(args);
  EXPECT_TRUE(r.Clean()) << r.Describe();
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out, nullptr, false);
}

const json* RowNamed(const json& rows, const std::string& fragment) {
  const json* found = nullptr;
  for (const json& row : rows) {
    if (row["name"].get<std::string>().find(fragment) != std::string::npos) {
      EXPECT_EQ(found, nullptr) << "two rows contain " << fragment;
      found = &row;
    }
  }
  return found;
}

TEST(RocprofComputeDbTest, InfoNamesTheFormatBackendAndDevice) {
  Db db(kDb);
  const json doc = RunJson({"info", "--format", "json", kDb});
  const json& in = doc["inputs"][0];
  EXPECT_EQ(in["format"], "rocprof-compute-db");
  EXPECT_EQ(in["backends"], json::array({"rocm"}));
  ASSERT_EQ(in["devices"].size(), 1u);
  EXPECT_EQ(in["devices"].size(),
            static_cast<size_t>(db.Int("SELECT count(DISTINCT gpu_id) FROM compute_dispatch")));
  const json& device = in["devices"][0];
  EXPECT_EQ(device["name"], "MI350");  // sys_info_extdata.gpu_model
  EXPECT_EQ(device["sm_count"].get<int64_t>(),
            db.Int("SELECT json_extract(sys_info_extdata, '$.cu_per_gpu') FROM compute_workload"));
  EXPECT_EQ(device["compute_capability"], "9.5");  // gfx950
  EXPECT_EQ(in["metadata"]["rocm_agent0_gfx_arch"], "\"gfx950\"");
  EXPECT_EQ(in["metadata"]["rocprof_compute_max_sclk_mhz"],
            std::to_string(db.Int(
                "SELECT json_extract(sys_info_extdata, '$.max_sclk') FROM compute_workload")));
  EXPECT_NE(in["format_version"].get<std::string>().find("schema 1.3.0"), std::string::npos);
  EXPECT_EQ(in["counts"]["kernels"].get<int64_t>(),
            db.Int("SELECT count(*) FROM compute_dispatch"));
  EXPECT_EQ(in["span"]["start_ns"].get<int64_t>(),
            db.Int("SELECT min(start_timestamp) FROM compute_dispatch"));
  EXPECT_EQ(in["span"]["end_ns"].get<int64_t>(),
            db.Int("SELECT max(end_timestamp) FROM compute_dispatch"));
}

TEST(RocprofComputeDbTest, KernelsMatchSqlPerName) {
  Db db(kDb);
  const json doc = RunJson({"kernels", "--format", "json", kDb});
  EXPECT_EQ(doc["kernel_count"].get<int64_t>(), db.Int("SELECT count(*) FROM compute_dispatch"));
  EXPECT_EQ(doc["kernel_count"].get<int64_t>(), 10);
  std::map<std::string, std::tuple<int64_t, int64_t, int64_t, int64_t>> expected;
  db.Query(
      "SELECT k.kernel_name, count(*), sum(d.end_timestamp - d.start_timestamp), "
      "min(d.end_timestamp - d.start_timestamp), max(d.end_timestamp - d.start_timestamp) "
      "FROM compute_dispatch d JOIN compute_kernel k ON k.kernel_uuid = d.kernel_uuid "
      "GROUP BY k.kernel_name",
      [&](sqlite3_stmt* st) {
        expected[reinterpret_cast<const char*>(sqlite3_column_text(st, 0))] = {
            sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
            sqlite3_column_int64(st, 4)};
      });
  ASSERT_EQ(expected.size(), 7u);
  ASSERT_EQ(doc["rows"].size(), expected.size());
  for (const json& row : doc["rows"]) {
    auto it = expected.find(row["name"].get<std::string>());
    ASSERT_NE(it, expected.end()) << row["name"];
    const auto [count, total, min, max] = it->second;
    EXPECT_EQ(row["count"].get<int64_t>(), count) << it->first;
    EXPECT_EQ(row["total_ns"].get<int64_t>(), total) << it->first;
    EXPECT_EQ(row["min_ns"].get<int64_t>(), min) << it->first;
    EXPECT_EQ(row["max_ns"].get<int64_t>(), max) << it->first;
  }
}

// One dispatch: FLOPs from the VALU instruction mix, HBM bytes = "HBM Bandwidth" (GB/s) x the
// dispatch's duration; and the measured peaks from roofline_bench_extdata.
TEST(RocprofComputeDbTest, RooflineOfOneDispatchKernelFromItsMetrics) {
  Db db(kDb);
  const std::string like = "%generate_xorwow%";
  const double fp32 = ValuFlopsSql(db, like, "F32");
  EXPECT_EQ(fp32, 4456448.0);  // 64 x (0 + 2048 + 2 x 32768 + 2048)
  EXPECT_EQ(fp32, db.Real(MeanSql(like, "Arithmetic Operations", "F32 OPs")));
  const int64_t duration = db.Int(
      "SELECT d.end_timestamp - d.start_timestamp FROM compute_dispatch d JOIN compute_kernel k "
      "ON k.kernel_uuid = d.kernel_uuid WHERE k.kernel_name LIKE '" +
      like + "'");
  const double hbm =
      db.Real(MeanSql(like, "Roofline Performance Rates", "HBM Bandwidth", "Value")) *
      static_cast<double>(duration);

  const json doc = RunJson({"roofline", "--format", "json", kDb});
  const json* row = RowNamed(doc["rows"], "generate_xorwow");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ((*row)["precision"], "fp32");
  EXPECT_EQ((*row)["count"], 1);
  EXPECT_DOUBLE_EQ((*row)["flops"].get<double>(), fp32);
  EXPECT_NEAR((*row)["dram_bytes"].get<double>(), hbm, hbm * 1e-12);
  EXPECT_NEAR((*row)["dram_bytes"].get<double>(), 14694272.0, 1e-3);
  // rocprof-compute's own point agrees: hbm_cache_data is FLOP/byte at HBM.
  EXPECT_NEAR((*row)["arithmetic_intensity"].get<double>(),
              db.Real("SELECT r.hbm_cache_data FROM compute_kernel_roofline_data r JOIN "
                      "compute_kernel k ON k.kernel_uuid = r.kernel_uuid WHERE k.kernel_name "
                      "LIKE '" +
                      like + "'"),
              1e-12);

  EXPECT_EQ((*row)["peak_source"], "measured (rocprof-compute database)");
  const double hbm_peak =
      db.Real("SELECT json_extract(roofline_bench_extdata, '$.HBMBw') FROM compute_workload");
  const double fp32_peak =
      db.Real("SELECT json_extract(roofline_bench_extdata, '$.FP32Flops') FROM compute_workload");
  EXPECT_NEAR(hbm_peak, 4885.545015923266, 1e-9);
  EXPECT_DOUBLE_EQ((*row)["peak_bytes_per_s"].get<double>(), hbm_peak * 1e9);
  EXPECT_DOUBLE_EQ((*row)["peak_flops_per_s"].get<double>(), fp32_peak * 1e9);
  // The same peaks as the "Peak (Empirical)" column the analysis printed.
  EXPECT_DOUBLE_EQ(hbm_peak, db.Real(MeanSql(like, "Roofline Performance Rates", "HBM Bandwidth",
                                             "Peak (Empirical)")));
}

// Two dispatches: each carries the kernel's mean; HBM bytes = mean FLOPs / the roofline
// table's HBM intensity (the database has no TCC_BUBBLE).
TEST(RocprofComputeDbTest, RooflineOfRepeatedKernelUsesMeansAndTheRooflineTable) {
  Db db(kDb);
  const std::string fragment = "CountingInputIterator<int, long>, long>, int*, int, unsigned long";
  const std::string like = "%" + fragment + "%";
  const int64_t count = db.Int(
      "SELECT count(*) FROM compute_dispatch d JOIN compute_kernel k ON k.kernel_uuid = "
      "d.kernel_uuid WHERE k.kernel_name LIKE '" +
      like + "'");
  ASSERT_EQ(count, 2);
  const double mean_flops = ValuFlopsSql(db, like, "F32");
  EXPECT_EQ(mean_flops, db.Real(MeanSql(like, "Arithmetic Operations", "FLOPs (Total)")));
  const double ai_hbm = db.Real(
      "SELECT r.hbm_cache_data FROM compute_kernel_roofline_data r JOIN compute_kernel k ON "
      "k.kernel_uuid = r.kernel_uuid WHERE k.kernel_name LIKE '" +
      like + "'");
  ASSERT_GT(ai_hbm, 0);

  const json doc = RunJson({"roofline", "--format", "json", kDb});
  const json* row = RowNamed(doc["rows"], fragment);
  ASSERT_NE(row, nullptr);
  EXPECT_EQ((*row)["count"], 2);
  EXPECT_DOUBLE_EQ((*row)["flops"].get<double>(), 2 * mean_flops);
  EXPECT_NEAR((*row)["dram_bytes"].get<double>(), 2 * mean_flops / ai_hbm, 1e-3);
  EXPECT_NEAR((*row)["arithmetic_intensity"].get<double>(), ai_hbm, ai_hbm * 1e-12);
}

TEST(RocprofComputeDbTest, OccupancyUsesTheLaunchStats) {
  Db db(kDb);
  const std::string like = "%generate_sobol_kernel%";
  const RunResult r = RunTensormorph({"occupancy", "--format", "json", kDb});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = json::parse(r.out, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << r.out;
  const json* row = RowNamed(doc["rows"], "generate_sobol_kernel");
  ASSERT_NE(row, nullptr) << r.out.substr(0, 2000);
  // Grid Size counts work-items, Workgroup Size is the block; VGPRs x 2 on gfx950 (rocprofv3
  // decodes them with the pre-CDNA granule); LDS Allocation in bytes.
  const double grid = db.Real(MeanSql(like, "Wavefront Launch Stats", "Grid Size"));
  const double block = db.Real(MeanSql(like, "Wavefront Launch Stats", "Workgroup Size"));
  const double vgprs = db.Real(MeanSql(like, "Wavefront Launch Stats", "VGPRs"));
  const double lds = db.Real(MeanSql(like, "Wavefront Launch Stats", "LDS Allocation"));
  EXPECT_EQ(block, 256);
  EXPECT_EQ(vgprs, 12);
  EXPECT_EQ((*row)["arch"], "gfx950");
  EXPECT_EQ((*row)["block_size"].get<double>(), block);
  EXPECT_EQ((*row)["grid"][0].get<double>(), std::ceil(grid / block));
  EXPECT_EQ((*row)["registers_per_thread"].get<double>(), 2 * vgprs);
  EXPECT_EQ((*row)["shared_memory_bytes"].get<double>(), lds);
  EXPECT_EQ((*row)["theoretical_occupancy"].get<double>(), 1.0);  // 24 VGPRs, 4 waves/WG
}

// Without times: each dispatch lasts its kernel's mean "Kernel Time" (to the nearest ns), laid
// end to end, and the output says the timeline is synthetic.
TEST(RocprofComputeDbTest, WithoutTimestampsDurationsAreLaidEndToEnd) {
  const fs::path copy = fs::temp_directory_path() / "tm_rocprof_compute_db_no_times.db";
  fs::copy_file(kDb, copy, fs::copy_options::overwrite_existing);
  fs::permissions(copy, fs::perms::owner_read | fs::perms::owner_write);
  double kernel_time_total = 0;
  {
    Db db(copy.string(), Db::Mode::kWritable);
    db.Exec("UPDATE compute_dispatch SET start_timestamp = NULL, end_timestamp = NULL");
    kernel_time_total = db.Real(
        "SELECT sum(round(v.value)) FROM compute_dispatch d JOIN compute_kernel_metric_value v ON "
        "v.kernel_uuid = d.kernel_uuid JOIN compute_metric_definition m ON m.metric_uuid = "
        "v.metric_uuid WHERE m.sub_table_name = 'Wavefront Runtime Stats' AND m.name = 'Kernel "
        "Time' AND v.value_name = 'Avg'");
  }
  const RunResult r = RunTensormorph({"info", "--format", "json", copy.string()});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = json::parse(r.out, nullptr, false);
  const json& in = doc["inputs"][0];
  EXPECT_EQ(in["counts"]["kernels"], 10);
  EXPECT_EQ(in["metadata"]["start_times"], "\"synthetic\"");
  EXPECT_EQ(in["span"]["start_ns"], 0);
  EXPECT_EQ(in["span"]["end_ns"].get<double>(), kernel_time_total);
  EXPECT_NE(in["warnings"].dump().find("laid end to end"), std::string::npos) << in["warnings"];

  // One dispatch without times among timed ones is skipped with a warning naming it.
  fs::copy_file(kDb, copy, fs::copy_options::overwrite_existing);
  fs::permissions(copy, fs::perms::owner_read | fs::perms::owner_write);
  {
    Db(copy.string(), Db::Mode::kWritable)
        .Exec("UPDATE compute_dispatch SET end_timestamp = 'x' WHERE dispatch_uuid = 3");
  }
  const RunResult partial = RunTensormorph({"info", "--format", "json", copy.string()});
  ASSERT_EQ(partial.exit_code, 0) << partial.Describe();
  const json p = json::parse(partial.out, nullptr, false)["inputs"][0];
  EXPECT_EQ(p["counts"]["kernels"], 9);
  EXPECT_EQ(p["counts"]["skipped"], 1);
  EXPECT_NE(p["warnings"].dump().find("dispatch_uuid 3"), std::string::npos) << p["warnings"];
  fs::remove(copy);
}

TEST(RocprofComputeDbTest, OtherSqliteKeepsTheNsightError) {
  const fs::path other = fs::temp_directory_path() / "tm_rocprof_compute_db_other.db";
  fs::remove(other);
  {
    sqlite3* db = nullptr;
    sqlite3_open(other.c_str(), &db);
    sqlite3_exec(db, "CREATE TABLE compute_kernel(kernel_uuid INTEGER)", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  const RunResult r = RunTensormorph({"info", other.string()});
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_NE(r.err.find("not an Nsight Systems export"), std::string::npos) << r.Describe();
  const RunResult forced =
      RunTensormorph({"info", "--input-format", "rocprof-compute-db", other.string()});
  EXPECT_EQ(forced.exit_code, 3) << forced.Describe();
  EXPECT_NE(forced.err.find("not a rocprof-compute database"), std::string::npos)
      << forced.Describe();
  fs::remove(other);
}

}  // namespace TM_UNITY_ID
}  // namespace
