// What one dispatch did, from its counters, by rocprof-compute's own formulas
// (src/utils/roofline_calc.py calc_ai; ../shared/reference/other-backends.md §1.4):
//   VALU FLOPs per precision P = 64 x (ADD_P + MUL_P + 2 x FMA_P + TRANS_P)
//                                (SQ_INSTS_VALU_*: one count per wave instruction, 64 lanes)
//   MFMA FLOPs  = 512 x (MFMA_MOPS_F16 + BF16 + F32 + F64 [+ F8] [+ F6F4])  -> tensor_ops
//   HBM bytes   gfx90a and older: 32 x TCC_EA_RDREQ_32B + 64 x (TCC_EA_RDREQ - TCC_EA_RDREQ_32B)
//                                 + 64 x TCC_EA_WRREQ_64B + 32 x (TCC_EA_WRREQ - TCC_EA_WRREQ_64B)
//               gfx94x/gfx950:    128 x TCC_BUBBLE + 32 x TCC_EA0_RDREQ_32B
//                                 + 64 x (TCC_EA0_RDREQ - TCC_BUBBLE - TCC_EA0_RDREQ_32B)
//                                 + 32 x (TCC_EA0_WRREQ - TCC_EA0_WRREQ_64B) + 64 x
//                                 TCC_EA0_WRREQ_64B (all _sum over L2 channels)                ->
//                                 dram_bytes
//   L2 bytes    = 64 x (TCP_TCC_WRITE_REQ + TCP_TCC_ATOMIC_WITH_RET_REQ
//                       + TCP_TCC_ATOMIC_WITHOUT_RET_REQ + TCP_TCC_READ_REQ)   (_sum)
//   L1 bytes    = 64 x TCP_TOTAL_CACHE_ACCESSES_sum
//   LDS bytes   = 4 x lds_banks_per_cu x (SQ_LDS_IDX_ACTIVE - SQ_LDS_BANK_CONFLICT)
// A precision's FLOPs are set only when its four VALU counters were all collected; a level's bytes
// only when every counter of its formula was. The derived totals go into metrics too (section
// "rocprof-compute roofline"), beside every raw counter (section = the file: "pmc_perf",
// "SQ_LEVEL_WAVES").
//
// Achieved occupancy, from the SQ_LEVEL_WAVES pass (its accumulator SQ_ACCUM_PREV_HIRES sums the
// waves in flight every cycle), as rocprof's derived metric MeanOccupancyPerActiveCU defines it:
//   waves per active CU = SQ_ACCUM_PREV_HIRES x 4 / SQ_BUSY_CYCLES / cu_per_gpu
//   achieved occupancy  = waves per active CU / max_waves_per_cu (sysinfo) x 100
// (SQ_BUSY_CYCLES counts in units of 4 cycles; both counters are read from the same pass.)
#pragma once

#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "import/rocprof/compute/dispatch_table.h"
#include "import/rocprof/compute/system_info.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof::compute {

// The rows of one dispatch in each file that has it, the primary (pmc_perf) first.
struct DispatchSources {
  std::vector<std::pair<const DispatchTable*, const DispatchRow*>> rows;
  // The first value of the counter over the files (CounterSum rules: `_sum` or its instances).
  std::optional<double> Get(std::string_view name) const;
};

// The dispatch's KernelCounters (kernel index left 0) with every raw counter in metrics.
KernelCounters ComputeDispatchWork(const DispatchSources& sources, const SystemInfo* info,
                                   StringPool* strings);

// The formulas above over any source of counters (the rocprof-compute database reads them from
// its metric tables): `counter` returns a counter by its pmc_perf name ("SQ_INSTS_VALU_ADD_F32",
// "TCC_EA0_RDREQ_sum"), nullopt when it was not collected.
using CounterLookup = std::function<std::optional<double>(std::string_view)>;
struct CounterWork {
  std::optional<double> fp64_flops, fp32_flops, fp16_flops, mfma_flops;
  std::optional<double> hbm_bytes, l2_bytes, l1_bytes, lds_bytes;
};
CounterWork ComputeCounterWork(const CounterLookup& counter, const SystemInfo* info);
// Copies `work` into counters' FLOP/byte fields and adds it as metrics of section
// "rocprof-compute roofline" (valu_fp32_flops, mfma_flops, hbm_bytes, l2_bytes, ...).
void AddCounterWork(const CounterWork& work, StringPool* strings, KernelCounters* counters);

}  // namespace tensormorph::rocprof::compute
