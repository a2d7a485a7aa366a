// Profiles of one workload on different devices, backends or software, side by side
// (`tensormorph compare`, docs/compare.md).
//
// Alignment goes through framework ops, never through kernel names (vendors name their kernels
// differently):
//  - An op call's key is its name, its recorded input dims and dtypes and, when every side records
//    module paths, its module path. When every side names the graph node each op ran (ONNX
//    Runtime profiles), the key is the node's name and the op name instead. A key is shared when
//    every side has an op call with it, at any depth of the call tree.
//  - Each kernel belongs to the outermost shared op around it (its row op); where no op around it
//    is shared, to the outermost op around it; where no op is around it, to a row of kernels
//    under no op, one per kernel category. So every kernel is in exactly one row and, per side,
//    the rows' device_ns add up to the side's kernel_ns (equal to `tensormorph kernels`).
//  - Row-op calls with the same key are matched in call order: the first n of each side, where n
//    is the fewest calls any side has; calls past n are rows of their own (status only_in),
//    never dropped. So a matched row compares the same number of calls on every side.
//  - Where the call trees differ below a shared op (flash attention on one side, memory-efficient
//    attention on the other), the row is that op and its children list each side's inner ops.
//
// Memcpy and memset transfers are not kernels (`tensormorph kernels` does not count them): they
// are in transfer_ns, beside device_ns.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/compare/categories.h"
#include "tensormorph/analysis/memory/memory_fit.h"
#include "tensormorph/analysis/roofline.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/devices/device_db.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/precision.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

// How rows group the aligned calls: by op name; by name, input dims and dtypes (`shape`); by
// module path and name (`stack`); by category.
enum class CompareBy : uint8_t { kOp, kShape, kStack, kCategory };
const char* CompareByName(CompareBy by);
std::optional<CompareBy> ParseCompareBy(std::string_view name);

struct CompareQuery {
  CompareBy by = CompareBy::kShape;
  // One label per side; empty or "" entries get the default (DefaultCompareLabels).
  std::vector<std::string> labels;
  size_t top = 0;  // keep the N rows with the most time on any side; 0 = all
  // Device table for the percent of roof (built-in entries with --device-spec applied).
  const std::vector<DeviceSpec>* devices = nullptr;  // null = BuiltInDevices()
  // false: no timeline per side (busy, span, steps, launch latency and idle stay 0), for callers
  // that need the rows only (predict, calibrate).
  bool side_headers = true;
};

// One side's figures for a row.
struct CompareCell {
  uint64_t calls = 0;     // row-op calls (for kernels under no op: 0)
  int64_t device_ns = 0;  // the kernels of the calls' subtrees, each once
  int64_t self_ns = 0;    // of those, the kernels the row op launched itself
  uint64_t kernels = 0;
  int64_t transfer_ns = 0;            // memcpy/memset launched in the calls' subtrees
  Backend backend = Backend::kOther;  // where most of device_ns ran
  std::string device;                 // DeviceLabel of that device
  uint32_t device_index = kNoDevice;  // that device in the side's Trace::devices
  // The FLOP counter's work of the outermost counted op in each call (link/op_work.h), summed
  // over the calls that have it, and the device time of those calls.
  std::optional<double> flops, bytes;
  uint64_t calls_with_flops = 0;
  int64_t flops_device_ns = 0;
  Precision precision = Precision::kUnknown;  // the precision with the most of the FLOPs
  std::optional<double> achieved_flops_per_s, achieved_bytes_per_s;
  // Achieved FLOP/s against the device's ceiling at the row's intensity (roofline.h), in percent;
  // absent when the device has no peaks or the bytes are unknown.
  std::optional<double> percent_of_roof;
  // roofline.h's verdict for the row's calls on that device (latency for kernels shorter than
  // kLatencyFloorNs on average or rates far below both roofs); absent without peaks.
  std::optional<Bound> bound;
};

