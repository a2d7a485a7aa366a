// `tensormorph diff BASE NEW`: two profiles (traces or saved baselines) compared per kernel and
// per op, with a verdict and an exit code a CI job can gate on (analysis/diff, docs/diff.md).
#include <fmt/format.h>

#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/profile_input.h"
#include "report/diff_report.h"
#include "tensormorph/analysis/diff/diff.h"

namespace tensormorph {
namespace {

struct DiffCommandOptions {
  CommonOptions common;  // inputs unused: BASE and NEW are read one by one
  std::string base;
  std::string next;
  DiffOptions diff;  // the resolutions are set from the two profiles once read
  bool fail_on_regression = false;
};

}  // namespace

CommandRunner AddDiffCommand(CLI::App* app) {
  auto options = std::make_shared<DiffCommandOptions>();
  CLI::App* command = app->add_subcommand(
      "diff", "compare two profiles (traces or baselines) per kernel and per op; gate on it");
  command->add_option("BASE", options->base, "the reference: a trace or a saved baseline")
      ->required();
  command->add_option("NEW", options->next, "the profile to judge: a trace or a saved baseline")
      ->required();
  command
      ->add_option("--threshold", options->diff.threshold_percent,
                   "a row changed only when |delta %| exceeds this")
      ->check(CLI::Range(0.0, 1e9))
      ->capture_default_str();
  command
      ->add_option("--alpha", options->diff.alpha,
                   "significance level of the Mann-Whitney test on per-step times")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  command->add_flag("--fail-on-regression", options->fail_on_regression,
                    "exit with 1 when any row regressed");
  command->add_option("--top", options->diff.top,
                      "show only the N rows with the largest change (0 = all)");
  command
      ->add_option_function<std::string>(
          "--kind",
          [options](const std::string& kind) {
            options->diff.kernels = kind != "op";
            options->diff.ops = kind != "kernel";
          },
          "compare kernels, ops or both")
      ->check(CLI::IsMember({"kernel", "op", "all"}))
      ->default_str("all");
  command->add_option("--format", options->common.format, "output format")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  AddInputOptions(command, &options->common);
  return [options]() {
    Baseline base, next;
    DiffSource base_source, next_source;
    base_source.path = options->base;
    next_source.path = options->next;
    if (int rc = LoadProfile(options->common, options->base, &base, &base_source.is_baseline);
        rc != kExitOk) {
      return rc;
    }
    if (int rc = LoadProfile(options->common, options->next, &next, &next_source.is_baseline);
        rc != kExitOk) {
      return rc;
    }
    DiffOptions diff = options->diff;
    diff.base_resolution_ns = base.timestamp_resolution_ns;
    diff.new_resolution_ns = next.timestamp_resolution_ns;
    const DiffResult result = DiffProfiles(base, next, diff);
    RenderDiff(std::cout, base_source, next_source, diff, result, FormatOf(options->common));
    return options->fail_on_regression && result.regressed ? kExitGateFailed : kExitOk;
  };
}

}  // namespace tensormorph
