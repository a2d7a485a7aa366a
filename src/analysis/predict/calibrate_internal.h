// Calibrate's parts (calibration.h) shared between its files: the calibration itself
// (calibrate.cc) and its held-out intervals (held_out_intervals.cc), which calibrate again
// without each workload.
#pragma once

#include <vector>

#include "tensormorph/analysis/predict/calibration.h"

namespace tensormorph {

// Calibrate, with the held-out intervals or without them (the calibrations the intervals
// are measured with).
StatusOr<Calibration> CalibrateOn(const std::vector<const LinkedTrace*>& traces,
                                  const std::vector<DeviceSpec>& devices, bool intervals);

// Leave one workload out (the sources joined by `calibration`'s pairs): calibrate without it,
// predict each of its pairs both ways with that, and keep the 10th and 90th percentiles of
// measured / predicted per category and size class, and per size class over all categories,
// where kMinIntervalRows rows or more. None with fewer than two workloads.
StatusOr<std::vector<PredictionInterval>> HeldOutIntervals(
    const std::vector<const LinkedTrace*>& traces, const std::vector<DeviceSpec>& devices,
    const Calibration& calibration);

}  // namespace tensormorph
