#include "tensormorph/analysis/occupancy/occupancy.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>

namespace tensormorph {
namespace {

int64_t CeilDiv(int64_t x, int64_t y) {
  return (x + y - 1) / y;
}
int64_t RoundUp(int64_t x, int64_t unit) {
  return CeilDiv(x, unit) * unit;
}

Status Invalid(std::string message) {
  return {StatusCode::kInvalidArgument, std::move(message)};
}

void AddNote(OccupancyResult* r, const std::string& note) {
  if (!r->note.empty()) r->note += "; ";
  r->note += note;
}

// The smallest carveout step that holds `bytes`, or 0 when none does.
int64_t AlignUpToCarveout(const NvidiaLimits& n, int64_t bytes) {
  for (int64_t step : n.carveout_steps) {
    if (step >= bytes) return step;
  }
  return 0;
}

// Fills active blocks, limiter(s), warps and occupancy from the per-resource limits.
void Combine(OccupancyResult* r) {
  const OccupancyLimits& l = r->limits;
  const std::array<std::pair<OccupancyLimiter, int64_t>, 4> order = {{
      {OccupancyLimiter::kWarps, l.warps},
      {OccupancyLimiter::kRegisters, l.registers},
      {OccupancyLimiter::kSharedMemory, l.shared_memory},
      {OccupancyLimiter::kBlocks, l.blocks},
  }};
  int64_t fewest = kNoLimit;
  for (const auto& [limiter, blocks] : order) fewest = std::min(fewest, blocks);
  r->limiters.clear();
  for (const auto& [limiter, blocks] : order) {
    if (blocks == fewest) r->limiters.push_back(limiter);
  }
  r->limiter = r->limiters.front();
  r->active_blocks_per_sm = fewest;
  r->active_warps_per_sm = fewest * r->warps_per_block;
  r->occupancy = r->max_warps_per_sm > 0
                     ? static_cast<double>(r->active_warps_per_sm) / r->max_warps_per_sm
                     : 0;
}

StatusOr<OccupancyResult> ComputeNvidia(const GpuArch& arch, const LaunchConfig& launch) {
  const NvidiaLimits& n = arch.nvidia;
  if (launch.accum_registers != 0 || launch.scalar_registers != 0 || launch.wave_size != 0) {
    return Invalid(fmt::format(
        "accumulation registers, SGPRs and wave size apply to AMD architectures, not {}",
        arch.name));
  }
  if (launch.block_size > n.max_threads_per_block) {
    return Invalid(fmt::format("block size {} exceeds {}'s maximum of {} threads per block",
                               launch.block_size, arch.name, n.max_threads_per_block));
  }
  if (launch.registers_per_thread > n.max_registers_per_thread) {
    return Invalid(fmt::format("{} registers per thread exceeds {}'s maximum of {}",
                               launch.registers_per_thread, arch.name, n.max_registers_per_thread));
  }
  // Each part is bounded before they are added, so the sum cannot overflow.
  const int64_t shared = std::min(launch.static_shared_bytes, n.max_shared_per_block + 1) +
                         std::min(launch.dynamic_shared_bytes, n.max_shared_per_block + 1);
  if (shared > n.max_shared_per_block) {
    return Invalid(fmt::format(
        "shared memory per block ({} static + {} dynamic bytes) exceeds {}'s maximum of {} "
        "bytes ({} KB)",
        launch.static_shared_bytes, launch.dynamic_shared_bytes, arch.name, n.max_shared_per_block,
        n.max_shared_per_block / 1024));
  }
  if (launch.carveout_bytes && *launch.carveout_bytes > n.max_shared_per_sm) {
    return Invalid(fmt::format("a carveout of {} bytes exceeds {}'s {} bytes ({} KB) per SM",
                               *launch.carveout_bytes, arch.name, n.max_shared_per_sm,
                               n.max_shared_per_sm / 1024));
  }

  OccupancyResult r;
  r.arch = arch.name;
  r.vendor = GpuVendor::kNvidia;
  r.warp_size = n.warp_size;
  r.max_warps_per_sm = n.max_warps_per_sm;
  r.warps_per_block = CeilDiv(launch.block_size, n.warp_size);
  OccupancyLimits& l = r.limits;

  l.warps = n.max_warps_per_sm / r.warps_per_block;
  l.blocks = n.max_blocks_per_sm;
  if (n.barrier_slots_per_block_slot > 0) {
    l.barriers = static_cast<int64_t>(n.max_blocks_per_sm) * n.barrier_slots_per_block_slot;
  }

  // Registers are allocated per warp, in units of 256, from each of the SM's four sub-partitions
  // (schedulers) separately: a warp never spans two, so the SM holds 4 x floor(16384 / per-warp)
  // warps. The hardware also checks a block against the per-block register limit as if its warps
  // were spread over all four sub-partitions, i.e. with the warp count rounded up to 4.
  const int64_t regs_per_warp =
      RoundUp(launch.registers_per_thread * n.warp_size, n.register_allocation_unit);
  r.registers_allocated = regs_per_warp * r.warps_per_block;
  const int64_t regs_checked = regs_per_warp * RoundUp(r.warps_per_block, n.sub_partitions);
  if (std::max(regs_checked, r.registers_allocated) > n.max_registers_per_block) {
    l.registers = 0;
    AddNote(
        &r,
        fmt::format(
            "the block cannot launch: {} registers x {} threads needs {} registers (allocated per "
            "warp of 32 in units of 256, over {} sub-partitions), more than the {} a block may "
            "have",
            launch.registers_per_thread, launch.block_size, regs_checked, n.sub_partitions,
            n.max_registers_per_block));
  } else if (regs_per_warp > 0) {
    const int64_t warps_per_sub_partition = (n.registers_per_sm / n.sub_partitions) / regs_per_warp;
    l.registers = warps_per_sub_partition * n.sub_partitions / r.warps_per_block;
  }

  // Shared memory: the driver reserves 1 KB of every block's allocation from CC 8.0 on. The SM's
  // capacity is the requested carveout (rounded up to a step), unless one block would not fit in
  // it, in which case the driver picks the smallest step that holds one block.
  r.shared_per_block = RoundUp(shared + n.reserved_shared_per_block, n.shared_allocation_unit);
  const int64_t preferred =
      launch.carveout_bytes ? AlignUpToCarveout(n, *launch.carveout_bytes) : n.max_shared_per_sm;
  r.shared_per_sm =
      preferred >= r.shared_per_block ? preferred : AlignUpToCarveout(n, r.shared_per_block);
  if (r.shared_per_block > 0) l.shared_memory = r.shared_per_sm / r.shared_per_block;
  if (shared > n.default_shared_per_block) {
    AddNote(&r, fmt::format("more than {} KB of shared memory per block needs the kernel's opt-in "
                            "(cudaFuncAttributeMaxDynamicSharedMemorySize)",
                            n.default_shared_per_block / 1024));
  }
  Combine(&r);
  return r;
}

StatusOr<OccupancyResult> ComputeAmd(const GpuArch& arch, const LaunchConfig& launch) {
  const AmdLimits& a = arch.amd;
  const int wave = launch.wave_size == 0 ? a.default_wave_size : launch.wave_size;
  if (wave != 64 && !(wave == 32 && a.wave32_capable)) {
    return Invalid(fmt::format("{} runs wave{}; wave size {} is not supported there", arch.name,
                               a.wave32_capable ? "32 or wave64" : "64", wave));
  }
  if (launch.carveout_bytes) {
    return Invalid(fmt::format("a shared memory carveout applies to NVIDIA, not {}", arch.name));
  }
  if (launch.block_size > a.max_workgroup_size) {
    return Invalid(fmt::format("workgroup size {} exceeds {}'s maximum of {} work-items",
                               launch.block_size, arch.name, a.max_workgroup_size));
  }
  if (launch.registers_per_thread > a.max_arch_vgprs) {
    return Invalid(fmt::format("{} VGPRs exceeds {}'s maximum of {} architectural VGPRs",
                               launch.registers_per_thread, arch.name, a.max_arch_vgprs));
  }
  if (launch.accum_registers > a.max_accum_vgprs) {
    return Invalid(a.max_accum_vgprs == 0
                       ? fmt::format("{} has no accumulation registers (AGPRs)", arch.name)
                       : fmt::format("{} AGPRs exceeds {}'s maximum of {}", launch.accum_registers,
                                     arch.name, a.max_accum_vgprs));
  }
  if (launch.scalar_registers > a.max_sgprs) {
    return Invalid(fmt::format("{} SGPRs exceeds {}'s maximum of {}", launch.scalar_registers,
                               arch.name, a.max_sgprs));
  }
  const int64_t lds = std::min(launch.static_shared_bytes, a.max_lds_per_workgroup + 1) +
                      std::min(launch.dynamic_shared_bytes, a.max_lds_per_workgroup + 1);
  if (lds > a.max_lds_per_workgroup) {
    return Invalid(fmt::format(
        "LDS per workgroup ({} static + {} dynamic bytes) exceeds {}'s maximum of {} bytes",
        launch.static_shared_bytes, launch.dynamic_shared_bytes, arch.name,
        a.max_lds_per_workgroup));
  }

  OccupancyResult r;
  r.arch = arch.name;
  r.vendor = GpuVendor::kAmd;
  r.warp_size = wave;
  r.simds_per_cu = a.simds_per_cu;
  r.max_waves_per_simd = a.max_waves_per_simd;
  r.max_warps_per_sm = static_cast<int64_t>(a.simds_per_cu) * a.max_waves_per_simd;
  r.warps_per_block = CeilDiv(launch.block_size, wave);
  OccupancyLimits& l = r.limits;

  // VGPRs per lane: on CDNA2+ the AGPRs follow the arch VGPRs (aligned to 4) in one 512-entry
  // file; on gfx908 they are a separate file of the same size, so the larger of the two counts.
  const int64_t arch_vgprs = launch.registers_per_thread;
  const int64_t agprs = launch.accum_registers;
  int64_t vgprs = std::max(arch_vgprs, agprs);
  if (a.unified_agprs && agprs > 0) vgprs = RoundUp(arch_vgprs, 4) + agprs;
  // wave32 halves a wave's width, so the same register file holds twice the per-lane entries.
  const int64_t budget = static_cast<int64_t>(a.vgprs_per_simd_wave64) * (64 / wave);
  const int64_t granule = static_cast<int64_t>(a.vgpr_granule_wave64) * (64 / wave);
  r.registers_allocated = RoundUp(std::max<int64_t>(vgprs, 1), granule);
  // LLVM getNumWavesPerEUWithNumVGPRs: fewer than one granule never limits; at least one wave.
  r.waves_per_simd_vgpr =
      vgprs < granule ? a.max_waves_per_simd
                      : std::min<int64_t>(a.max_waves_per_simd,
                                          std::max<int64_t>(budget / r.registers_allocated, 1));
  // SGPRs (gfx9): 800 per SIMD in granules of 16. LLVM's getOccupancyWithNumSGPRs carries an
  // older table (<= 88 SGPRs -> 9 waves, <= 100 -> 8) that its own getMaxNumSGPRs (granule 16)
  // contradicts; the allocation arithmetic is used here. The two differ only for 81-88 and 97-100
  // SGPRs, counts a kernel descriptor never reports (profilers print multiples of 16).
  r.waves_per_simd_sgpr = a.max_waves_per_simd;
  if (a.sgprs_per_simd > 0 && launch.scalar_registers > 0) {
    r.waves_per_simd_sgpr = std::min<int64_t>(
        a.max_waves_per_simd, a.sgprs_per_simd / RoundUp(launch.scalar_registers, a.sgpr_granule));
  }
  // A workgroup lives on one CU; its waves are spread over the CU's SIMDs as evenly as possible
  // (LLVM getOccupancyWithWorkGroupSizes assumes the same), so the CU holds as many whole
  // workgroups as its SIMDs' register-limited wave slots allow. (The reference's formula divides
  // each SIMD's slots by the waves of one workgroup on its busiest SIMD instead, which would give
  // a CU room for only 4 single-wave workgroups when each SIMD has room for 4 waves.)
  const int64_t simds = a.simds_per_cu;
  l.vgprs = simds * r.waves_per_simd_vgpr / r.warps_per_block;
  l.sgprs = simds * r.waves_per_simd_sgpr / r.warps_per_block;
  l.registers = std::min(l.vgprs, l.sgprs);
  l.warps = r.max_warps_per_sm / r.warps_per_block;
  // Barrier slots per CU; a single-wave workgroup needs none (LLVM getMaxWorkGroupsPerCU).
  l.blocks = r.warps_per_block == 1 ? r.max_warps_per_sm : a.max_workgroups_per_cu;
  r.shared_per_block = RoundUp(lds, a.lds_granule);
  r.shared_per_sm = a.lds_per_cu;
  if (r.shared_per_block > 0) l.shared_memory = a.lds_per_cu / r.shared_per_block;
  if (l.registers == 0) {
    AddNote(
        &r,
        fmt::format(
            "the workgroup cannot launch: its {} waves need more than the {} wave slots per CU its "
            "registers leave ({} per SIMD x {} SIMDs)",
            r.warps_per_block, simds * std::min(r.waves_per_simd_vgpr, r.waves_per_simd_sgpr),
            std::min(r.waves_per_simd_vgpr, r.waves_per_simd_sgpr), simds));
  }
  Combine(&r);
  r.waves_per_simd = static_cast<double>(r.active_warps_per_sm) / a.simds_per_cu;
  return r;
}

}  // namespace

const char* LimiterName(OccupancyLimiter limiter) {
  switch (limiter) {
    case OccupancyLimiter::kWarps:
      return "warps";
    case OccupancyLimiter::kRegisters:
      return "registers";
    case OccupancyLimiter::kSharedMemory:
      return "shared_memory";
    case OccupancyLimiter::kBlocks:
      return "blocks";
  }
  return "warps";
}

StatusOr<OccupancyResult> ComputeOccupancy(const GpuArch& arch, const LaunchConfig& launch) {
  if (launch.block_size <= 0) {
    return Invalid(fmt::format("block size must be at least 1 thread, not {}", launch.block_size));
  }
  if (launch.registers_per_thread < 0 || launch.accum_registers < 0 ||
      launch.scalar_registers < 0) {
    return Invalid("register counts cannot be negative");
  }
  if (launch.static_shared_bytes < 0 || launch.dynamic_shared_bytes < 0) {
    return Invalid("shared memory sizes cannot be negative");
  }
  if (launch.carveout_bytes && *launch.carveout_bytes < 0) {
    return Invalid("the carveout cannot be negative");
  }
  return arch.vendor == GpuVendor::kNvidia ? ComputeNvidia(arch, launch) : ComputeAmd(arch, launch);
}

}  // namespace tensormorph
