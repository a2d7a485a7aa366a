// Theoretical occupancy of every kernel launch in a trace that carries its launch configuration
// (block size, registers per thread, shared memory per block), one row per kernel name, backend,
// architecture and configuration, beside the achieved occupancy when the trace has one.
//
// The architecture comes from the kernel's device (its CUDA compute capability); `arch` overrides
// it for the kernels of that vendor (traces without device properties, or a what-if). Occupancy is
// computed against the largest shared memory carveout, as
// cudaOccupancyMaxActiveBlocksPerMultiprocessor and Kineto's estimate do: traces do not say which
// carveout the driver picked.
//
// Exports that carry Nsight Compute's Occupancy section but not the launch statistics to compute
// it (registers per thread, shared memory per block) get a row with Nsight Compute's own answer:
// its theoretical occupancy and block limits, the limiter being the smallest limit
// (theoretical_source kNcuOccupancySection).
//
// Launches that cannot be computed are never dropped silently: they are counted per reason.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/occupancy/gpu_limits.h"
#include "tensormorph/analysis/occupancy/occupancy.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

struct KernelOccupancyQuery {
  std::optional<GpuArch> arch;  // applies to kernels whose backend matches its vendor
  size_t top = 0;               // keep the N rows with the most time; 0 = all
};

// Where an achieved occupancy came from.
enum class AchievedSource : uint8_t {
  kNone,
  kKinetoEstimate,  // Kineto's "est. achieved occupancy %" (computed by Kineto, not measured)
  kNcu,             // Nsight Compute's sm__warps_active.avg.pct_of_peak_sustained_active
  kRocprofCompute,  // rocprof-compute's SQ_LEVEL_WAVES pass (import/rocprof/compute/work.h)
};

// "kineto_estimate", "ncu", "rocprof_compute"; nullptr for kNone.
const char* AchievedSourceName(AchievedSource source);

// Why launches have no row.
enum class SkipReason : uint8_t {
  kNoLaunchConfiguration,  // no block size, or no registers on NVIDIA
  kNoRegisters,            // ROCm: Kineto traces and ROCm 6.2 rocprofv3 CSVs carry no VGPR counts
  kUnknownArchitecture,    // the device has no compute capability we know; --arch fixes it
  kInvalidLaunch,          // the calculator rejects the configuration (e.g. over a maximum)
  kNotAGpuKernel,          // CPU, Metal, WebGPU or other backends: no occupancy rules
};

// "no_launch_configuration", "no_registers", "unknown_architecture", "invalid_launch",
// "not_a_gpu_kernel" (the JSON keys).
const char* SkipReasonName(SkipReason reason);
// One sentence for people: "no launch configuration in the trace", ...
const char* SkipReasonText(SkipReason reason);

struct SkippedLaunches {
  uint64_t count = 0;
  int64_t total_ns = 0;
  std::string example;  // the first kernel name skipped for this reason
};

// Where a row's theoretical occupancy came from.
enum class TheoreticalSource : uint8_t {
  kComputed,             // our calculator, from the launch configuration
  kNcuOccupancySection,  // Nsight Compute's Occupancy section (model/trace.h ReportedOccupancy)
};

// "computed", "ncu_occupancy_section" (the JSON values).
const char* TheoreticalSourceName(TheoreticalSource source);

struct KernelOccupancyRow {
  std::string name;
  Backend backend = Backend::kOther;
  std::string arch;  // canonical: "sm_80"
  uint64_t count = 0;
  int64_t total_ns = 0;
  Dim3 grid;                                          // the first launch's
  uint64_t grid_blocks_min = 0, grid_blocks_max = 0;  // blocks per grid over the launches
  Dim3 block;              // the first launch's shape; launches group by its size
  int64_t block_size = 0;  // threads per block
  // -1 when the trace does not say (rows from Nsight Compute's Occupancy section).
  int64_t registers_per_thread = 0;
  int64_t shared_memory_bytes = 0;  // static + dynamic per block
  OccupancyResult occupancy;
  TheoreticalSource theoretical_source = TheoreticalSource::kComputed;
  // Mean over the launches that carry one, weighted by duration (plain mean when all durations are
  // 0), 0..1; Nsight Compute's measurement is preferred to Kineto's estimate when both exist.
  std::optional<double> achieved;
  AchievedSource achieved_source = AchievedSource::kNone;
  uint64_t achieved_launches = 0;  // how many launches the mean is over
};

struct KernelOccupancySummary {
  std::vector<KernelOccupancyRow> rows;  // by total time, largest first
  size_t row_count_before_top = 0;
  uint64_t kernel_count = 0;    // every kernel launch of the inputs, rows and skipped together
  uint64_t computed_count = 0;  // launches with a row, reported ones included
  uint64_t reported_count = 0;  // of those, rows from Nsight Compute's Occupancy section
  std::map<SkipReason, SkippedLaunches> skipped;
};

KernelOccupancySummary SummarizeKernelOccupancy(const std::vector<const LinkedTrace*>& traces,
                                                const KernelOccupancyQuery& query);

}  // namespace tensormorph
