#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/predict_targets.h"
#include "report/ops_report.h"
#include "tensormorph/analysis/ops/ops.h"
#include "tensormorph/analysis/predict/op_predictions.h"

namespace tensormorph {
namespace {

struct OpsOptions {
  CommonOptions common;
  OpQuery query;
  PredictTargetOptions predict;  // --predict KEY[,KEY...]: the predicted columns
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
  command->add_option("--predict", options->predict.targets,
                      "add what each op would take on these devices (device-database keys "
                      "separated by commas; tensormorph predict has the models)");
  AddPredictFileOptions(command, &options->predict);
  return [options]() {
    OpQuery query = options->query;
    const bool predicting = !options->predict.targets.empty();
    if (predicting && (query.by_instance || query.by_stack)) {
      return PrintError(kExitUsage,
                        "--predict adds predictions to rows by op name (with --by-input too); "
                        "rows by instance or by module path are not predicted (for rows per "
                        "op and input shapes: tensormorph predict TRACE --device KEY)",
                        "tensormorph ops");
    }
    if (int rc = CheckPredictFilesNeedTargets(options->predict, "tensormorph ops",
                                              /*device_spec_without_targets=*/true);
        rc != kExitOk) {
      return rc;
    }
    // The device table (with --device-spec) serves the rows' roofs and the predictions.
    PredictTargetData predict_data;
    PredictQuery predict_query;
    if (int rc = ResolvePredictTargets(options->predict, "--predict", "tensormorph ops",
                                       &predict_data, &predict_query);
        rc != kExitOk) {
      return rc;
    }
    query.devices = &predict_data.devices;
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    const OpSummary summary = SummarizeOps(Pointers(linked), query);
    std::optional<OpPredictions> predictions;
    if (predicting) {
      predictions = PredictOps(summary, query, Pointers(linked), predict_query);
    }
    RenderOps(std::cout, Pointers(traces), query, summary, FormatOf(options->common),
              predictions ? &*predictions : nullptr);
    return kExitOk;
  };
}

}  // namespace tensormorph
