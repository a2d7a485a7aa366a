#include "cli/predict_targets.h"

#include <fmt/format.h>

#include "cli/common.h"

namespace tensormorph {

void AddPredictFileOptions(CLI::App* command, PredictTargetOptions* options) {
  command->add_option("--calibration", options->calibration,
                      "a calibration written by tensormorph calibrate (default: the built-in one)");
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding or overriding device peaks (docs/devices.md)");
}

int CheckPredictFilesNeedTargets(const PredictTargetOptions& options, std::string_view command,
                                 bool device_spec_without_targets) {
  const bool spec_needs_targets = !options.spec_files.empty() && !device_spec_without_targets;
  if (!options.targets.empty() || (options.calibration.empty() && !spec_needs_targets)) {
    return kExitOk;
  }
  return PrintError(kExitUsage,
                    device_spec_without_targets ? "--calibration is for --predict KEY"
                                                : "--calibration and --device-spec are for "
                                                  "--predict KEY",
                    command);
}

const DeviceSpec* FindDevice(const std::vector<DeviceSpec>& devices, std::string_view key) {
  for (const DeviceSpec& d : devices) {
    if (!key.empty() && d.key == key) return &d;
  }
  return nullptr;
}

int ResolvePredictTargets(const PredictTargetOptions& options, std::string_view flag,
                          std::string_view command, PredictTargetData* data, PredictQuery* query) {
  if (int rc = LoadDevices(options.spec_files, &data->devices); rc != kExitOk) return rc;
  for (const std::string& key :
       options.targets.empty() ? std::vector<std::string>{} : SplitLabels(options.targets)) {
    const DeviceSpec* found = FindDevice(data->devices, key);
    if (found == nullptr) {
      return PrintError(kExitUsage,
                        fmt::format("{}: no device \"{}\" in the device database (the keys: "
                                    "tensormorph devices; more with --device-spec)",
                                    flag, key),
                        command);
    }
    query->targets.push_back(found);
  }
  if (!options.calibration.empty()) {
    StatusOr<Calibration> loaded = LoadCalibration(options.calibration);
    if (!loaded.ok()) return PrintError(options.calibration, loaded.status());
    data->calibration = std::move(loaded).value();
  }
  query->devices = &data->devices;
  query->calibration = data->calibration ? &*data->calibration : nullptr;
  return kExitOk;
}

}  // namespace tensormorph
