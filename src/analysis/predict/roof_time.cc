#include "analysis/predict/roof_time.h"

#include "analysis/roofline_ops.h"

namespace tensormorph {
namespace {

std::optional<double> PerDevice(const DeviceSpec& spec, Metric metric) {
  const std::optional<Figure>& figure = spec.Get(metric);
  if (!figure || !(figure->value > 0)) return std::nullopt;
  return figure->value / (spec.devices_per_package > 0 ? spec.devices_per_package : 1);
}

}  // namespace

std::optional<double> ComputePeakOf(const DeviceSpec& spec, Precision precision) {
  for (Metric metric : PeakMetricsFor(precision)) {
    if (std::optional<double> peak = PerDevice(spec, metric)) return peak;
  }
  return std::nullopt;
}

std::optional<double> BandwidthOf(const DeviceSpec& spec) {
  return PerDevice(spec, Metric::kMemoryBandwidthBytesPerS);
}

std::optional<RoofTime> RoofTimeOn(const DeviceSpec& spec, Precision precision, double flops,
                                   double bytes) {
  const std::optional<double> bandwidth = BandwidthOf(spec);
  if (!bandwidth) return std::nullopt;
  // Work without FLOPs (a copy, an integer op) needs no compute peak.
  if (flops == 0) return RoofTime{0, bytes / *bandwidth * 1e9};
  const std::optional<double> peak = ComputePeakOf(spec, precision);
  if (!peak) return std::nullopt;
  return RoofTime{flops / *peak * 1e9, bytes / *bandwidth * 1e9};
}

}  // namespace tensormorph
