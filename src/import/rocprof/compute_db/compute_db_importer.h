// rocprof-compute's SQLite database (rocprof-compute 3.5+, schema 1.x: `rocprof-compute analyze
// --output-format db`, or the .db a profile writes beside its workload): kernels, the profiled
// GPU, its measured roofline peaks and every analysed metric, into a Trace.
//
//   compute_dispatch      -> one Kernel per row: name from compute_kernel, device from gpu_id,
//                            start/end_timestamp (integer ns, kept as written). When no row has
//                            times (the columns absent or all NULL) the dispatches are laid end to
//                            end per device in dispatch_id order with their kernel's mean "Kernel
//                            Time", metadata start_times = "synthetic" and a warning; when only
//                            some rows lack times those rows are skipped with a warning.
//   compute_workload      -> the Device (sys_info_extdata, as sysinfo.csv: name, gfx arch for
//                            occupancy, CUs, wave size, waves per CU; clocks into metadata) and its
//                            measured peaks (roofline_bench_extdata, as roofline.csv), which the
//                            roofline prints as "measured (rocprof-compute database)".
//   compute_kernel_metric_value + compute_metric_definition, compute_kernel_roofline_data
//                         -> KernelCounters: FLOPs per precision and HBM bytes (kernel_work.h),
//                            every metric, the roofline point; launch configuration for occupancy.
// The database keeps per-kernel aggregates only, so every dispatch of a kernel that ran several
// times carries that kernel's mean counters; a warning says how many kernels that concerns.
#pragma once

#include "tensormorph/import/importer.h"

namespace tensormorph::rocprof::compute_db {

class ComputeDbImporter final : public Importer {
 public:
  std::string_view name() const override { return "rocprof-compute-db"; }
  std::string_view description() const override {
    return "rocprof-compute (Omniperf) SQLite database, schema 1.x (rocprof-compute 3.5+), .db";
  }
  // 100 for an SQLite file whose schema (in its first pages) names compute_dispatch and
  // compute_workload; 0 otherwise (other SQLite files stay with the Nsight importer's 50).
  int Sniff(std::string_view head) const override;
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

}  // namespace tensormorph::rocprof::compute_db