// An op inside a row (below the row op): its calls and kernels there, not added to the row again.
struct CompareChildCell {
  uint64_t calls = 0;
  int64_t device_ns = 0;    // its subtree's kernels
  int64_t self_ns = 0;      // the kernels it launched itself
  uint64_t kernels = 0;     // of its subtree
  int64_t transfer_ns = 0;  // memcpy/memset in its subtree
};
struct CompareChild {
  std::string name, shapes, dtypes;
  std::vector<std::optional<CompareChildCell>> sides;  // absent: not inside this row on that side
};

struct CompareRow {
  std::string key;   // unique among the rows
  std::string name;  // the op name; "(kernels under no op)" for kernel rows
  WorkCategory category = WorkCategory::kOther;
  std::string shapes, dtypes;  // the input dims and dtypes as JSON lists (by shape); "" otherwise
  std::string stack;           // module path (by stack, or when the key includes it)
  bool matched = false;        // every side has it; else status only_in
  std::string origin = "op";   // "op", or "no_op" for kernels under no op
  std::vector<std::optional<CompareCell>> sides;  // parallel to the inputs; absent on that side
  // Each side's device_ns over the first side's; absent where either is absent or the first is 0.
  std::vector<std::optional<double>> ratio;
  std::optional<size_t> faster;        // matched rows: the side with the least device_ns
  std::vector<CompareChild> children;  // by the most device time on any side
  int64_t total_ns = 0;                // ranking key: the most device_ns of any side
};

struct CompareSide {
  size_t input = 0;
  std::string label;
  std::string device;  // the device with the most kernel time (DeviceLabel)
  uint64_t kernels = 0;
  int64_t kernel_ns = 0;                // summed kernel durations (as `tensormorph kernels`)
  int64_t transfer_ns = 0;              // summed memcpy/memset durations
  int64_t busy_ns = 0;                  // union of the device work, summed over devices (timeline)
  int64_t span_ns = 0;                  // the trace's wall span
  std::optional<int64_t> host_step_ns;  // median ProfilerStep#N duration, when steps exist
  size_t steps = 0;
  int64_t matched_kernel_ns = 0, unmatched_kernel_ns = 0;
  // Launch overhead: median kernel start - launch call start (timeline's launch latency).
  std::optional<int64_t> launch_p50_ns;
  int64_t idle_ns = 0;  // gaps longer than the timeline's minimum, summed over devices
  std::array<CauseTotal, kGapCauseCount> idle_by_cause{};
  std::array<int64_t, kWorkCategoryCount> category_ns{};
  std::array<uint64_t, kWorkCategoryCount> category_kernels{};
  // Memory (analysis/memory/memory_fit.h): the side's peak, none without allocator records; the
  // capacity of its busiest device (the one `device` names); and the peak's fit on every side's
  // device, in side order (empty without a peak).
  std::optional<WorkloadMemory> memory;
  std::optional<int64_t> capacity_bytes;
  std::vector<MemoryFit> memory_fits;
};

struct CompareResult {
  CompareBy by = CompareBy::kShape;
  bool keys_include_stack = false;  // every side recorded module paths
  // Every side named the graph node of its ops (ONNX Runtime): calls matched by node and op name,
  // whatever input shapes each side reports (the first side's are shown); `stack` is the node.
  bool keys_are_nodes = false;
  std::vector<CompareSide> sides;
  std::vector<CompareRow> rows;  // by total_ns, largest first
  size_t row_count_before_top = 0;
  std::string verdict;  // one line per side after the first
  // Sides without a basis for a verdict: less than kSameWorkloadMatchedFraction of its own or the
  // first side's kernel time is in rows both ran, so they do not look like one workload; such a
  // side gets this warning instead of a verdict line.
  std::vector<std::string> warnings;
};

// The share of a side's kernel time that must lie in matched rows (on it and on the first side)
// for a verdict: same-workload pairs match all of it (the three shared H100 / MI300X pairs: 100 %
// by shape), different models none.
inline constexpr double kSameWorkloadMatchedFraction = 0.5;

// Default labels: the name of each side's busiest device; where two sides would share one, the
// input's file name instead.
std::vector<std::string> DefaultCompareLabels(const std::vector<const LinkedTrace*>& sides);

CompareResult CompareTraces(const std::vector<const LinkedTrace*>& sides,
                            const CompareQuery& query);

}  // namespace tensormorph
