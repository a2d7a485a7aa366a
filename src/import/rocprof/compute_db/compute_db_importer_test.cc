// The rocprof-compute database importer on the real MI350 sample: cache-level bytes by
// rocprof-compute's formulas, checked against SQL over the file (the SQLite C API, no src/ code)
// and against rocprof-compute's own bandwidths in the same database.
#include "import/rocprof/compute_db/compute_db_importer.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <fstream>
#include <string>

#include "tensormorph/import/importer.h"

namespace tensormorph::rocprof::compute_db {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

const std::string kDb =
    TM_SHARED_DATA "/other/rocprof_compute_db/rocprof_compute_3.5_mi350_23ed6f36.db";

double Sql(const std::string& sql) {
  sqlite3* db = nullptr;
  const std::string uri = "file:" + kDb + "?immutable=1";
  EXPECT_EQ(sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  double value = NAN;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    value = sqlite3_column_double(st, 0);
  } else {
    ADD_FAILURE() << sqlite3_errmsg(db) << " in " << sql;
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return value;
}

// A kernel's "Avg" (or other statistic) of a metric of one panel.
double Metric(const std::string& kernel_like, const std::string& sub_table, const std::string& name,
              const std::string& value_name = "Avg") {
  return Sql(
      "SELECT v.value FROM compute_kernel_metric_value v JOIN compute_metric_definition d ON "
      "d.metric_uuid = v.metric_uuid JOIN compute_kernel k ON k.kernel_uuid = v.kernel_uuid "
      "WHERE k.kernel_name LIKE '" +
      kernel_like + "' AND d.sub_table_name = '" + sub_table + "' AND d.name = '" + name +
      "' AND v.value_name = '" + value_name + "'");
}

double Derived(const Trace& trace, const std::string& kernel_fragment, const std::string& name) {
  for (const KernelCounters& c : trace.kernel_counters) {
    const Kernel& k = trace.kernels[c.kernel];
    if (trace.strings.Get(k.name).find(kernel_fragment) == std::string_view::npos) continue;
    for (const CounterValue& m : c.metrics) {
      if (trace.strings.Get(m.section) == "rocprof-compute roofline" &&
          trace.strings.Get(m.name) == name) {
        return m.value;
      }
    }
  }
  ADD_FAILURE() << "no " << name << " for " << kernel_fragment;
  return NAN;
}

StatusOr<Trace> Load() {
  ImportOptions options;
  return LoadTrace(kDb, options);
}

TEST(ComputeDbImporterTest, SniffsItsOwnDatabaseOnly) {
  std::ifstream in(kDb, std::ios::binary);
  std::string head(64 << 10, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  const ComputeDbImporter importer;
  EXPECT_EQ(importer.Sniff(head), 100);
  EXPECT_EQ(importer.Sniff(std::string("SQLite format 3\0", 16) + "CREATE TABLE StringIds"), 0);
  EXPECT_EQ(importer.Sniff("compute_dispatch compute_workload"), 0);  // not SQLite
}

TEST(ComputeDbImporterTest, CacheBytesFollowRocprofComputeFormulas) {
  StatusOr<Trace> trace = Load();
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  const std::string xorwow = "%generate_xorwow%";
  auto raw = [&](const std::string& name) { return Metric(xorwow, "Raw Counter Value", name); };
  const double l2 =
      64 * (raw("TCP_TCC_READ_REQ") + raw("TCP_TCC_WRITE_REQ") +
            raw("TCP_TCC_ATOMIC_WITH_RET_REQ") + raw("TCP_TCC_ATOMIC_WITHOUT_RET_REQ"));
  const double l1 = 64 * raw("TCP_TOTAL_CACHE_ACCESSES");
  EXPECT_EQ(l2, 16252928.0);
  EXPECT_EQ(Derived(*trace, "generate_xorwow", "l2_bytes"), l2);
  EXPECT_EQ(Derived(*trace, "generate_xorwow", "l1_bytes"), l1);
  // rocprof-compute's own rates (GB/s = bytes/ns) over this one dispatch agree.
  const double ns = Metric(xorwow, "Wavefront Runtime Stats", "Kernel Time");
  EXPECT_NEAR(l2 / ns, Metric(xorwow, "Roofline Performance Rates", "L2 Cache Bandwidth", "Value"),
              1e-9);
  EXPECT_NEAR(l1 / ns, Metric(xorwow, "Roofline Performance Rates", "L1 Cache Bandwidth", "Value"),
              1e-9);

  // LDS: 4 x lds_banks_per_cu x (SQ_LDS_IDX_ACTIVE - SQ_LDS_BANK_CONFLICT).
  const std::string rocprim = "%CountingInputIterator<int, long>, long>, int*, int, unsigned long%";
  const double banks =
      Sql("SELECT json_extract(sys_info_extdata, '$.lds_banks_per_cu') FROM compute_workload");
  EXPECT_EQ(banks, 32);
  const double lds = 4 * banks *
                     (Metric(rocprim, "LDS Statistics", "Index Accesses") -
                      Metric(rocprim, "LDS Statistics", "Bank Conflict"));
  EXPECT_EQ(lds, 925302784.0);
  EXPECT_EQ(Derived(*trace, "CountingInputIterator<int, long>, long>, int*, int, unsigned long",
                    "lds_bytes"),
            lds);
  // The roofline point of compute_kernel_roofline_data, GFLOP/s -> FLOP/s.
  EXPECT_DOUBLE_EQ(
      Derived(*trace, "generate_xorwow", "roofline_performance"),
      1e9 * Sql("SELECT r.total_flops FROM compute_kernel_roofline_data r JOIN compute_kernel k "
                "ON k.kernel_uuid = r.kernel_uuid WHERE k.kernel_name LIKE '" +
                xorwow + "'"));
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::rocprof::compute_db
