// `tensormorph roofline TRACE...`: the counter-based roofline per kernel (analysis/roofline.h).
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "analysis/roofline.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "devices/device_db.h"
#include "report/roofline_report.h"
#include "report/roofline_svg.h"

namespace tensormorph {
namespace {

struct RooflineOptions {
  CommonOptions common;
  size_t top = 0;
  std::vector<std::string> spec_files;
  std::string output;  // empty = stdout
};

// Called with the finished report, so the file is opened (and an existing one truncated) only
// once the inputs have been read and analysed: a run that fails earlier leaves it untouched.
int WriteOutput(const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::cout << text;
    return kExitOk;
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file << text;
  file.close();
  if (!file) {
    std::cerr << fmt::format("tensormorph: error: {}: cannot write the output file\n", path);
    return kExitUsage;  // a bad -o value, like any other bad option value
  }
  return kExitOk;
}

}  // namespace

CommandRunner AddRooflineCommand(CLI::App* app) {
  auto options = std::make_shared<RooflineOptions>();
  CLI::App* command = app->add_subcommand(
      "roofline", "per kernel: arithmetic intensity, achieved FLOP/s and the device's ceiling");
  AddCommonOptions(command, &options->common, {"svg"});
  command->add_option("--top", options->top,
                      "show only the N kernels with the most time (0 = all)");
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding or overriding device peaks (docs/devices.md)");
  command->add_option("-o,--output", options->output,
                      "write the report to FILE instead of stdout (required for svg)");
  return [options]() {
    const bool svg = options->common.format == "svg";
    // A chart on a terminal is noise: ask for the file before any work is done.
    if (svg && options->output.empty()) {
      std::cerr << "tensormorph: error: --format svg needs -o FILE\n";
      return kExitUsage;
    }
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
    const RooflineResult result = AnalyzeRoofline(inputs, query);
    if (svg) return WriteOutput(options->output, RenderRooflineSvg(result));
    if (options->output.empty()) {
      RenderRoofline(std::cout, inputs, result, FormatOf(options->common));
      return kExitOk;
    }
    std::ostringstream text;
    RenderRoofline(text, inputs, result, FormatOf(options->common));
    return WriteOutput(options->output, text.str());
  };
}

}  // namespace tensormorph
