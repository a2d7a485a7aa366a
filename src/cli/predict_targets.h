// The options of the commands that predict (predict --device, ops --predict, report --predict):
// target device keys, a calibration file and device specs, resolved into a PredictQuery.
#pragma once

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/analysis/predict/calibration.h"
#include "tensormorph/analysis/predict/predict.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {

struct PredictTargetOptions {
  std::string targets;  // comma-separated database keys; "" = none given
  std::string calibration;
  std::vector<std::string> spec_files;
};

// What a PredictQuery points into: the device table (built-in entries with --device-spec applied)
// and the user's calibration, if any.
struct PredictTargetData {
  std::vector<DeviceSpec> devices;
  std::optional<Calibration> calibration;
};

// Adds `--calibration FILE` and `--device-spec FILE` (the option naming the targets is each
// command's own: predict --device, ops/report --predict).
void AddPredictFileOptions(CLI::App* command, PredictTargetOptions* options);

// ops and report: --calibration without --predict is a usage error (printed; kExitUsage), and so
// is --device-spec unless `device_spec_without_targets` (ops: the specs give its rows' roofs
// too); else kExitOk.
int CheckPredictFilesNeedTargets(const PredictTargetOptions& options, std::string_view command,
                                 bool device_spec_without_targets = false);

const DeviceSpec* FindDevice(const std::vector<DeviceSpec>& devices, std::string_view key);

// Loads the device specs and the calibration, and resolves options.targets into query->targets
// (an unknown key is a usage error naming `flag`); query->devices and query->calibration point
// into *data. Prints the error and returns its exit code, else kExitOk.
int ResolvePredictTargets(const PredictTargetOptions& options, std::string_view flag,
                          std::string_view command, PredictTargetData* data, PredictQuery* query);

}  // namespace tensormorph
