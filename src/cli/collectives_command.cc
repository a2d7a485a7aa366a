// `tensormorph collectives RANKS...`: each collective matched across the ranks of one job, with
// the ranks' clock offsets, skews, waits and bandwidths (analysis/job/collectives.h).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/collectives_report.h"
#include "tensormorph/analysis/job/collectives.h"

namespace tensormorph {
namespace {

struct CollectivesCommandOptions {
  CommonOptions common;
  JobOptions job;
  size_t limit = 20;
};

}  // namespace

CommandRunner AddCollectivesCommand(CLI::App* app) {
  auto options = std::make_shared<CollectivesCommandOptions>();
  CLI::App* command = app->add_subcommand(
      "collectives",
      "NCCL/RCCL collectives matched across the ranks of one job: clock offsets, skew, each "
      "rank's wait, transfer time, algorithm and bus bandwidth, and who made whom wait");
  AddCommonOptions(command, &options->common);
  AddJobOptions(command, &options->job);
  command->add_option("--limit", options->limit, "table: collectives listed")
      ->check(CLI::Range(size_t{0}, size_t{1} << 40))
      ->capture_default_str();
  return [options]() {
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    const JobLayout job = DescribeJob(TracesOf(Pointers(linked)), options->job.as_job);
    CollectiveOptions analysis;
    analysis.align_clocks = !options->job.no_clock_align;
    const CollectivesResult result = AnalyzeCollectives(Pointers(linked), job, analysis);
    for (const std::string& w : result.warnings) PrintWarning(w);
    RenderCollectives(std::cout, Pointers(traces), result, FormatOf(options->common),
                      options->limit);
    return kExitOk;
  };
}

}  // namespace tensormorph
