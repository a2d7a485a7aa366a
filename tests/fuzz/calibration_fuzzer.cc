// The calibration reader (--calibration FILE, analysis/predict/calibration.h): whatever the bytes,
// ParseCalibration returns a calibration or a Status error, never a crash or a hang; a calibration
// it accepts is written back (CalibrationJson) to text it reads again as the same document.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "tensormorph/analysis/predict/calibration.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = tensormorph::ParseCalibration(text, "fuzz.json");
  if (!parsed.ok()) {
    if (parsed.status().message().empty()) std::abort();
    return 0;
  }
  const std::string written = tensormorph::CalibrationJson(*parsed);
  auto again = tensormorph::ParseCalibration(written, "fuzz.json");
  if (!again.ok() || tensormorph::CalibrationJson(*again) != written) std::abort();
  return 0;
}
