// What the cross-device prediction (predict.h) knows about device families, measured on real
// traces (`tensormorph calibrate`, docs/predict.md). A family is a device architecture of the
// device database ("sm_90", "gfx942"): H100 and H200 share one, so figures measured on one serve
// the other with its own peaks.
//
// Every figure is a plain aggregate over the calibration traces, written with what it was
// computed from, so that a shipped figure can be recomputed from its sources:
//  - kernel_floor_ns: the 5th percentile of the family's kernel durations, the fixed cost a
//    launch has on the device whatever its work (the latency floor).
//  - fraction_of_roof per (family, category): over the op rows whose whole device time the FLOP
//    counter covers, sum(roof time) / sum(device time - kernels * floor), where roof time is
//    max(FLOPs / compute peak, bytes / memory bandwidth) on the row's device. Rows whose device
//    time is all floor are left out (they say nothing about the roof).
//  - ratio per (from family, to family, category): on pairs of traces of the same workload (two
//    traces whose ops compare matches for at least half of each side's kernel time), over the
//    matched rows of the category, sum(to time - k * to floor) / sum(from time - k * from floor),
//    each term clipped at 0, k being the row's kernel count on `from` (the count a prediction
//    from `from` knows): how the time past the latency floors scales between the families. Both
//    directions are written.
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

struct CategoryEfficiency {
  double fraction_of_roof = 0;
  uint64_t rows = 0;      // op rows it was computed from
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
  uint32_t pairs = 0;              // trace pairs that contributed
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
  std::vector<CalibrationPair> pairs;       // the source pairs taken as one workload
  std::vector<FamilyCalibration> families;  // by family name
  std::vector<CategoryRatio> ratios;        // by (from, to, category)

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

// JSON `tensormorph.calibration/1` (docs/predict.md), and back. Parse errors name `path` and the
// field ("calibration.json: families[1].kernel_floor_ns: expected an integer").
std::string CalibrationJson(const Calibration& calibration);
StatusOr<Calibration> ParseCalibration(std::string_view text, const std::string& path);
StatusOr<Calibration> LoadCalibration(const std::string& path);

// The calibration shipped with tensormorph (src/analysis/predict/calibration.json: the shared
// H100 / MI300X pairs, reproduced by the command in docs/predict.md).
const Calibration& BuiltInCalibration();

}  // namespace tensormorph
