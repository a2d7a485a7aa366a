#include <iostream>
#include <memory>

#include "analysis/ops/ops.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "report/ops_report.h"

namespace tensormorph {
namespace {

struct OpsOptions {
  CommonOptions common;
  size_t top = 0;
  size_t top_kernels = 3;
  std::string backend;
  bool by_instance = false;
  bool by_stack = false;
  bool by_input = false;
};

}  // namespace

CommandRunner AddOpsCommand(CLI::App* app) {
  auto options = std::make_shared<OpsOptions>();
  CLI::App* command = app->add_subcommand(
      "ops",
      "per framework op: the backend and device that served it, host and device time, kernels");
  AddCommonOptions(command, &options->common);
  command->add_option("--top", options->top, "show only the N ops with the most time (0 = all)");
  command->add_option("--top-kernels", options->top_kernels, "kernels listed per op (JSON)")
      ->capture_default_str();
  command
      ->add_option("--backend", options->backend,
                   "only kernels of this backend (cpu: ops with no device work)")
      ->check(CLI::IsMember({"cpu", "cuda", "rocm", "metal", "webgpu", "other"}));
  command->add_flag("--by-instance", options->by_instance, "one row per op call");
  command->add_flag("--by-stack", options->by_stack,
                    "one row per module path and op (nn.Module frames, record_function ranges)");
  command->add_flag("--by-input", options->by_input,
                    "keep inputs (ranks) apart instead of combining them");
  return [options]() {
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    OpQuery query;
    query.top = options->top;
    query.top_kernels = options->top_kernels;
    query.backend = ParseBackend(options->backend);
    query.by_instance = options->by_instance;
    query.by_stack = options->by_stack;
    query.by_input = options->by_input;
    std::vector<const Trace*> inputs = Pointers(traces);
    RenderOps(std::cout, inputs, query, SummarizeOps(inputs, query), FormatOf(options->common));
    return kExitOk;
  };
}

}  // namespace tensormorph
