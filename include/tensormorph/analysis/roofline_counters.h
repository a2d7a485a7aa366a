// What one launch contributes to a roofline, read from its hardware counters (Nsight Compute):
// FLOPs per precision and DRAM bytes, either as totals or, when an export holds only the
// roofline chart's per-cycle rates, as rates; plus the peaks the profiler itself measured.
//
// Nsight Compute's roofline (SpeedOfLight_RooflineChart.section, SpeedOfLight_Roofline.py):
//   achieved FLOP/s = (add + mul + 2 x fma)[smsp__..._pred_on.sum.per_cycle_elapsed]
//                     x smsp__cycles_elapsed.avg.per_second   (fp16: 2 add + 2 mul + 4 fma)
//   achieved B/s    = dram__bytes.sum.per_second
//   peak FLOP/s     = 2 x ..._ffma_pred_on.sum.peak_sustained x sm__cycles_elapsed.avg.per_second
//   peak B/s        = dram__bytes.sum.peak_sustained x dram__cycles_elapsed.avg.per_second
// The details page prints the same values under labels ("Predicated-On FFMA Operations Per
// Cycle", "SM Frequency", "DRAM Bandwidth", "Theoretical DRAM Bytes Accessible", ...); both
// spellings are read.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "tensormorph/model/precision.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

// The precisions Nsight Compute's roofline counts FLOPs for, plus the tensor pipe; the values
// index per-precision arrays. kTensor counts sm__ops_path_tensor_src_* operations (each an
// operation of the tensor roofline, used as FLOPs as Nsight Compute's tensor roofline does); its
// element precision is TensorSourcePrecision. (Framework ops have more: model/precision.h.)
enum class CounterPrecision : uint8_t { kFp64, kFp32, kFp16, kTensor };
inline constexpr int kCounterPrecisionCount = 4;
// kTensor maps to kUnknown: the source precision is per launch (TensorSourcePrecision).
Precision ToPrecision(CounterPrecision precision);

// The source precision of the tensor-pipe metric with the most operations
// (sm__ops_path_tensor_src_bf16_dst_fp32.sum -> bf16); kUnknown without one.
Precision TensorSourcePrecision(const Trace& trace, const KernelCounters& counters);

struct LaunchWork {
  // Totals over the launch (the importer's counts), or rate x duration when only rates exist.
  std::array<std::optional<double>, kCounterPrecisionCount> flops;
  std::optional<double> dram_bytes;
  // Per-second rates when the export gave only rates and no duration to turn them into totals.
  std::array<std::optional<double>, kCounterPrecisionCount> flops_per_s;
  std::optional<double> dram_bytes_per_s;
  bool from_rates = false;  // some figure came from per-cycle rates, not counts
};

// The launch's work; `duration_ns` <= 0 means unknown (rates then stay rates).
LaunchWork ReadLaunchWork(const Trace& trace, const KernelCounters& counters, int64_t duration_ns);

struct MeasuredPeaks {
  std::array<std::optional<double>, kCounterPrecisionCount> flops_per_s;
  std::optional<double> dram_bytes_per_s;
  std::string source = "measured";  // RooflineRow::peak_source when these are used
};

// Peaks the profiler recorded for the launch's device (roofline chart sections or the raw
// peak_sustained metrics with their clocks); empty when it recorded none.
MeasuredPeaks ReadMeasuredPeaks(const Trace& trace, const KernelCounters& counters);

// Peaks measured on the device itself (Device::measured_peaks, e.g. rocprof-compute's
// roofline.csv): HBM bandwidth, vector FP64/FP32/FP16 and the matrix peak of `tensor_precision`.
// Source "measured (<Trace::metadata measured_peaks_source>)". Empty without a bandwidth.
MeasuredPeaks DeviceMeasuredPeaks(const Trace& trace, const Device& device,
                                  Precision tensor_precision);

}  // namespace tensormorph
