// `tensormorph predict TRACE --device KEY[,KEY...]`: the trace's ops on other devices
// (analysis/predict), and `tensormorph calibrate TRACES... -o FILE`: the figures it uses.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/predict_targets.h"
#include "report/predict_report.h"
#include "tensormorph/analysis/predict/predict.h"

namespace tensormorph {
namespace {

struct PredictOptions {
  CommonOptions common;
  PredictTargetOptions targets;  // --device, --calibration, --device-spec
  size_t top = 0;
  std::string measured;  // a trace of the workload on the target: evaluate against it
  std::string output;
};

struct CalibrateOptions {
  CommonOptions common;
  std::vector<std::string> spec_files;
  std::string output;
};

}  // namespace

CommandRunner AddPredictCommand(CLI::App* app) {
  auto options = std::make_shared<PredictOptions>();
  CLI::App* command = app->add_subcommand(
      "predict", "what other devices would have taken for the trace's ops, per op and category");
  AddCommonOptions(command, &options->common);
  command->get_option("TRACE")->expected(1)->description(
      TraceArgumentHelp("the trace file or folder to predict from,"));
  command->add_option("--device", options->targets.targets,
                      "the target devices, as device-database keys separated by commas "
                      "(tensormorph devices)");
  command->add_option("--measured", options->measured,
                      "a trace of the same workload on the target device: evaluate the "
                      "prediction against it (the device is the first target)");
  AddPredictFileOptions(command, &options->targets);
  command->add_option("--top", options->top, "show only the N rows with the most time (0 = all)");
  command->add_option("-o,--output", options->output, "write the report to FILE instead of stdout");
  return [options]() {
    PredictTargetData data;
    PredictQuery query;
    if (int rc = ResolvePredictTargets(options->targets, "--device", "tensormorph predict", &data,
                                       &query);
        rc != kExitOk) {
      return rc;
    }
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    if (traces.size() != 1) {
      return PrintError(kExitUsage, fmt::format("predict reads one trace, got {}", traces.size()),
                        "tensormorph predict");
    }
    if (!options->measured.empty()) {
      CommonOptions measured = options->common;
      measured.inputs = {options->measured};
      std::vector<Trace> loaded;
      if (int rc = LoadInputs(measured, &loaded); rc != kExitOk) return rc;
      traces.push_back(std::move(loaded[0]));
    }
    PrintWarnings(traces);
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    std::optional<PredictEvaluation> evaluation;
    PredictResult result;
    if (!options->measured.empty()) {
      StatusOr<MeasuredPrediction> measured =
          PredictAgainstMeasured(linked[0], linked[1], query, options->top);
      if (!measured.ok()) return PrintError(kExitUnreadable, measured.status().message());
      result = std::move(measured->result);
      evaluation = std::move(measured->evaluation);
      if (!evaluation->no_basis.empty()) {
        PrintWarning("not evaluated on " + options->measured + ": " + evaluation->no_basis);
      }
    } else if (query.targets.empty()) {
      return PrintError(kExitUsage, "give --device KEY[,KEY...] or --measured TRACE",
                        "tensormorph predict");
    } else {
      query.top = options->top;
      result = PredictTrace(linked[0], query);
    }
    std::ostringstream text;
    RenderPredict(options->output.empty() ? std::cout : text, traces[0], result,
                  evaluation ? &*evaluation : nullptr, FormatOf(options->common));
    return options->output.empty() ? kExitOk : WriteOutputFile(options->output, text.str());
  };
}

CommandRunner AddCalibrateCommand(CLI::App* app) {
  auto options = std::make_shared<CalibrateOptions>();
  CLI::App* command = app->add_subcommand(
      "calibrate",
      "measure the fixed costs per kernel, fractions of roof, category and kernel ratios and "
      "held-out intervals predict uses, on your own traces");
  // The input options every command shares; --format is the tables' and means nothing here,
  // whose output is always a tensormorph.calibration/1 file.
  AddCommonOptions(command, &options->common);
  command->remove_option(command->get_option("--format"));
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding or overriding device peaks (docs/devices.md)");
  command->add_option("-o,--output", options->output, "write the calibration to FILE")->required();
  return [options]() {
    std::vector<DeviceSpec> devices;
    if (int rc = LoadDevices(options->spec_files, &devices); rc != kExitOk) return rc;
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    StatusOr<Calibration> calibration = Calibrate(Pointers(linked), devices);
    if (!calibration.ok()) return PrintError(kExitUnreadable, calibration.status().message());
    return WriteOutputFile(options->output, CalibrationJson(*calibration));
  };
}

}  // namespace tensormorph
