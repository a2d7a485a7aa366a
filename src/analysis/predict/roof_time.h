// The time a device's roof allows for a piece of work: shared by calibration (which measures how
// far real rows are from it) and prediction (which applies that distance to another device).
#pragma once

#include <optional>

#include "tensormorph/devices/device_db.h"
#include "tensormorph/model/precision.h"

namespace tensormorph {

struct RoofTime {
  double compute_ns = 0;  // FLOPs / the precision's peak (PeakMetricsFor, first the table has)
  double memory_ns = 0;   // bytes / memory bandwidth
  double ns() const { return compute_ns > memory_ns ? compute_ns : memory_ns; }
  bool compute_bound() const { return compute_ns >= memory_ns; }
};

// Figures are per device the runtime shows: a package's figures divided by its
// devices_per_package (one MI250X GCD). Absent when either peak is unknown or not positive (the
// compute peak is not needed for work without FLOPs).
std::optional<RoofTime> RoofTimeOn(const DeviceSpec& spec, Precision precision, double flops,
                                   double bytes);

// The peak RoofTimeOn divides by, for the baselines of an evaluation: the precision's compute
// peak, or the memory bandwidth; absent when unknown.
std::optional<double> ComputePeakOf(const DeviceSpec& spec, Precision precision);
std::optional<double> BandwidthOf(const DeviceSpec& spec);

}  // namespace tensormorph
