#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/ops_report.h"
#include "tensormorph/analysis/ops/ops.h"

namespace tensormorph {
namespace {

struct OpsOptions {
  CommonOptions common;
  OpQuery query;
};

}  // namespace

CommandRunner AddOpsCommand(CLI::App* app) {
  auto options = std::make_shared<OpsOptions>();
  CLI::App* command = app->add_subcommand(
      "ops",
      "per framework op: the backend and device that served it, host and device time, kernels");
  AddCommonOptions(command, &options->common);
  OpQuery& query = options->query;
  command->add_option("--top", query.top, "show only the N ops with the most time (0 = all)");
  command->add_option("--top-kernels", query.top_kernels, "kernels listed per op (JSON)")
      ->capture_default_str();
  AddBackendOption(command, &query.backend,
                   "only kernels of this backend (cpu: ops with no device work)");
  command->add_flag("--by-instance", query.by_instance, "one row per op call");
  command->add_flag("--by-stack", query.by_stack,
                    "one row per module path and op (nn.Module frames, record_function ranges)");
  command->add_flag("--by-input", query.by_input,
                    "keep inputs (ranks) apart instead of combining them");
  return [options]() {
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const OpQuery& query = options->query;
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    RenderOps(std::cout, Pointers(traces), query, SummarizeOps(Pointers(linked), query),
              FormatOf(options->common));
    return kExitOk;
  };
}

}  // namespace tensormorph
