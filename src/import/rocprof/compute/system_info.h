// The workload's sysinfo.csv (one row: the profiled system) and roofline.csv (the empirical
// roofline microbenchmark's peaks, one row per GPU). Columns by name; ../shared/reference/
// other-backends.md §1.4 lists them. Numbers that are empty or unreadable stay unset: sysinfo of
// newer versions leaves max_sclk 0 and hbm_bw out.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "import/rocprof/common/csv_file.h"
#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof::compute {

struct SystemInfo {
  std::string gpu_model;   // "MI200", "MI300X_A1", "MI350"
  std::string gpu_series;  // newer versions only: "MI350"
  std::string gpu_arch;    // "gfx90a"
  std::string rocm_version, workload_name, command, profiler_version;
  std::optional<int64_t> cu_per_gpu, simd_per_cu, wave_size, max_waves_per_cu;
  std::optional<int64_t> max_sclk_mhz, lds_banks_per_cu, num_xcd;
  std::optional<int64_t> gpu_l2_kib;
  std::optional<double> hbm_bw_mb_per_s;  // "1638.4" (MB/s as rocminfo counts, x 1e6)
};

// Reads the first data row; an error when the file has none.
// `path`: a file of the workload `input` is (import/rocprof/common/csv_file.h).
StatusOr<SystemInfo> ReadSystemInfo(const Input& input, const std::string& path,
                                    Warnings* warnings);

// The Device sysinfo describes: name (gpu_model, else gpu_series), CUs, wave size, threads per CU
// (max waves x wave size), gfx major/minor from the arch name (gfx90a -> 9.0, gfx942 -> 9.4).
Device DeviceFromSystemInfo(const SystemInfo& info);

// The measured peaks of one GPU (roofline.csv's `device` column) in base units, keyed as in
// devices/measured_peaks.h. Empty when the file has no row for it.
StatusOr<std::map<std::string, double>> ReadRooflinePeaks(const Input& input,
                                                          const std::string& path, int64_t device,
                                                          Warnings* warnings);

}  // namespace tensormorph::rocprof::compute
