#include "tensormorph/analysis/occupancy/gpu_limits.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace tensormorph {
namespace {

constexpr int64_t kKiB = 1024;

std::vector<int64_t> StepsKiB(std::initializer_list<int> kib) {
  std::vector<int64_t> out;
  for (int k : kib) out.push_back(k * kKiB);
  return out;
}

// Carveout lists (cuda_occupancy.h, cudaOccAlignUpShmemSizeVoltaPlus; the Programming Guide's
// "Shared Memory" section of each CC says the same in words).
std::vector<int64_t> Steps96() {
  return StepsKiB({0, 8, 16, 32, 64, 96});
}
std::vector<int64_t> Steps100() {
  return StepsKiB({0, 8, 16, 32, 64, 100});
}
std::vector<int64_t> Steps164() {
  return StepsKiB({0, 8, 16, 32, 64, 100, 132, 164});
}
std::vector<int64_t> Steps228() {
  return StepsKiB({0, 8, 16, 32, 64, 100, 132, 164, 196, 228});
}

GpuArch Nvidia(const char* name, const char* description, int major, int minor, int warps,
               int blocks, int smem_sm_kib, int smem_block_kib, std::vector<int64_t> steps,
               int barrier_factor, const char* unconfirmed = "") {
  GpuArch a;
  a.name = name;
  a.description = description;
  a.vendor = GpuVendor::kNvidia;
  NvidiaLimits& n = a.nvidia;
  n.cc_major = major;
  n.cc_minor = minor;
  n.max_warps_per_sm = warps;
  n.max_blocks_per_sm = blocks;
  n.max_shared_per_sm = smem_sm_kib * kKiB;
  n.max_shared_per_block = smem_block_kib * kKiB;
  // 256-byte shared memory allocation for CC 7.x, 128 bytes from 8.0 on; from 8.0 on the driver
  // also reserves 1 KB of every block's shared memory for itself (the difference between the
  // per-SM and the per-block maximum: 164 vs 163 KB, 228 vs 227 KB, 100 vs 99 KB).
  n.shared_allocation_unit = major >= 8 ? 128 : 256;
  n.reserved_shared_per_block = major >= 8 ? kKiB : 0;
  n.carveout_steps = std::move(steps);
  n.barrier_slots_per_block_slot = barrier_factor;
  n.unconfirmed = unconfirmed;
  return a;
}

GpuArch Amd(const char* name, const char* description, AmdLimits limits) {
  GpuArch a;
  a.name = name;
  a.description = description;
  a.vendor = GpuVendor::kAmd;
  a.amd = limits;
  return a;
}

// CDNA2/3/4: 8 waves per SIMD, 512 unified VGPR/AGPR entries per lane allocated in granules of 8,
// 800 SGPRs per SIMD in granules of 16 (LLVM getMaxWavesPerEU, getTotalNumVGPRs,
// getVGPRAllocGranule, getTotalNumSGPRs, getSGPRAllocGranule).
AmdLimits Cdna2Plus(int64_t lds_per_cu, int lds_granule, const char* unconfirmed = "") {
  AmdLimits l;
  l.default_wave_size = 64;
  l.simds_per_cu = 4;
  l.max_waves_per_simd = 8;
  l.vgprs_per_simd_wave64 = 512;
  l.vgpr_granule_wave64 = 8;
  l.max_arch_vgprs = 256;
  l.max_accum_vgprs = 256;
  l.unified_agprs = true;
  l.sgprs_per_simd = 800;
  l.sgpr_granule = 16;
  l.max_sgprs = 112;  // LLVM getMaxNumSGPRs(..., Addressable=false) on gfx8/gfx9
  l.lds_per_cu = lds_per_cu;
  l.max_lds_per_workgroup = lds_per_cu;
  l.lds_granule = lds_granule;
  l.max_workgroups_per_cu = 16;
  l.unconfirmed = unconfirmed;
  return l;
}

std::vector<GpuArch> BuildArchs() {
  std::vector<GpuArch> v;
  // name, description, CC, max warps/SM, max blocks/SM, max smem/SM KB, max smem/block KB
  // (opt-in), carveout steps, barrier factor.
  v.push_back(Nvidia("sm_70", "Volta (V100)", 7, 0, 64, 32, 96, 96, Steps96(), 0));
  v.push_back(Nvidia("sm_72", "Volta (Jetson AGX Xavier)", 7, 2, 64, 32, 96, 96, Steps96(), 0,
                     "not in the reference's table: taken equal to 7.0, as cuda_occupancy.h "
                     "treats every CC 7.x but 7.5"));
  v.push_back(Nvidia("sm_75", "Turing (T4, RTX 20)", 7, 5, 32, 16, 64, 64, StepsKiB({32, 64}), 0));
  v.push_back(Nvidia("sm_80", "Ampere (A100, A30)", 8, 0, 64, 32, 164, 163, Steps164(), 0));
  v.push_back(Nvidia("sm_86", "Ampere (RTX 30, A10, A40)", 8, 6, 48, 16, 100, 99, Steps100(), 0));
  v.push_back(Nvidia("sm_87", "Ampere (Jetson Orin)", 8, 7, 48, 16, 164, 163, Steps164(), 0));
  v.push_back(Nvidia("sm_89", "Ada (RTX 40, L4, L40S)", 8, 9, 48, 24, 100, 99, Steps100(), 0));
  v.push_back(Nvidia("sm_90", "Hopper (H100, H200)", 9, 0, 64, 32, 228, 227, Steps228(), 2));
  constexpr const char* kSteps228 =
      "carveout steps: the reference says 'up to 228 KB'; taken equal to 9.0's list";
  v.push_back(Nvidia("sm_100", "Blackwell (B200, GB200)", 10, 0, 64, 32, 228, 227, Steps228(), 2,
                     kSteps228));
  // CUDA 13 renamed sm_101 (Jetson Thor) to sm_110; cuda_occupancy.h still carries both.
  v.push_back(Nvidia("sm_101", "Blackwell (Jetson Thor; sm_110 from CUDA 13)", 10, 1, 48, 24, 228,
                     227, Steps228(), 1, kSteps228));
  v.push_back(Nvidia("sm_103", "Blackwell Ultra (B300, GB300)", 10, 3, 64, 32, 228, 227, Steps228(),
                     2, kSteps228));
  v.push_back(Nvidia("sm_110", "Blackwell (Jetson Thor)", 11, 0, 48, 24, 228, 227, Steps228(), 1,
                     kSteps228));
  v.push_back(
      Nvidia("sm_120", "Blackwell (RTX 50, RTX PRO 6000)", 12, 0, 48, 24, 100, 99, Steps100(), 1));
  v.push_back(Nvidia("sm_121", "Blackwell (DGX Spark GB10)", 12, 1, 48, 24, 100, 99, Steps100(), 1,
                     "the reference's 12.x row; no 12.1 device measured"));

  // gfx908 (CDNA1, MI100): 10 waves per SIMD, 256 arch VGPRs plus a separate 256-entry AGPR file,
  // VGPRs allocated in granules of 4; 64 KiB LDS per CU in granules of 512 bytes.
  AmdLimits gfx908;
  gfx908.default_wave_size = 64;
  gfx908.simds_per_cu = 4;
  gfx908.max_waves_per_simd = 10;
  gfx908.vgprs_per_simd_wave64 = 256;
  gfx908.vgpr_granule_wave64 = 4;
  gfx908.max_arch_vgprs = 256;
  gfx908.max_accum_vgprs = 256;
  gfx908.unified_agprs = false;
  gfx908.sgprs_per_simd = 800;
  gfx908.sgpr_granule = 16;
  gfx908.max_sgprs = 112;
  gfx908.lds_per_cu = 64 * kKiB;
  gfx908.max_lds_per_workgroup = 64 * kKiB;
  gfx908.lds_granule = 512;
  gfx908.max_workgroups_per_cu = 16;
  v.push_back(Amd("gfx908", "CDNA1 (MI100)", gfx908));
  v.push_back(Amd("gfx90a", "CDNA2 (MI210, MI250, MI250X)", Cdna2Plus(64 * kKiB, 512)));
  v.push_back(Amd("gfx942", "CDNA3 (MI300A, MI300X, MI325X)", Cdna2Plus(64 * kKiB, 512)));
  // gfx950 (CDNA4): 160 KiB of LDS per CU, allocated in 320-dword (1280-byte) granules.
  v.push_back(Amd("gfx950", "CDNA4 (MI350X, MI355X)", Cdna2Plus(160 * kKiB, 1280)));

  // gfx1100 (RDNA3, 1.5x VGPR file): wave32 by default, 16 waves per SIMD, 1536 VGPRs per lane in
  // granules of 24 in wave32 (768 / 12 in wave64); SGPRs never limit (fixed 128 per wave). In WGP
  // mode (HIP's default) a workgroup's waves share the WGP: 4 SIMDs, 128 KiB LDS, 32 barriers.
  AmdLimits gfx1100;
  gfx1100.default_wave_size = 32;
  gfx1100.wave32_capable = true;
  gfx1100.simds_per_cu = 4;
  gfx1100.max_waves_per_simd = 16;
  gfx1100.vgprs_per_simd_wave64 = 768;
  gfx1100.vgpr_granule_wave64 = 12;
  gfx1100.max_arch_vgprs = 256;
  gfx1100.max_accum_vgprs = 0;
  gfx1100.sgprs_per_simd = 0;
  gfx1100.sgpr_granule = 0;
  gfx1100.max_sgprs = 128;
  gfx1100.lds_per_cu = 128 * kKiB;
  gfx1100.max_lds_per_workgroup = 64 * kKiB;
  gfx1100.lds_granule = 1024;
  gfx1100.max_workgroups_per_cu = 32;
  gfx1100.unconfirmed =
      "LDS allocation granule (1024 B, from an LLVM change description) and WGP mode assumed";
  v.push_back(Amd("gfx1100", "RDNA3 (RX 7900 XTX, W7900)", gfx1100));
  return v;
}

std::string Lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// "90", "9.0", "sm_90", "sm90", "sm_90a", "compute_100f" -> "sm_90" / "sm_100"; "" if not one.
std::string CanonicalNvidia(std::string_view s) {
  for (std::string_view prefix : {"sm_", "sm", "compute_"}) {
    if (s.substr(0, prefix.size()) == prefix) {
      s.remove_prefix(prefix.size());
      // Architecture-specific (sm_90a) and family (sm_100f) targets share the base limits.
      if (!s.empty() && (s.back() == 'a' || s.back() == 'f')) s.remove_suffix(1);
      break;
    }
  }
  if (const size_t dot = s.find('.'); dot != std::string_view::npos) {
    const std::string_view major = s.substr(0, dot);
    const std::string_view minor = s.substr(dot + 1);
    if (!AllDigits(major) || minor.size() != 1 || !AllDigits(minor)) return "";
    return fmt::format("sm_{}{}", major, minor);
  }
  if (!AllDigits(s) || s.size() < 2 || s.size() > 3) return "";
  return fmt::format("sm_{}", s);
}

}  // namespace

const std::vector<GpuArch>& KnownArchs() {
  static const std::vector<GpuArch> archs = BuildArchs();
  return archs;
}

std::string KnownArchList() {
  std::string out;
  for (const GpuArch& a : KnownArchs()) {
    if (!out.empty()) out += ", ";
    out += a.name;
  }
  return out;
}

StatusOr<GpuArch> ParseArch(std::string_view text) {
  std::string s = Lower(text);
  // Strip surrounding blanks.
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  const size_t start = s.find_first_not_of(" \t");
  s = start == std::string::npos ? "" : s.substr(start);
  std::string canonical;
  if (s.rfind("gfx", 0) == 0) {
    // Target-ID features after a colon (gfx942:sramecc+:xnack-) do not change occupancy.
    canonical = s.substr(0, s.find(':'));
  } else {
    canonical = CanonicalNvidia(s);
  }
  for (const GpuArch& a : KnownArchs()) {
    if (a.name == canonical) return a;
  }
  return Status(StatusCode::kInvalidArgument,
                fmt::format("unknown architecture '{}'; known: {} (also written 9.0, 90, sm_90a)",
                            text, KnownArchList()));
}

}  // namespace tensormorph
