#include "import/rocprof/compute_db/kernel_work.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "import/rocprof/compute/work.h"

namespace tensormorph::rocprof::compute_db {
namespace {

constexpr std::string_view kLaunchStats = "Wavefront Launch Stats";
constexpr std::string_view kValuMix = "VALU Arithmetic Instruction Mix";
constexpr std::string_view kLds = "LDS Statistics";
constexpr std::string_view kArithmetic = "Arithmetic Operations";
constexpr std::string_view kRooflineRates = "Roofline Performance Rates";

// A launch field that is the same for every dispatch (Min == Max), as a count.
std::optional<uint64_t> SameForAll(const KernelInfo& info, const StringPool& strings,
                                   std::string_view name, std::vector<std::string>* varying) {
  std::optional<double> min = info.Get(strings, kLaunchStats, name, "Min");
  std::optional<double> max = info.Get(strings, kLaunchStats, name, "Max");
  std::optional<double> value = min ? min : info.Mean(strings, kLaunchStats, name);
  if (!value) return std::nullopt;
  if (min && max && *min != *max) {
    varying->push_back(std::string(name));
    return std::nullopt;
  }
  if (*value < 0 || *value > 4e9 || std::floor(*value) != *value) return std::nullopt;
  return static_cast<uint64_t>(*value);
}

template <typename T>
T Clamp(uint64_t v) {
  return static_cast<T>(std::min<uint64_t>(v, std::numeric_limits<T>::max()));
}

// The pmc_perf counter `name` from the database's metrics; nullopt when it has no copy.
std::optional<double> Counter(const KernelInfo& info, const StringPool& strings,
                              std::string_view name) {
  static constexpr std::string_view kValuPrefix = "SQ_INSTS_VALU_";
  if (name.starts_with(kValuPrefix) && !name.starts_with("SQ_INSTS_VALU_MFMA")) {
    // SQ_INSTS_VALU_ADD_F32 -> "F32-ADD"; TRANS -> "Trans".
    const std::string_view rest = name.substr(kValuPrefix.size());
    const size_t underscore = rest.find('_');
    if (underscore == std::string_view::npos) return std::nullopt;
    std::string op(rest.substr(0, underscore));
    if (op == "TRANS") op = "Trans";
    return info.Mean(strings, kValuMix, fmt::format("{}-{}", rest.substr(underscore + 1), op));
  }
  if (name == "SQ_LDS_IDX_ACTIVE") return info.Mean(strings, kLds, "Index Accesses");
  if (name == "SQ_LDS_BANK_CONFLICT") return info.Mean(strings, kLds, "Bank Conflict");
  if (name.ends_with("_sum")) name.remove_suffix(4);
  return info.RawCounter(strings, name);
}

}  // namespace

void ReadLaunch(const KernelInfo& info, const StringPool& strings,
                const compute::SystemInfo* system, Kernel* kernel,
                std::vector<std::string>* varying) {
  Kernel& k = *kernel;
  const std::optional<uint64_t> block = SameForAll(info, strings, "Workgroup Size", varying);
  const std::optional<uint64_t> grid = SameForAll(info, strings, "Grid Size", varying);
  if (block && *block > 0) {
    k.block = {Clamp<uint32_t>(*block), 1, 1};
    if (grid && *grid > 0) k.grid = {Clamp<uint32_t>((*grid + *block - 1) / *block), 1, 1};
  }
  const bool gfx950 = system != nullptr && system->gpu_arch.starts_with("gfx950");
  if (std::optional<uint64_t> v = SameForAll(info, strings, "VGPRs", varying)) {
    k.registers_per_thread = Clamp<uint16_t>(gfx950 ? *v * 2 : *v);
  }
  if (std::optional<uint64_t> v = SameForAll(info, strings, "AGPRs", varying)) {
    k.accum_registers_per_thread = Clamp<uint16_t>(*v);
  }
  if (std::optional<uint64_t> v = SameForAll(info, strings, "SGPRs", varying)) {
    k.scalar_registers = Clamp<uint16_t>(*v);
  }
  if (std::optional<uint64_t> v = SameForAll(info, strings, "LDS Allocation", varying)) {
    k.shared_memory_bytes = Clamp<uint32_t>(*v);
  }
  if (system != nullptr && (system->wave_size == 32 || system->wave_size == 64)) {
    k.wave_size = static_cast<uint8_t>(*system->wave_size);
  }
}

KernelCounters KernelWork(const KernelInfo& info, StringPool* strings,
                          const compute::SystemInfo* system, int64_t dispatches,
                          int64_t duration_ns, HbmSource* hbm_source) {
  const compute::CounterLookup lookup = [&](std::string_view name) {
    return Counter(info, *strings, name);
  };
  compute::CounterWork work = compute::ComputeCounterWork(lookup, system);

  const std::optional<double> total = info.Mean(*strings, kArithmetic, "FLOPs (Total)");
  if (!work.mfma_flops && total && work.fp16_flops && work.fp32_flops && work.fp64_flops) {
    const double valu = *work.fp16_flops + *work.fp32_flops + *work.fp64_flops;
    // Rounding of the stored doubles can leave a few FLOPs; never a negative count.
    work.mfma_flops = std::max(0.0, *total - valu);
  }

  *hbm_source = HbmSource::kCounters;
  if (!work.hbm_bytes) {
    *hbm_source = HbmSource::kUnknown;
    const KernelRoofline* point = info.roofline ? &*info.roofline : nullptr;
    if (point != nullptr && point->ai_hbm && *point->ai_hbm > 0 && total && *total > 0) {
      work.hbm_bytes = *total / *point->ai_hbm;
      *hbm_source = HbmSource::kRooflineIntensity;
    } else if (dispatches == 1 && duration_ns > 0) {
      if (std::optional<double> rate = info.Mean(*strings, kRooflineRates, "HBM Bandwidth")) {
        if (*rate >= 0) {
          work.hbm_bytes = *rate * static_cast<double>(duration_ns);  // GB/s x ns = bytes
          *hbm_source = HbmSource::kBandwidthTimesDuration;
        }
      }
    }
  }

  KernelCounters c;
  c.metrics = info.metrics;
  compute::AddCounterWork(work, strings, &c);
  if (info.roofline) {
    const StringId section = strings->Intern("rocprof-compute roofline");
    auto add = [&](const char* name, const char* unit, std::optional<double> value) {
      if (value) {
        c.metrics.push_back({section, strings->Intern(name), strings->Intern(unit), *value});
      }
    };
    add("roofline_performance", "flop/s",
        info.roofline->gflops_per_s ? std::optional<double>(*info.roofline->gflops_per_s * 1e9)
                                    : std::nullopt);
    add("ai_hbm", "flop/byte", info.roofline->ai_hbm);
    add("ai_l2", "flop/byte", info.roofline->ai_l2);
    add("ai_l1", "flop/byte", info.roofline->ai_l1);
  }
  return c;
}

}  // namespace tensormorph::rocprof::compute_db
