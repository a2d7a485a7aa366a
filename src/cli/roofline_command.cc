// `tensormorph roofline TRACE...`: the counter-based roofline per kernel (analysis/roofline.h).
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/roofline_report.h"
#include "report/roofline_svg.h"
#include "tensormorph/analysis/roofline.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {
namespace {

struct RooflineOptions {
  CommonOptions common;
  RooflineQuery query;  // .devices is set once the spec files are read
  std::vector<std::string> spec_files;
  std::string output;  // empty = stdout
};

}  // namespace

CommandRunner AddRooflineCommand(CLI::App* app) {
  auto options = std::make_shared<RooflineOptions>();
  CLI::App* command = app->add_subcommand(
      "roofline", "per kernel: arithmetic intensity, achieved FLOP/s and the device's ceiling");
  AddCommonOptions(command, &options->common, {"svg"});
  command->add_option("--top", options->query.top,
                      "show only the N kernels with the most time (0 = all)");
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding or overriding device peaks (docs/devices.md)");
  command->add_option("-o,--output", options->output,
                      "write the report to FILE instead of stdout (required for svg)");
  return [options]() {
    const bool svg = options->common.format == "svg";
    // A chart on a terminal is noise: ask for the file before any work is done.
    if (svg && options->output.empty()) {
      return PrintError(kExitUsage, "--format svg needs -o FILE");
    }
    // Spec files first: a broken one is reported before any trace is read.
    std::vector<DeviceSpec> devices;
    if (int rc = LoadDevices(options->spec_files, &devices); rc != kExitOk) return rc;
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    RooflineQuery query = options->query;
    query.devices = &devices;
    const std::vector<const Trace*> inputs = Pointers(traces);
    const RooflineResult result =
        AnalyzeRoofline(Pointers(LinkTraces(traces, LinkOptionsOf(options->common))), query);
    if (svg) return WriteOutputFile(options->output, RenderRooflineSvg(result));
    if (options->output.empty()) {
      RenderRoofline(std::cout, inputs, result, FormatOf(options->common));
      return kExitOk;
    }
    std::ostringstream text;
    RenderRoofline(text, inputs, result, FormatOf(options->common));
    return WriteOutputFile(options->output, text.str());
  };
}

}  // namespace tensormorph
