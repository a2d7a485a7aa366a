// Per-architecture limits that decide theoretical occupancy, and the parser for architecture names.
//
// NVIDIA: one row per compute capability, from the CUDA Programming Guide's "Compute Capabilities"
// tables combined with the values CUDA's occupancy header (cuda_occupancy.h) hard-codes per CC
// (allocation granularities, blocks per SM, shared memory carveout steps); see
// ../shared/reference/nvidia.md §3. AMD: one row per gfx target, from LLVM's AMDGPUBaseInfo.cpp
// (waves per SIMD, VGPR/SGPR budgets and granules, workgroups per CU) and the ROCm GPU specs (LDS);
// see ../shared/reference/other-backends.md §2. Each row says where a value is not confirmed.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/model/status.h"

namespace tensormorph {

enum class GpuVendor : uint8_t { kNvidia, kAmd };

// One streaming multiprocessor of an NVIDIA compute capability.
struct NvidiaLimits {
  int cc_major = 0;
  int cc_minor = 0;
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 65536;
  int max_registers_per_block = 65536;
  // cuda_occupancy.h accepts 256 for CC 7 to 12, but nvcc never allocates more than 255 (the
  // Programming Guide's "maximum number of 32-bit registers per thread"), so 255 is the limit here.
  int max_registers_per_thread = 255;
  int register_allocation_unit = 256;  // registers per warp: per-thread counts round up to 8
  int sub_partitions = 4;              // registers are split evenly over the SM's 4 schedulers
  int64_t max_shared_per_sm = 0;       // the largest carveout
  int64_t max_shared_per_block = 0;    // with the opt-in; the default limit is 48 KB
  int64_t default_shared_per_block = int64_t{48} * 1024;
  int shared_allocation_unit = 0;
  int64_t reserved_shared_per_block = 0;  // the driver's 1 KB per block from CC 8.0 on
  // Shared memory capacities (bytes) an SM can be configured to, ascending; a requested carveout
  // is rounded up to the next one.
  std::vector<int64_t> carveout_steps;
  // Barrier slots per SM = max_blocks_per_sm x this (CC >= 9.0, where Nsight Compute reports
  // "Block Limit Barriers"); 0 where barriers are not a separate limit.
  int barrier_slots_per_block_slot = 0;
  const char* unconfirmed = "";  // what about this row is not confirmed ("" = all of it is)
};

// One compute unit of an AMD gfx target. On RDNA (gfx10+) in WGP mode, HIP's default, the waves
// of a workgroup share a workgroup processor (two CUs, four SIMDs, twice the LDS); LLVM calls that
// the "CU" too, and so does this table.
struct AmdLimits {
  int default_wave_size = 64;
  bool wave32_capable = false;  // RDNA: wave32 default, wave64 optional
  int simds_per_cu = 4;
  int max_waves_per_simd = 0;
  int max_workgroup_size = 1024;
  // VGPRs per lane available to the waves of one SIMD, and the allocation granule, for wave64;
  // RDNA doubles both in wave32 (1.5x parts: 768/12 in wave64, 1536/24 in wave32).
  int vgprs_per_simd_wave64 = 0;
  int vgpr_granule_wave64 = 0;
  int max_arch_vgprs = 256;    // addressable architectural VGPRs per lane
  int max_accum_vgprs = 0;     // AGPRs per lane (0: the target has none)
  bool unified_agprs = false;  // CDNA2+: AGPRs come out of the same 512-entry file as VGPRs
  // SGPRs per SIMD and their granule; 0 when SGPRs never limit occupancy (gfx10+: fixed 128).
  int sgprs_per_simd = 0;
  int sgpr_granule = 0;
  int max_sgprs = 0;  // the most a kernel descriptor can ask for (incl. VCC, flat scratch, XNACK)
  int64_t lds_per_cu = 0;
  int64_t max_lds_per_workgroup = 0;
  int lds_granule = 0;
  int max_workgroups_per_cu = 16;  // barrier slots; single-wave workgroups take none
  const char* unconfirmed = "";
};

struct GpuArch {
  std::string name;         // canonical: "sm_90", "gfx942"
  std::string description;  // "Hopper (H100, H200)"
  GpuVendor vendor = GpuVendor::kNvidia;
  NvidiaLimits nvidia;  // when vendor == kNvidia
  AmdLimits amd;        // when vendor == kAmd
};

// Every architecture the calculator knows, NVIDIA by compute capability then AMD.
const std::vector<GpuArch>& KnownArchs();

// "sm_90", "sm90", "sm_90a", "compute_90", "9.0", "90" -> sm_90; "gfx942", "gfx942:sramecc+"
// -> gfx942. Case-insensitive. Unknown names are an InvalidArgument that lists the known ones.
StatusOr<GpuArch> ParseArch(std::string_view text);

// "sm_70, sm_72, ..., gfx1100".
std::string KnownArchList();

}  // namespace tensormorph
