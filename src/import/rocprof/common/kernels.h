// Kernel dispatch rows of every generation (rocprofv3 kernel_trace.csv, rocprof v1 results.csv,
// rocprofv2 results.csv, rocprof-compute timestamps.csv / pmc_perf.csv) into Trace::kernels.
//
// Launch configuration: block = workgroup size; grid = workgroups per dimension, ceil(grid
// work-items / workgroup size) as CUDA's gridDim counts blocks (rocprof writes HSA grid sizes in
// work-items; v1/v2 give only the products, read as x); shared_memory_bytes = the LDS column
// (v3: static LDS per workgroup rounded to 512 B; 6.2-era and v1: the dispatch's static +
// dynamic value); registers_per_thread = arch VGPRs, accum_registers_per_thread = AGPRs,
// scalar_registers = SGPRs, wave_size from v1/v2's column (v3 CSV has none). Stream: Stream_Id,
// else the HSA queue id.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "import/rocprof/common/agents.h"
#include "import/rocprof/common/columns.h"
#include "import/rocprof/common/csv_file.h"
#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof {

// Appends the file's kernels to trace->kernels. A header without start and end timestamps (v1
// without --timestamp on) is an error saying so; a row with a timestamp that is not an integer or
// ends before it starts is skipped with a warning.
Status ReadKernels(CsvFile* file, DeviceResolver* devices, Trace* trace, Warnings* warnings);

// The row's launch configuration (grid, block, LDS, registers, wave size) and stream into `k`,
// as described above; fields the header lacks stay 0.
void ReadLaunchConfiguration(const KernelColumns& c, const CsvRecord& row, Kernel* k);

// Kernels of rocprof v1's other containers of results.csv's columns: the KERN table of
// results.db and the dispatch args of results.json. Their rows have no line to name, so a row
// that cannot be read is counted and AppendWarnings says how many, once per reason.
class V1DispatchRows {
 public:
  // `header`: the column names the rows' fields follow (results.csv's names).
  V1DispatchRows(const std::vector<std::string>& header, DeviceResolver* devices, Trace* trace);
  // Adds the row's kernel: times from BeginNs / EndNs (exact integers, the end not before the
  // start), the device from gpu-id (a GPU agent), the name from KernelName (else
  // `fallback_name`), the launch configuration as ReadLaunchConfiguration.
  void Add(const CsvRecord& row, std::string_view fallback_name = {});
  void AppendWarnings(const std::string& path) const;

 private:
  KernelColumns columns_;
  DeviceResolver* devices_;
  Trace* trace_;
  uint64_t bad_times_ = 0, not_gpu_ = 0;
};

}  // namespace tensormorph::rocprof
