#include <iostream>
#include <memory>

#include "analysis/kernels.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "report/kernels_report.h"

namespace tensormorph {
namespace {

struct KernelsOptions {
  CommonOptions common;
  size_t top = 0;
  std::string backend;
  std::string device;
  std::string group_by = "name";
  bool by_input = false;
  std::string filter;
};

}  // namespace

CommandRunner AddKernelsCommand(CLI::App* app) {
  auto options = std::make_shared<KernelsOptions>();
  options->common.host_rows = false;  // a kernel summary needs device rows only
  CLI::App* command = app->add_subcommand(
      "kernels", "per kernel: count, total, mean, median, min, max, std dev, % of kernel time");
  AddCommonOptions(command, &options->common);
  command->add_option("--top", options->top,
                      "show only the N kernels with the most time (0 = all)");
  command->add_option("--backend", options->backend, "only kernels of this backend")
      ->check(CLI::IsMember({"cpu", "cuda", "rocm", "metal", "webgpu", "other"}));
  command->add_option("--device", options->device,
                      "only kernels on devices whose ordinal, trace id or label matches");
  command->add_option("--group-by", options->group_by, "one row per kernel name, device or stream")
      ->check(CLI::IsMember({"name", "device", "stream"}))
      ->capture_default_str();
  command->add_option("--filter", options->filter,
                      "only kernels whose name contains TEXT (demangled or as the trace wrote it)");
  command->add_flag("--by-input", options->by_input,
                    "keep inputs (ranks) apart instead of combining them");
  return [options]() {
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    KernelQuery query;
    query.top = options->top;
    query.device = options->device;
    query.by_input = options->by_input;
    query.name_filter = options->filter;
    query.backend = ParseBackend(options->backend);
    query.group_by = options->group_by == "device"   ? KernelGrouping::kDevice
                     : options->group_by == "stream" ? KernelGrouping::kStream
                                                     : KernelGrouping::kName;
    std::vector<const Trace*> inputs = Pointers(traces);
    KernelSummary summary = SummarizeKernels(inputs, query);
    if (summary.total_overflows) {
      std::cerr << "tensormorph: warning: summed kernel time exceeds the int64 nanosecond range "
                   "(292 years): the trace's durations are corrupt; totals are capped\n";
    }
    RenderKernels(std::cout, inputs, query, summary, FormatOf(options->common));
    return kExitOk;
  };
}

}  // namespace tensormorph
