// Matching the devices a trace reports against the device database.
#include <fmt/format.h>

#include "devices/device_db.h"

namespace tensormorph {

DeviceQuery QueryForTraceDevice(const Device& device) {
  DeviceQuery query;
  query.name = device.name;
  // Kineto and nsys report CUDA compute capabilities; ROCm's gfx major.minor is not an
  // architecture name the table knows, so it is left out rather than misread.
  if (device.backend == Backend::kCuda && device.compute_major > 0) {
    query.architecture = fmt::format("{}.{}", device.compute_major, device.compute_minor);
  }
  query.backend = device.backend;
  if (device.sm_count > 0) query.compute_units = device.sm_count;
  if (device.total_memory_bytes > 0) query.memory_bytes = device.total_memory_bytes;
  return query;
}

DeviceMatch MatchTraceDevice(const std::vector<DeviceSpec>& devices, const Device& device) {
  if (device.name.empty()) {
    DeviceMatch match;
    match.reason = "the trace does not name the device";
    return match;
  }
  return MatchDevice(devices, QueryForTraceDevice(device));
}

}  // namespace tensormorph
