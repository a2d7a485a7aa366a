// ROCm profiler output: rocprofv3 CSV (kernel_trace, memory_copy_trace, hip_api_trace,
// agent_info), rocprof v1 results.csv, rocprofv2 results.csv, rocprof-compute timestamps.csv /
// pmc_perf.csv, rocprofv3 JSON (--output-format json) and rocprof v1's Chrome trace results.json
// (v1_chrome_trace.h). Columns are read by header name.
//
// rocprofv3 writes one run as several CSV files `<prefix>_<kind>.csv` in one folder. Given any of
// them, the importer reads the others with the same prefix that exist: agent_info for device
// names, gfx targets and CU counts; memory copies; HIP API calls (joined to kernels by
// Correlation_Id). A sibling whose times lie more than an hour away from the given file's is from
// another run (rocprof's documentation fixtures are) and is left out with a warning.
//
// A rocprof-compute workload (a folder, or a pmc_perf csv in one) is read by compute/workload.h.
#pragma once

#include "tensormorph/import/importer.h"

namespace tensormorph::rocprof {

class RocprofImporter final : public Importer {
 public:
  std::string_view name() const override { return "rocprof"; }
  std::string_view description() const override {
    return "ROCm rocprof v1/v2/v3 CSV (kernel_trace.csv with its sibling files, results.csv), "
           "rocprof v1 results.json and rocprofv3 JSON";
  }
  int Sniff(std::string_view head) const override;
  // rocprof-compute workload folders (compute/workload.h) and rocprofv3 output folders (one
  // <pid>_kernel_trace.csv in the folder or in its only subfolder, read with its siblings).
  int SniffFolder(const std::string& folder) const override;
  std::string_view folder_description() const override {
    return "rocprof-compute workloads, rocprofv3 output folders";
  }
  StatusOr<Trace> Import(const Input& input, const ImportOptions& options) const override;
};

}  // namespace tensormorph::rocprof
