// `tensormorph compare A B [C ...]`: profiles of one workload side by side (analysis/compare).
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/compare_report.h"
#include "tensormorph/analysis/compare/compare.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {
namespace {

struct CompareOptions {
  CommonOptions common;
  std::string by = "shape";
  std::string labels;  // comma-separated (SplitLabels)
  size_t top = 0;
  std::vector<std::string> spec_files;
  std::string output;
};

}  // namespace

CommandRunner AddCompareCommand(CLI::App* app) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app->add_subcommand(
      "compare",
      "profiles of the same workload on different devices, backends or software, op by op");
  AddCommonOptions(command, &options->common);
  command
      ->add_option("--by", options->by,
                   "rows per op, shape (op, input dims and dtypes), stack (module path and op) "
                   "or category")
      ->check(CLI::IsMember({"op", "shape", "stack", "category"}))
      ->capture_default_str();
  command->add_option("--label", options->labels,
                      "a name for each side, in the order of the traces (default: its device)");
  command->add_option("--top", options->top, "show only the N rows with the most time (0 = all)");
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding or overriding device peaks (docs/devices.md)");
  command->add_option("-o,--output", options->output, "write the report to FILE instead of stdout");
  return [options]() {
    std::vector<DeviceSpec> devices;
    if (int rc = LoadDevices(options->spec_files, &devices); rc != kExitOk) return rc;
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    const std::vector<std::string> labels =
        options->labels.empty() ? std::vector<std::string>() : SplitLabels(options->labels);
    if (int rc = CheckCompareSides(traces.size(), labels.size(), "compare"); rc != kExitOk) {
      return rc;
    }
    PrintWarnings(traces);
    CompareQuery query;
    query.by = *ParseCompareBy(options->by);
    query.labels = labels;
    query.top = options->top;
    query.devices = &devices;
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    const CompareResult result = CompareTraces(Pointers(linked), query);
    for (const std::string& warning : result.warnings) PrintWarning(warning);
    std::ostringstream text;
    RenderCompare(options->output.empty() ? std::cout : text, Pointers(traces), result,
                  FormatOf(options->common));
    return options->output.empty() ? kExitOk : WriteOutputFile(options->output, text.str());
  };
}

}  // namespace tensormorph
