// Theoretical occupancy: how many blocks (workgroups) of a launch fit on one SM (CU) at once, which
// resource stops more from fitting, and what fraction of the SM's warp (wave) slots that fills.
//
// NVIDIA follows CUDA's occupancy calculator (cuda_occupancy.h), the same rules Nsight Compute's
// Occupancy section reports as "Block Limit Warps/Registers/Shared Mem/SM", "Theoretical Active
// Warps per SM" and "Theoretical Occupancy":
//   warps per block   = ceil(block size / 32)
//   warps limit       = floor(max warps per SM / warps per block)
//   registers limit   = floor(floor(65536 / 4 / regs per warp) x 4 / warps per block), with
//                       regs per warp = registers per thread x 32 rounded up to 256
//   shared limit      = floor(SM shared memory capacity / shared memory per block), with the
//   block's
//                       static + dynamic bytes plus the driver's reservation (1 KB from CC 8.0)
//                       rounded up to the allocation unit, and the capacity the requested carveout
//                       rounded up to a supported step (the largest step when none is given)
//   blocks limit      = the compute capability's maximum resident blocks per SM
//   active blocks     = the smallest of the four; occupancy = active warps / max warps per SM.
// Nsight Compute uses the carveout the driver actually picked for the launch ("Shared Memory
// Configuration Size"), so pass that as the carveout to reproduce its numbers.
//
// AMD follows LLVM's AMDGPU occupancy functions (../shared/reference/other-backends.md §2.2):
//   waves per SIMD    = from VGPRs per lane (including accumulation registers: unified with the
//                       VGPRs on gfx90a/gfx942/gfx950, a separate equal-size file on gfx908) and
//                       from SGPRs (gfx9 only), each capped at the target's maximum
//   registers limit   = floor(SIMDs x waves per SIMD / waves per workgroup): a workgroup's waves
//                       spread evenly over the CU's SIMDs, as LLVM assumes
//   warps limit       = floor(SIMDs x max waves per SIMD / waves per workgroup)
//   shared limit      = floor(LDS per CU / LDS per workgroup rounded up to the granule)
//   blocks limit      = barrier slots per CU (16; 32 per WGP), none for single-wave workgroups
// In the result "warps" are wavefronts, "blocks" workgroups and "SM" the CU (the WGP on RDNA in
// WGP mode).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/occupancy/gpu_limits.h"
#include "tensormorph/model/status.h"

namespace tensormorph {

enum class OccupancyLimiter : uint8_t { kWarps, kRegisters, kSharedMemory, kBlocks };

// "warps", "registers", "shared_memory", "blocks" (the JSON schema's names).
const char* LimiterName(OccupancyLimiter limiter);

struct LaunchConfig {
  int64_t block_size = 0;            // threads per block (work-items per workgroup)
  int64_t registers_per_thread = 0;  // NVIDIA: registers per thread; AMD: arch VGPRs per lane
  int64_t static_shared_bytes = 0;   // shared memory / LDS per block
  int64_t dynamic_shared_bytes = 0;
  // NVIDIA: the SM's shared memory capacity in bytes (the carveout), rounded up to a supported
  // step; unset = the largest, which is what cudaOccupancyMaxActiveBlocksPerMultiprocessor assumes.
  std::optional<int64_t> carveout_bytes;
  // AMD only.
  int64_t accum_registers = 0;   // AGPRs (accumulation VGPRs) per lane
  int64_t scalar_registers = 0;  // SGPRs per wave; 0 = unknown, not counted as a limit
  int wave_size = 0;             // 0 = the target's default (64 on CDNA, 32 on RDNA)
};

// The value of a limit that does not apply: the kernel uses none of that resource.
constexpr int64_t kNoLimit = std::numeric_limits<int64_t>::max();

// Blocks per SM (workgroups per CU) each resource allows on its own.
struct OccupancyLimits {
  int64_t warps = kNoLimit;
  int64_t registers = kNoLimit;
  int64_t shared_memory = kNoLimit;
  int64_t blocks = kNoLimit;
  // NVIDIA CC >= 9.0: barrier slots (Nsight Compute's "Block Limit Barriers"), counting one
  // barrier per block; never below `blocks`, so it never decides the result. kNoLimit elsewhere.
  int64_t barriers = kNoLimit;
  // AMD: the two halves of `registers`.
  int64_t vgprs = kNoLimit;
  int64_t sgprs = kNoLimit;
};

struct OccupancyResult {
  std::string arch;
  GpuVendor vendor = GpuVendor::kNvidia;
  int warp_size = 32;
  int64_t warps_per_block = 0;
  int64_t active_blocks_per_sm = 0;
  int64_t active_warps_per_sm = 0;
  int64_t max_warps_per_sm = 0;
  double occupancy = 0;  // active / max warps, 0..1
  // The resource with the fewest blocks; on a tie the first of warps, registers, shared memory,
  // blocks (the order of cuda_occupancy.h's limiting-factor bits). `limiters` holds every tied one.
  OccupancyLimiter limiter = OccupancyLimiter::kWarps;
  std::vector<OccupancyLimiter> limiters;
  OccupancyLimits limits;
  // NVIDIA: registers allocated per block. AMD: VGPRs allocated per lane (arch + AGPRs, rounded to
  // the granule).
  int64_t registers_allocated = 0;
  int64_t shared_per_block = 0;  // allocated: with the driver's reservation, rounded up
  int64_t shared_per_sm = 0;     // the capacity the limit was computed against
  // AMD only.
  int simds_per_cu = 0;
  int64_t max_waves_per_simd = 0;
  double waves_per_simd = 0;  // active waves per CU / SIMDs per CU
  int64_t waves_per_simd_vgpr = 0;
  int64_t waves_per_simd_sgpr = 0;
  // Why the launch cannot run (occupancy 0), or a caveat about the inputs; empty when none.
  std::string note;
};

// Invalid launches are InvalidArgument with a message naming the limit: block size 0 or over the
// architecture's maximum, registers over the per-thread maximum, shared memory over the per-block
// maximum, a carveout over the SM's capacity, AMD-only inputs on NVIDIA and the reverse. A launch
// whose inputs are each valid but whose block still cannot fit (e.g. 1024 threads x 128 registers)
// is a result with 0 active blocks, the limiter that stops it and a note.
StatusOr<OccupancyResult> ComputeOccupancy(const GpuArch& arch, const LaunchConfig& launch);

}  // namespace tensormorph
