#include <iostream>
#include <map>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/kernels_report.h"
#include "tensormorph/analysis/job/job.h"
#include "tensormorph/analysis/kernels.h"

namespace tensormorph {
namespace {

struct KernelsOptions {
  CommonOptions common;
  KernelQuery query;
  bool as_job = false;
};

}  // namespace

CommandRunner AddKernelsCommand(CLI::App* app) {
  auto options = std::make_shared<KernelsOptions>();
  options->common.host_rows = false;  // a kernel summary needs device rows only
  CLI::App* command = app->add_subcommand(
      "kernels", "per kernel: count, total, mean, median, min, max, std dev, % of kernel time");
  AddCommonOptions(command, &options->common);
  KernelQuery& query = options->query;
  command->add_option("--top", query.top, "show only the N kernels with the most time (0 = all)");
  AddBackendOption(command, &query.backend, "only kernels of this backend");
  command->add_option("--device", query.device,
                      "only kernels on devices whose ordinal, trace id or label matches");
  command->add_option("--group-by", query.group_by, "one row per kernel name, device or stream")
      ->transform(CLI::CheckedTransformer(
          std::map<std::string, KernelGrouping>{{"name", KernelGrouping::kName},
                                                {"device", KernelGrouping::kDevice},
                                                {"stream", KernelGrouping::kStream}}))
      ->default_str("name");
  command->add_option("--filter", query.name_filter,
                      "only kernels whose name contains TEXT (demangled or as the trace wrote it)");
  command->add_flag("--by-input", query.by_input,
                    "keep inputs (ranks) apart instead of combining them (the default for inputs "
                    "that are not one job)");
  AddAsJobOption(command, &options->as_job);
  return [options]() {
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    KernelQuery query = options->query;
    const std::vector<const Trace*> inputs = Pointers(traces);
    // Inputs that are not one job's ranks (timeline's judgement) have no common kernel table.
    if (inputs.size() > 1 && !query.by_input) {
      const JobLayout job = DescribeJob(inputs, options->as_job);
      if (!job.is_job) {
        query.by_input = true;
        PrintWarning(job.verdict +
                     "; kernels keeps their rows apart, each input's percentages "
                     "of its own kernel time");
      }
    }
    KernelSummary summary =
        SummarizeKernels(Pointers(LinkTraces(traces, LinkOptionsOf(options->common))), query);
    if (summary.total_overflows) {
      PrintWarning(
          "summed kernel time exceeds the int64 nanosecond range (292 years): the trace's "
          "durations are corrupt; totals are capped");
    }
    RenderKernels(std::cout, inputs, query, summary, FormatOf(options->common));
    return kExitOk;
  };
}

}  // namespace tensormorph
