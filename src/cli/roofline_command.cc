// `tensormorph roofline TRACE...`: the counter-based roofline per kernel (analysis/roofline.h).
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "analysis/roofline.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "devices/device_db.h"
#include "report/roofline_report.h"

namespace tensormorph {
namespace {

struct RooflineOptions {
  CommonOptions common;
  size_t top = 0;
  std::vector<std::string> spec_files;
};

}  // namespace

CommandRunner AddRooflineCommand(CLI::App* app) {
  auto options = std::make_shared<RooflineOptions>();
  CLI::App* command = app->add_subcommand(
      "roofline", "per kernel: arithmetic intensity, achieved FLOP/s and the device's ceiling");
  AddCommonOptions(command, &options->common);
  command->add_option("--top", options->top,
                      "show only the N kernels with the most time (0 = all)");
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding or overriding device peaks (docs/devices.md)");
  return [options]() {
    // Spec files first: a broken one is reported before any trace is read.
    std::vector<DeviceSpec> devices = BuiltInDevices();
    for (const std::string& path : options->spec_files) {
      StatusOr<std::vector<DeviceSpec>> loaded = LoadDeviceSpecs(path, std::move(devices));
      if (!loaded.ok()) {
        std::cerr << fmt::format("tensormorph: error: {}\n", loaded.status().message());
        return kExitUnreadable;
      }
      devices = std::move(loaded).value();
    }
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    RooflineQuery query;
    query.top = options->top;
    query.devices = &devices;
    std::vector<const Trace*> inputs = Pointers(traces);
    RenderRoofline(std::cout, inputs, AnalyzeRoofline(inputs, query), FormatOf(options->common));
    return kExitOk;
  };
}

}  // namespace tensormorph
