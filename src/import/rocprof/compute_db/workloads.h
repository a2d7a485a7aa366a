// compute_workload: one row per profiled workload (a database usually holds one). Its JSON
// columns are the workload folder's CSV side files as objects: sys_info_extdata = sysinfo.csv's
// row (gpu_model, gpu_arch, cu_per_gpu, max_sclk, ...), roofline_bench_extdata = roofline.csv's
// device-0 row (HBMBw, L2Bw, FP32Flops, MFMAF16Flops, ... in GB/s and GFLOP/s). Both are read by
// key, with the CSV readers' rules (compute/system_info.h): the same Device, the same measured
// peak keys (devices/measured_peaks.h). JSON that does not parse, or a value of the wrong type,
// leaves that part unset with a warning; it is never an error, since the kernels stay readable.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "import/nsys/schema.h"
#include "import/rocprof/compute/system_info.h"
#include "import/rocprof/compute_db/tables.h"
#include "io/sqlite_db.h"

namespace tensormorph::rocprof::compute_db {

struct Workload {
  int64_t id = 0;
  std::string name, sub_name;                                       // "drchen_pi", "MI350"
  std::optional<compute::SystemInfo> system;                        // from sys_info_extdata
  std::optional<int64_t> cur_sclk_mhz, max_mclk_mhz, cur_mclk_mhz;  // max_sclk is in system
  std::map<std::string, double> peaks;  // measured peaks in base units; empty when none
};

// Every workload row, by workload_id.
StatusOr<std::map<int64_t, Workload>> ReadWorkloads(const sqlite::Database& db,
                                                    const nsys::Schema& schema,
                                                    const DbVersion& version,
                                                    RowWarnings* warnings);

}  // namespace tensormorph::rocprof::compute_db
