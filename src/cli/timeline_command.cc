#include <cmath>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/timeline_report.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/link/steps.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {
namespace {

// The defaults are the library's (TimelineOptions), as Python's are (option_defaults()).
struct TimelineCommandOptions {
  CommonOptions common;
  double gap_us = TimelineOptions{}.min_gap_ns / 1000.0;
  double straggler_threshold_percent = TimelineOptions{}.straggler_threshold_percent;
  bool gaps = false;
  int64_t queue_limit = TimelineOptions{}.queue_limit;
  std::vector<std::string> spec_files;
  bool as_job = false;
};

}  // namespace

CommandRunner AddTimelineCommand(CLI::App* app) {
  auto options = std::make_shared<TimelineCommandOptions>();
  CLI::App* command = app->add_subcommand(
      "timeline",
      "per device: busy time, utilization, streams, concurrency, idle gaps and their causes, "
      "launch latency, steps, ranks");
  AddCommonOptions(command, &options->common);
  command->add_option("--gap", options->gap_us, "report idle gaps longer than this many µs")
      ->check(CLI::Range(0.0, 1e12))
      ->capture_default_str();
  command
      ->add_option("--straggler-threshold", options->straggler_threshold_percent,
                   "a rank of a job is a straggler when the others' wait for it in collectives "
                   "exceeds this many percent of the median step (else of the median device span)")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  command->add_flag("--gaps", options->gaps,
                    "table: list every gap, not only the 10 longest; csv: one row per gap");
  command
      ->add_option("--queue-limit", options->queue_limit,
                   "launches a stream holds before the launch call blocks (CUDA's default "
                   "CUDA_MAX_LAUNCH_QUEUE_PER_STREAM); the time at it is reported per stream")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40))
      ->capture_default_str();
  AddAsJobOption(command, &options->as_job);
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding or overriding device figures for the copies' link peaks "
                      "(docs/devices.md)");
  return [options]() {
    std::vector<DeviceSpec> devices;
    if (int rc = LoadDevices(options->spec_files, &devices); rc != kExitOk) return rc;
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    TimelineOptions analysis;
    analysis.min_gap_ns = std::llround(options->gap_us * 1000.0);
    analysis.straggler_threshold_percent = options->straggler_threshold_percent;
    analysis.concurrent = options->common.threads != 1;
    analysis.queue_limit = options->queue_limit;
    analysis.devices = &devices;
    analysis.as_job = options->as_job;
    const TimelineResult result = AnalyzeTimeline(Pointers(linked), analysis);
    TimelineRenderOptions render;
    render.format = FormatOf(options->common);
    render.gaps_only = options->gaps;
    RenderTimeline(std::cout, Pointers(traces), analysis, result, render);
    return kExitOk;
  };
}

}  // namespace tensormorph
