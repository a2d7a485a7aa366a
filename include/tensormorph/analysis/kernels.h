// The kernel summary: one row per kernel name and backend (or per device / stream), with the
// statistics `nsys stats --report cuda_gpu_kern_sum` prints, so results can be checked against it:
// count, total, mean, median (mean of the two middle values for even counts), min, max, sample
// standard deviation (n - 1), and percent of the summed kernel time (of the row's input's when
// inputs are kept apart).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

enum class KernelGrouping { kName, kDevice, kStream };

struct KernelQuery {
  KernelGrouping group_by = KernelGrouping::kName;
  std::optional<Backend> backend;  // keep only kernels of this backend
  std::string device;              // a number: ordinal or trace id; else part of the label
  bool by_input = false;           // keep inputs apart instead of combining them
  // Keep kernels whose name contains this text, as shown (demangled) or as the trace wrote it
  // (Itanium-mangled); empty = all.
  std::string name_filter;
  size_t top = 0;  // keep the N largest rows; 0 = all
};

struct KernelRow {
  std::string name;  // kernel name, or the device / stream label when grouping by those
  // The name as the trace wrote it when that was Itanium-mangled (Trace::mangled_names); else "".
  std::string mangled_name;
  Backend backend = Backend::kOther;
  int input = -1;  // index into the inputs, when by_input
  uint64_t count = 0;
  int64_t total_ns = 0;
  int64_t min_ns = 0;
  int64_t max_ns = 0;
  double mean_ns = 0;
  double median_ns = 0;
  double stddev_ns = 0;
  double percent = 0;
  bool total_overflows = false;  // the true total exceeds int64 ns (292 years): corrupt durations
};

struct KernelSummary {
  std::vector<KernelRow> rows;  // by total time, largest first
  int64_t total_ns = 0;         // summed time of every kernel that passed the filters
  uint64_t kernel_count = 0;
  size_t row_count_before_top = 0;
  bool total_overflows = false;  // some total was capped at INT64_MAX
};

KernelSummary SummarizeKernels(const std::vector<const LinkedTrace*>& traces,
                               const KernelQuery& query);

// "cuda:0 NVIDIA A100-SXM4-40GB", "rocm:7 AMD Instinct MI300X", "other:id17 ARTEMIS"; with a
// "rank N " prefix when the trace knows its rank and `with_rank` is set.
std::string DeviceLabel(const Trace& trace, uint32_t device, bool with_rank);

// The device with the most kernel time (the first of equals); kNoDevice when no kernel is on one.
uint32_t BusiestDevice(const Trace& trace);

// Duration statistics of one group of kernels; `durations` is sorted in place.
void FillDurationStats(std::vector<int64_t>& durations, KernelRow* row);

}  // namespace tensormorph
