// The device-spec reader (--device-spec FILE and the built-in table src/devices/devices.json,
// devices/device_spec_file.h): whatever the bytes, in either mode, ApplySpecDocument returns the
// devices or a Status error naming the file, never a crash or a hang; every figure it accepts is a
// positive, finite number with a source.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "devices/device_spec_file.h"

namespace {

void Check(std::string_view text, tensormorph::SpecOrigin origin,
           const std::vector<tensormorph::DeviceSpec>& base) {
  auto devices = tensormorph::ApplySpecDocument(text, "fuzz.json", base, origin);
  if (!devices.ok()) {
    if (devices.status().message().rfind("fuzz.json", 0) != 0) std::abort();
    return;
  }
  for (const tensormorph::DeviceSpec& d : *devices) {
    if (d.key.empty()) std::abort();
    for (const auto& figure : d.metrics) {
      if (figure &&
          (!std::isfinite(figure->value) || figure->value <= 0 || figure->source.empty())) {
        std::abort();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  static const std::vector<tensormorph::DeviceSpec>& built_in = tensormorph::BuiltInDevices();
  Check(text, tensormorph::SpecOrigin::kUserFile, built_in);
  Check(text, tensormorph::SpecOrigin::kBuiltInTable, {});
  return 0;
}
