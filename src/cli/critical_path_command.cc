// `tensormorph critical-path RANKS...`: per step, the chain of work that bounded it across the
// ranks of one job, and its composition (analysis/job/critical_path.h).
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/critical_path_report.h"
#include "tensormorph/analysis/job/critical_path.h"

namespace tensormorph {
namespace {

struct CriticalPathCommandOptions {
  CommonOptions common;
  JobOptions job;
  std::optional<int64_t> step;
  bool every_piece = false;
  size_t top = 10;
};

}  // namespace

CommandRunner AddCriticalPathCommand(CLI::App* app) {
  auto options = std::make_shared<CriticalPathCommandOptions>();
  CLI::App* command = app->add_subcommand(
      "critical-path",
      "per step, the chain of work that bounded it across the ranks of a job (launches, stream "
      "order, synchronisation, collectives' last arrivals) and its composition: compute, "
      "communication transfer and wait, host, idle");
  AddCommonOptions(command, &options->common);
  AddJobOptions(command, &options->job);
  command->add_option("--step", options->step, "only ProfilerStep#N");
  command->add_flag("--path", options->every_piece, "table: print every piece of the path");
  command
      ->add_option("--top", options->top,
                   "table: the pieces with the most time per step, summed by rank, kind and "
                   "name")
      ->check(CLI::Range(size_t{0}, size_t{1} << 40))
      ->capture_default_str();
  return [options]() {
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    const JobLayout job = DescribeJob(TracesOf(Pointers(linked)), options->job.as_job);
    CriticalPathOptions analysis;
    analysis.align_clocks = !options->job.no_clock_align;
    analysis.step = options->step;
    const CriticalPathResult result = AnalyzeCriticalPath(Pointers(linked), job, analysis);
    for (const std::string& w : result.warnings) PrintWarning(w);
    CriticalPathRenderOptions render;
    render.format = FormatOf(options->common);
    render.top = options->top;
    render.every_piece = options->every_piece;
    RenderCriticalPath(std::cout, Pointers(traces), result, render);
    return kExitOk;
  };
}

}  // namespace tensormorph
