// Roofline rows from framework ops with recorded shapes, for traces without hardware counters:
// FLOPs and a lower bound on bytes from the FLOP counter (link/op_work.h), device time from the
// kernels each op call launched (src/link). Used by AnalyzeRoofline.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "tensormorph/analysis/roofline.h"

namespace tensormorph {

// Why kernels of a counter-less trace have no op-shape row, naming the counter tool of the
// kernels' backend (Nsight Compute for CUDA, rocprof-compute or rocprofv3 --pmc for ROCm).
std::string NoCountedOpReason(Backend backend);

// Appends one row per (op name, backend, device) for the outermost FLOP-counted op calls of
// `trace` (aten::linear, not also the aten::addmm inside it); adds the kernels it could not
// cover to `skipped`, by reason.
void AddOpShapeRows(const LinkedTrace& linked, const std::vector<DeviceSpec>& devices,
                    std::vector<RooflineRow>* rows, std::map<std::string, uint64_t>* skipped);

// The ceiling of an op-shape row (precision, flops, dram_bytes, intensity and achieved rates
// filled in) on `device` of `trace`: the first of PeakMetricsFor(precision) the device database
// has, then ApplyCeiling; or no_ceiling_reason.
void ApplyOpShapeCeiling(const Trace& trace, uint32_t device,
                         const std::vector<DeviceSpec>& devices, RooflineRow* row);

// The device-database peak that bounds an op of this precision: matrix-unit rates for the
// 16- and 8-bit formats and TF32; for FP32 and FP64 the matrix rate where the table has one
// (AMD CDNA, NVIDIA FP64 tensor cores), else the vector rate.
std::vector<Metric> PeakMetricsFor(Precision precision);

}  // namespace tensormorph
