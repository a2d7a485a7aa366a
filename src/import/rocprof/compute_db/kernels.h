// compute_kernel (one row per kernel name of a workload), its analysed metrics
// (compute_kernel_metric_value joined with compute_metric_definition) and its roofline point
// (compute_kernel_roofline_data). The database keeps no per-dispatch counters: every metric is an
// aggregate over the kernel's dispatches, written once per statistic (value_name "Avg", "Min",
// "Max", "Median", ... for per-dispatch quantities, "Value" and "Peak (Empirical)" for rates).
// Metrics are found by (sub_table_name, name, value_name), the labels rocprof-compute's analysis
// panels print ("Wavefront Launch Stats", "VGPRs", "Avg"), never by metric_id, whose numbering
// moves between versions.
//
// compute_kernel_roofline_data holds, despite its column names, the kernel's roofline point:
// total_flops = its performance in GFLOP/s (sum of FLOPs over sum of durations) and
// l1/l2/hbm_cache_data = its arithmetic intensity (FLOP/byte) at that level.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "import/nsys/schema.h"
#include "import/rocprof/compute_db/tables.h"
#include "io/sqlite_db.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof::compute_db {

struct KernelRoofline {
  std::optional<double> gflops_per_s, ai_l1, ai_l2, ai_hbm;
};

class KernelInfo {
 public:
  std::string name;
  int64_t workload_id = 0;
  // Every value, named for output: section "<table_name> / <sub_table_name>", name the metric's
  // name with " (<value_name>)" unless it is the "Avg" or "Value", unit as written.
  std::vector<CounterValue> metrics;
  std::optional<KernelRoofline> roofline;

  // A statistic of a metric; nullopt when absent or not a finite number.
  std::optional<double> Get(const StringPool& strings, std::string_view sub_table,
                            std::string_view name, std::string_view value_name) const;
  // The per-dispatch mean: "Avg", else "Value".
  std::optional<double> Mean(const StringPool& strings, std::string_view sub_table,
                             std::string_view name) const;
  // A hardware counter that the "... Raw Counter Value(s)" tables list under its own name
  // ("TCC_EA0_RDREQ", aggregated over L2 channels), its per-dispatch mean.
  std::optional<double> RawCounter(const StringPool& strings, std::string_view name) const;

  void Add(StringId sub_table, StringId name, StringId value_name, bool raw, double value);

 private:
  std::map<std::tuple<StringId, StringId, StringId>, double> values_;
  std::map<StringId, double> raw_;
};

// Every kernel row with its metrics and roofline point, by kernel_uuid. Names and labels are
// interned into `strings` (the trace's pool).
StatusOr<std::map<int64_t, KernelInfo>> ReadKernels(const sqlite::Database& db,
                                                    const nsys::Schema& schema,
                                                    const DbVersion& version, StringPool* strings,
                                                    RowWarnings* warnings);

}  // namespace tensormorph::rocprof::compute_db
