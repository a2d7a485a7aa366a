// `tensormorph baseline save TRACE... -o FILE`: the compact summary `tensormorph diff` compares
// against (analysis/profile, export/baseline, docs/baseline.md).
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/profile_input.h"
#include "tensormorph/analysis/profile/build.h"
#include "tensormorph/export/baseline/baseline_file.h"

namespace tensormorph {
namespace {

// Matches the --version text in main.cc.

struct BaselineOptions {
  CommonOptions common;
  std::string output;
};

}  // namespace

CommandRunner AddBaselineCommand(CLI::App* app) {
  auto options = std::make_shared<BaselineOptions>();
  CLI::App* command =
      app->add_subcommand("baseline", "performance baselines for `tensormorph diff`");
  command->require_subcommand(1);
  CLI::App* save = command->add_subcommand(
      "save", "summarise traces (kernels, ops, per-step times) into a baseline file");
  save->add_option("TRACE", options->common.inputs,
                   TraceArgumentHelp("trace files or folders; several = ranks of one job,"))
      ->required();
  save->add_option("-o,--output", options->output, "the baseline file to write")->required();
  AddInputOptions(save, &options->common);
  return [options]() {
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const Baseline baseline = BuildBaseline(
        Pointers(LinkTraces(traces, LinkOptionsOf(options->common))), kTensormorphVersion);
    // Written only once every input has been read: a failed run leaves an old baseline intact.
    if (Status s = WriteBaselineFile(options->output, baseline); !s.ok()) {
      // A bad -o value, like any other bad option value.
      return PrintError(kExitUsage, fmt::format("{}: {}", options->output, s.message()));
    }
    return kExitOk;
  };
}

}  // namespace tensormorph
