#include "import/rocprof/compute/work.h"

#include <fmt/format.h>

#include <initializer_list>

namespace tensormorph::rocprof::compute {
namespace {

constexpr double kLanes = 64;             // VALU counters count wave instructions of 64 lanes
constexpr double kMfmaFlopsPerMop = 512;  // SQ_INSTS_VALU_MFMA_MOPS_* count 512-FLOP units

std::optional<double> ValuFlops(const CounterLookup& s, const char* precision) {
  std::optional<double> add = s(fmt::format("SQ_INSTS_VALU_ADD_{}", precision));
  std::optional<double> mul = s(fmt::format("SQ_INSTS_VALU_MUL_{}", precision));
  std::optional<double> fma = s(fmt::format("SQ_INSTS_VALU_FMA_{}", precision));
  std::optional<double> trans = s(fmt::format("SQ_INSTS_VALU_TRANS_{}", precision));
  if (!add || !mul || !fma || !trans) return std::nullopt;
  return kLanes * (*add + *mul + 2 * *fma + *trans);
}

// The sum of the named counters times `scale`; nullopt when any is missing.
std::optional<double> Scaled(const CounterLookup& s, double scale,
                             std::initializer_list<const char*> names) {
  double sum = 0;
  for (const char* name : names) {
    std::optional<double> v = s(name);
    if (!v) return std::nullopt;
    sum += *v;
  }
  return scale * sum;
}

bool Cdna3OrLater(const SystemInfo* info, const CounterLookup& s) {
  if (info != nullptr && info->gpu_arch.starts_with("gfx9") && info->gpu_arch.size() >= 6) {
    const char generation = info->gpu_arch[4];  // gfx94x, gfx95x
    return generation >= '4' && generation <= '9';
  }
  return s("TCC_EA0_RDREQ_sum").has_value();  // unknown arch: the counters tell
}

std::optional<double> HbmBytes(const CounterLookup& s, const SystemInfo* info) {
  if (Cdna3OrLater(info, s)) {
    std::optional<double> bubble = s("TCC_BUBBLE_sum");
    std::optional<double> rd = s("TCC_EA0_RDREQ_sum");
    std::optional<double> rd32 = s("TCC_EA0_RDREQ_32B_sum");
    std::optional<double> wr = s("TCC_EA0_WRREQ_sum");
    std::optional<double> wr64 = s("TCC_EA0_WRREQ_64B_sum");
    if (!bubble || !rd || !rd32 || !wr || !wr64) return std::nullopt;
    return 128 * *bubble + 32 * *rd32 + 64 * (*rd - *bubble - *rd32) + 32 * (*wr - *wr64) +
           64 * *wr64;
  }
  std::optional<double> rd = s("TCC_EA_RDREQ_sum");
  std::optional<double> rd32 = s("TCC_EA_RDREQ_32B_sum");
  std::optional<double> wr = s("TCC_EA_WRREQ_sum");
  std::optional<double> wr64 = s("TCC_EA_WRREQ_64B_sum");
  if (!rd || !rd32 || !wr || !wr64) return std::nullopt;
  return 32 * *rd32 + 64 * (*rd - *rd32) + 64 * *wr64 + 32 * (*wr - *wr64);
}

std::optional<double> AchievedOccupancy(const DispatchSources& s, const SystemInfo* info) {
  if (info == nullptr || !info->cu_per_gpu || !info->max_waves_per_cu) return std::nullopt;
  for (const auto& [table, row] : s.rows) {
    std::optional<double> accum = table->Counter(*row, "SQ_ACCUM_PREV_HIRES");
    std::optional<double> busy = table->Counter(*row, "SQ_BUSY_CYCLES");
    if (!accum || !busy || *busy <= 0) continue;
    const double waves_per_cu = *accum * 4 / *busy / static_cast<double>(*info->cu_per_gpu);
    return 100 * waves_per_cu / static_cast<double>(*info->max_waves_per_cu);
  }
  return std::nullopt;
}

}  // namespace

std::optional<double> DispatchSources::Get(std::string_view name) const {
  for (const auto& [table, row] : rows) {
    if (std::optional<double> v = table->CounterSum(*row, name)) return v;
  }
  return std::nullopt;
}

CounterWork ComputeCounterWork(const CounterLookup& counter, const SystemInfo* info) {
  CounterWork w;
  w.fp64_flops = ValuFlops(counter, "F64");
  w.fp32_flops = ValuFlops(counter, "F32");
  w.fp16_flops = ValuFlops(counter, "F16");
  for (const char* type : {"F16", "BF16", "F32", "F64", "F8", "F6F4"}) {
    if (std::optional<double> mops = counter(fmt::format("SQ_INSTS_VALU_MFMA_MOPS_{}", type))) {
      w.mfma_flops = w.mfma_flops.value_or(0) + kMfmaFlopsPerMop * *mops;
    }
  }
  w.hbm_bytes = HbmBytes(counter, info);
  w.l2_bytes = Scaled(counter, 64,
                      {"TCP_TCC_WRITE_REQ_sum", "TCP_TCC_ATOMIC_WITH_RET_REQ_sum",
                       "TCP_TCC_ATOMIC_WITHOUT_RET_REQ_sum", "TCP_TCC_READ_REQ_sum"});
  w.l1_bytes = Scaled(counter, 64, {"TCP_TOTAL_CACHE_ACCESSES_sum"});
  if (info != nullptr && info->lds_banks_per_cu) {
    std::optional<double> active = counter("SQ_LDS_IDX_ACTIVE");
    std::optional<double> conflict = counter("SQ_LDS_BANK_CONFLICT");
    if (active && conflict) {
      w.lds_bytes = 4.0 * static_cast<double>(*info->lds_banks_per_cu) * (*active - *conflict);
    }
  }
  return w;
}

void AddCounterWork(const CounterWork& work, StringPool* strings, KernelCounters* counters) {
  KernelCounters& c = *counters;
  c.fp64_flops = work.fp64_flops;
  c.fp32_flops = work.fp32_flops;
  c.fp16_flops = work.fp16_flops;
  c.tensor_ops = work.mfma_flops;
  c.dram_bytes = work.hbm_bytes;
  const StringId derived = strings->Intern("rocprof-compute roofline");
  auto add = [&](const char* name, const char* unit, std::optional<double> value) {
    if (value) c.metrics.push_back({derived, strings->Intern(name), strings->Intern(unit), *value});
  };
  add("valu_fp64_flops", "flop", work.fp64_flops);
  add("valu_fp32_flops", "flop", work.fp32_flops);
  add("valu_fp16_flops", "flop", work.fp16_flops);
  add("mfma_flops", "flop", work.mfma_flops);
  add("hbm_bytes", "byte", work.hbm_bytes);
  add("l2_bytes", "byte", work.l2_bytes);
  add("l1_bytes", "byte", work.l1_bytes);
  add("lds_bytes", "byte", work.lds_bytes);
}

KernelCounters ComputeDispatchWork(const DispatchSources& sources, const SystemInfo* info,
                                   StringPool* strings) {
  KernelCounters c;
  const CounterLookup counter = [&](std::string_view name) { return sources.Get(name); };
  const CounterWork work = ComputeCounterWork(counter, info);
  c.achieved_occupancy_percent = AchievedOccupancy(sources, info);

  const StringId no_unit = strings->Intern("");
  for (const auto& [table, row] : sources.rows) {
    const StringId section = strings->Intern(table->section());
    const std::vector<std::string>& names = table->counter_names();
    for (size_t i = 0; i < names.size() && i < row->values.size(); ++i) {
      if (std::isnan(row->values[i])) continue;
      c.metrics.push_back({section, strings->Intern(names[i]), no_unit, row->values[i]});
    }
  }
  AddCounterWork(work, strings, &c);
  if (c.achieved_occupancy_percent) {
    c.metrics.push_back({strings->Intern("rocprof-compute roofline"),
                         strings->Intern("achieved_occupancy"), strings->Intern("%"),
                         *c.achieved_occupancy_percent});
  }
  return c;
}

}  // namespace tensormorph::rocprof::compute
