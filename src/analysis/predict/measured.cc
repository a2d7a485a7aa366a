// PredictAgainstMeasured (predict.h): `predict A --measured B` for the command line and the
// Python package alike.
#include <fmt/format.h>

#include <algorithm>

#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/predict/predict.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {
namespace {

const DeviceSpec* DeviceByKey(const std::vector<DeviceSpec>& devices, const std::string& key) {
  if (key.empty()) return nullptr;
  const auto found = std::find_if(devices.begin(), devices.end(),
                                  [&](const DeviceSpec& d) { return d.key == key; });
  return found == devices.end() ? nullptr : &*found;
}

}  // namespace

StatusOr<MeasuredPrediction> PredictAgainstMeasured(const LinkedTrace& source,
                                                    const LinkedTrace& measured, PredictQuery query,
                                                    size_t top) {
  const std::vector<DeviceSpec>& devices =
      query.devices != nullptr ? *query.devices : BuiltInDevices();
  const Trace& measured_trace = measured.trace();
  const uint32_t busiest = BusiestDevice(measured_trace);
  if (busiest == kNoDevice) {
    return UnreadableInput(measured_trace.path + ": --measured: no kernels on a device");
  }
  const Device& device = measured_trace.devices[busiest];
  const DeviceMatch match = MatchTraceDevice(devices, device);
  if (!match.matched()) {
    return UnreadableInput(
        fmt::format("{}: --measured: device \"{}\" is not in the device database ({}); add it with "
                    "--device-spec",
                    measured_trace.path, device.name, match.reason));
  }
  // The measured device is the first target, once.
  std::erase(query.targets, match.spec);
  query.targets.insert(query.targets.begin(), match.spec);

  CompareQuery compare;
  compare.devices = &devices;
  compare.side_headers = false;
  const CompareResult pair = CompareTraces({&source, &measured}, compare);
  MeasuredPrediction out;
  out.result = PredictRows(pair, 0, source, query);
  const DeviceSpec* source_spec = DeviceByKey(devices, out.result.source_key);
  if (source_spec == nullptr) {
    return UnreadableInput(fmt::format(
        "{}: --measured: the trace's device {} is not in the device database ({}); add it with "
        "--device-spec",
        source.trace().path, out.result.source_label, out.result.source_match));
  }
  out.evaluation =
      EvaluatePrediction(pair, out.result, *source_spec, *query.targets[0], measured_trace.path);
  if (!pair.warnings.empty()) {
    out.evaluation.no_basis = pair.warnings.front();
  } else if (out.evaluation.overall.rows == 0) {
    out.evaluation.no_basis =
        "no row of the trace matched one of the measured trace (same op, shapes and call count) "
        "with a prediction";
  }
  if (top > 0 && out.result.rows.size() > top) {
    out.result.rows.resize(top);
    out.evaluation.target_ns.resize(top);
    out.evaluation.peak_ratio_ns.resize(top);
  }
  return out;
}

}  // namespace tensormorph
