// What the cross-device prediction (predict.h) knows about device families, measured on real
// traces (`tensormorph calibrate`, docs/predict.md). A family is a device architecture of the
// device database ("sm_90", "gfx942"): H100 and H200 share one, so figures measured on one serve
// the other with its own peaks.
//
// The model of one kernel class (a WorkCategory) on one family is
//     device time = kernels * kernel_ns + roof time / fraction_of_roof
// where roof time is max(FLOPs / compute peak, bytes / memory bandwidth) on the row's device. Every
// figure is a plain aggregate over the calibration traces, written with what it was computed from,
// so that a shipped figure can be recomputed from its sources:
//  - kernel_floor_ns: the 5th percentile of the family's kernel durations (for the rows without a
//    work estimate, which the category ratios predict).
//  - kernel_ns per (family, category): the fixed cost of a kernel, measured where nothing else
//    counts: the median duration per kernel (each row's time / kernels, weighted by its kernels)
//    over the op rows whose roof time per kernel is below kLatencyRoofNs. With fewer than
//    kLatencyMinKernels such kernels in the category, the same median over all the family's
//    categories (`kernel_ns_from` "family"), else kernel_floor_ns ("floor").
//  - fraction_of_roof per (family, category), with kernel_ns given: least squares on the relative
//    error over the op rows whose whole device time has a work estimate (each row weighs the same
//    whatever its size), at most 1.
//  - ratio per (from family, to family, category): on pairs of traces of the same workload (two
//    traces whose ops compare matches for at least half of each side's kernel time), over the
//    matched rows of the category, sum(to time - k * to floor) / sum(from time - k * from floor),
//    each term clipped at 0, k being the row's kernel count on `from`; and kernel_ratio, the
//    kernels `to` launches for the rows per kernel of `from` (attention may be one kernel on one
//    vendor and several on another). Both directions are written.
//  - intervals per (category, size class): the 10th and 90th percentiles of measured / predicted
//    over the matched rows of each workload predicted by a calibration without it (leave one
//    workload out, both directions), when there are two workloads or more. A size class is
//    "small" for rows under kSmallRowNs per call on the source (predict.h), else "large";
//    category "all" pools the categories of a size class.
#pragma once

#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/analysis/compare/categories.h"
#include "tensormorph/devices/device_db.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/status.h"

namespace tensormorph {

// A row is in the latency regime when its roof time per kernel is below this (the fixed costs
// are 1.5-7 us): its time per kernel is the class's fixed cost.
inline constexpr double kLatencyRoofNs = 1000;
inline constexpr uint64_t kLatencyMinKernels = 3;

struct CategoryEfficiency {
  double kernel_ns = 0;                     // the fixed cost of one kernel
  std::string kernel_ns_from = "category";  // "category", "family" or "floor" (above)
  uint64_t latency_kernels = 0;  // kernels of the latency-regime rows kernel_ns is the median of
  double fraction_of_roof = 0;
  uint64_t rows = 0;      // op rows the fraction was fitted on
  int64_t device_ns = 0;  // their device time
  double roof_ns = 0;     // their summed roof time
};

struct FamilyCalibration {
  std::string family;                // DeviceSpec::architecture ("sm_90"); "cpu" for CPUs
  std::vector<std::string> devices;  // database keys of the traces' devices, sorted
  int64_t kernel_floor_ns = 0;
  uint64_t kernels = 0;  // kernel durations the floor is the percentile of
  std::array<std::optional<CategoryEfficiency>, kWorkCategoryCount> efficiency{};
};

struct CategoryRatio {
  std::string from, to;  // families
  WorkCategory category = WorkCategory::kOther;
  double ratio = 0;                // to_ns / from_ns
  int64_t from_ns = 0, to_ns = 0;  // the time past the floors (above), summed
  double kernel_ratio = 1;         // to_kernels / from_kernels
  uint64_t from_kernels = 0, to_kernels = 0;
  uint32_t pairs = 0;  // trace pairs that contributed
};

// How far held-out rows of a category and size class were from their prediction (above).
struct PredictionInterval {
  std::string category;      // a WorkCategoryName, or "all"
  std::string size;          // "small" or "large"
  double low = 1, high = 1;  // 10th and 90th percentiles of measured / predicted
  uint64_t rows = 0;
};

struct CalibrationSource {
  std::string path;          // as given (file name only in the shipped calibration)
  std::string device;        // the busiest device's name in the trace
  std::string database_key;  // its device-database entry
  std::string family;
  int64_t kernel_ns = 0;
};

struct CalibrationPair {
  size_t first = 0, second = 0;  // indices into sources
  double matched_share = 0;      // the smaller of the two sides' matched kernel-time shares
};

struct Calibration {
  std::vector<CalibrationSource> sources;
  std::vector<CalibrationPair> pairs;         // the source pairs taken as one workload
  std::vector<FamilyCalibration> families;    // by family name
  std::vector<CategoryRatio> ratios;          // by (from, to, category)
  std::vector<PredictionInterval> intervals;  // none with fewer than two workloads

  // The interval for a category and size class: its own with kMinIntervalRows rows or more, else
  // the size class's over all categories; null when neither has them.
  const PredictionInterval* Interval(WorkCategory category, bool small) const;

  const FamilyCalibration* Family(std::string_view family) const;
  const CategoryRatio* Ratio(std::string_view from, std::string_view to,
                             WorkCategory category) const;
};

// The family of a database entry: its architecture, "cpu" for the CPU backend, else its key.
std::string DeviceFamily(const DeviceSpec& spec);

// Calibrates on `traces` (each linked; typically the two or more traces of each of several
// workloads on different devices). Fails, naming the file, when a trace's busiest device has no
// database entry or the trace has no kernels: a calibration must never borrow another device.
StatusOr<Calibration> Calibrate(const std::vector<const LinkedTrace*>& traces,
                                const std::vector<DeviceSpec>& devices);

inline constexpr uint64_t kMinIntervalRows = 10;

// JSON `tensormorph.calibration/2` (docs/predict.md), and back. Parse errors name `path` and the
// field ("calibration.json: families[1].kernel_floor_ns: expected an integer").
std::string CalibrationJson(const Calibration& calibration);
StatusOr<Calibration> ParseCalibration(std::string_view text, const std::string& path);
StatusOr<Calibration> LoadCalibration(const std::string& path);

// The calibration shipped with tensormorph (src/analysis/predict/calibration.json: the shared
// H100 / MI300X pairs, reproduced by the command in docs/predict.md).
const Calibration& BuiltInCalibration();

}  // namespace tensormorph
