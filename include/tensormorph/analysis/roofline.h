// The roofline per kernel: FLOPs and DRAM bytes from hardware counters (roofline_counters.h),
// arithmetic intensity, achieved FLOP/s and B/s, and the device's attainable ceiling at that
// intensity for the kernel's dominant precision: min(peak FLOP/s, intensity x bandwidth).
//
// Peaks come, in this order, from what the profiler measured on the device (Nsight Compute's
// roofline chart; rocprof-compute's roofline.csv through Device::measured_peaks), from the device
// database (MatchDevice), or from a --device-spec entry. A device that matches nothing gets rows
// without a ceiling and the reason: never another device's numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/roofline_counters.h"
#include "tensormorph/devices/device_db.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/precision.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

// Why a kernel without counters has no row.
inline constexpr const char* kNoCountersReason =
    "no counters (collect Nsight Compute metrics, or profile framework ops with "
    "record_shapes=True for the FLOP counter)";
inline constexpr const char* kNoFlopsReason =
    "no FLOP counts (for no precision were its add, mul and fma instruction counts all "
    "collected)";
inline constexpr const char* kNoDramReason =
    "no DRAM bytes (dram__bytes_read.sum and dram__bytes_write.sum, or dram__bytes.sum, not "
    "collected)";
inline constexpr const char* kRatesWithoutTimeReason =
    "rates without a duration, beside launches with totals (cannot be weighted)";

// Nsight Compute's Speed Of Light rule: achieved compute throughput and memory bandwidth both
// below 60 % of peak "typically indicate latency issues". A kernel measured below it on both is
// latency-bound, whatever its intensity says.
inline constexpr double kLatencyThroughputPercent = 60;

// Without Speed Of Light figures, two signs of latency override the intensity's verdict:
//  - launches shorter than kLatencyFloorNs on average: a kernel that short is mostly launch ramp
//    and tail (the empty-kernel duration of current GPUs is 1-3 µs), whatever its intensity;
//  - achieved FLOP/s and B/s both below kLatencyRoofPercent of the device's peaks: neither
//    roof is near, so neither is what bounds it (the intensity-based counterpart of the rule
//    above, with a lower bar because op-shape bytes are a lower bound).
inline constexpr int64_t kLatencyFloorNs = 5'000;
inline constexpr double kLatencyRoofPercent = 10;

enum class Bound : uint8_t { kMemory, kCompute, kLatency };
// "memory", "compute", "latency".
const char* BoundName(Bound bound);

struct RooflineQuery {
  size_t top = 0;  // keep the N rows with the most time; 0 = all
  // The device table: built-in entries with --device-spec files applied (LoadDeviceSpecs).
  const std::vector<DeviceSpec>* devices = nullptr;  // null = BuiltInDevices()
};

struct RooflineRow {
  std::string name;
  Backend backend = Backend::kOther;
  std::string device;                      // DeviceLabel
  Precision precision = Precision::kFp32;  // the precision with the most FLOPs
  uint64_t count = 0;                      // launches that contributed
  int64_t total_ns = 0;
  // Totals; absent when the launches gave only rates and no duration to scale them by.
  std::optional<double> flops, dram_bytes;
  double arithmetic_intensity = 0;  // FLOP per DRAM byte
  // Absent when the launches carry totals but no duration.
  std::optional<double> achieved_flops_per_s, achieved_bytes_per_s;
  // The ceiling; absent (with no_ceiling_reason) when the peaks are unknown.
  std::optional<double> peak_flops_per_s, peak_bytes_per_s, ceiling_flops_per_s, percent_of_roof;
  std::optional<bool> memory_bound;  // intensity below the ridge point (peak / bandwidth)
  // The verdict: from the Speed Of Light throughputs when the profiler measured them
  // (bound_source "speed_of_light": the higher of the two, or latency when both are below
  // kLatencyThroughputPercent), else latency for short launches ("launch_duration") or rates
  // far below both peaks ("below_both_roofs"), else from the intensity against the ridge point
  // ("intensity").
  std::optional<Bound> bound;
  std::string bound_source;
  // Speed Of Light: SM and memory throughput in percent of peak, time-weighted over the launches.
  std::optional<double> sm_throughput_percent, memory_throughput_percent;
  // Rows of launches with DRAM bytes but no FLOP counts (flops absent): achieved B/s against
  // the device's bandwidth, in percent.
  std::optional<double> percent_of_bandwidth;
  std::string peak_source;  // "measured", "database: KEY", "device spec: KEY"
  std::string no_ceiling_reason;
  bool from_rates = false;  // achieved figures derived from the export's per-cycle rates
  // Where FLOPs and bytes come from: "counters" (Nsight Compute metrics, bytes measured at DRAM)
  // or "op shapes" (the FLOP counter over framework ops; bytes are the lower bound of reading
  // each operand and writing the output once, so the intensity is an upper bound).
  std::string source = "counters";
};

struct RooflineSkip {
  std::string reason;
  uint64_t count = 0;  // kernel launches
};

struct RooflineResult {
  std::vector<RooflineRow> rows;  // by total time, largest first
  std::vector<RooflineSkip> skipped;
  uint64_t kernel_count = 0;
  size_t row_count_before_top = 0;
};

RooflineResult AnalyzeRoofline(const std::vector<const LinkedTrace*>& traces,
                               const RooflineQuery& query);

// The device database's peak `peak_metric` and memory bandwidth for a device of the trace into
// row->peak_*, with peak_source; or no_ceiling_reason when the device is unknown or unmatched.
void ResolveDatabasePeaks(const Trace& trace, uint32_t device, Metric peak_metric,
                          const std::vector<DeviceSpec>& devices, RooflineRow* row);

// The ceiling at the row's intensity, the bound and the percent of roof, when peaks are known.
// Reads count and total_ns for the launch-duration rule.
void ApplyCeiling(RooflineRow* row);

}  // namespace tensormorph
