// What a kernel of a rocprof-compute database did and how it was launched, from its metrics
// (kernels.h). The database keeps per-kernel aggregates only, so every dispatch of a kernel gets
// the kernel's per-dispatch mean ("Avg"); a launch field whose Min and Max differ between the
// dispatches is left unset rather than averaged.
//
// Launch configuration (panel "Wavefront Launch Stats"): block = Workgroup Size, grid = ceil(Grid
// Size / Workgroup Size) workgroups (Grid Size counts work-items, as pmc_perf's Grid_Size),
// registers = VGPRs (doubled on gfx950, as the CSV reader does: rocprofv3 decodes them with the
// pre-CDNA granule, ../shared/reference/other-backends.md §2.4), AGPRs, SGPRs, LDS Allocation.
//
// Work, by the CSV reader's formulas (compute/work.h ComputeCounterWork) over the database's own
// copies of the counters: SQ_INSTS_VALU_<OP>_<P> = "VALU Arithmetic Instruction Mix" "<P>-<Op>",
// SQ_LDS_IDX_ACTIVE / SQ_LDS_BANK_CONFLICT = "LDS Statistics" "Index Accesses" / "Bank Conflict",
// TCP_* / TCC_* (`_sum` over channels) = the "Raw Counter Value(s)" tables. What the database lacks
// is filled in from its derived metrics, each documented at its place:
//   MFMA FLOPs = "FLOPs (Total)" - VALU FLOPs (the database has no SQ_INSTS_VALU_MFMA_MOPS_*);
//   HBM bytes  = mean FLOPs / the roofline table's HBM intensity when both are > 0 (TCC_BUBBLE is
//                not in the database), else, for a kernel with one dispatch, "HBM Bandwidth"
//                (GB/s) x its duration; otherwise unknown.
#pragma once

#include <cstdint>

#include "import/rocprof/compute/system_info.h"
#include "import/rocprof/compute_db/kernels.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof::compute_db {

// How the HBM bytes of a kernel were found (for the import's summary warning).
enum class HbmSource : uint8_t { kCounters, kRooflineIntensity, kBandwidthTimesDuration, kUnknown };

// The launch fields of `info` into `kernel`; names of fields left unset because the dispatches
// differ go to `varying`.
void ReadLaunch(const KernelInfo& info, const StringPool& strings,
                const compute::SystemInfo* system, Kernel* kernel,
                std::vector<std::string>* varying);

// The counters of one dispatch of the kernel (kernel index left 0): FLOPs and bytes as above, the
// roofline point, and every metric of the database. `dispatches` is the kernel's dispatch count,
// `duration_ns` this dispatch's duration.
KernelCounters KernelWork(const KernelInfo& info, StringPool* strings,
                          const compute::SystemInfo* system, int64_t dispatches,
                          int64_t duration_ns, HbmSource* hbm_source);

}  // namespace tensormorph::rocprof::compute_db
