// Matching the devices a trace reports against the device database.
#include <fmt/format.h>

#include "tensormorph/devices/device_db.h"

namespace tensormorph {
namespace {

// rocprof-compute's sysinfo names an Instinct GPU by its bare model, with a suffix for the
// silicon stepping or partition mode: "MI300X_A1", "MI200", "MI350". The model part is what the
// table calls "AMD Instinct <model>"; ambiguous models (MI200: MI210 or MI250 GCD) stay unmatched.
std::string InstinctName(const Device& device) {
  const std::string& name = device.name;
  if (device.backend != Backend::kRocm || !name.starts_with("MI") || name.size() < 4 ||
      name[2] < '0' || name[2] > '9') {
    return name;
  }
  const size_t end = name.find_first_of("_ ");
  return "AMD Instinct " + name.substr(0, end);
}

}  // namespace

DeviceQuery QueryForTraceDevice(const Device& device) {
  DeviceQuery query;
  query.name = InstinctName(device);
  // The gfx target when the trace names it (rocprof); else the CUDA compute capability, or
  // HIP's gfx major.minor ("9.4"), which MatchDevice reads as every gfx94x target.
  if (!device.arch.empty()) {
    query.architecture = device.arch;
  } else if ((device.backend == Backend::kCuda || device.backend == Backend::kRocm) &&
             device.compute_major > 0) {
    query.architecture = fmt::format("{}.{}", device.compute_major, device.compute_minor);
  }
  query.backend = device.backend;
  if (device.sm_count > 0) query.compute_units = device.sm_count;
  if (device.total_memory_bytes > 0) query.memory_bytes = device.total_memory_bytes;
  return query;
}

DeviceMatch MatchTraceDevice(const std::vector<DeviceSpec>& devices, const Device& device) {
  return MatchDevice(devices, QueryForTraceDevice(device));
}

}  // namespace tensormorph
