// `tensormorph report TRACE... -o report.html [--baseline BASE]`: one self-contained HTML file
// with the summary, Compute panel, kernels, timeline, roofline, occupancy and (with a baseline)
// the diff. Every section comes from the same analyses as the other commands (src/report/html).
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>

#include "analysis/diff/diff.h"
#include "analysis/kernels.h"
#include "analysis/occupancy/kernel_occupancy.h"
#include "analysis/ops/ops.h"
#include "analysis/roofline.h"
#include "analysis/steps/steps.h"
#include "analysis/timeline/timeline.h"
#include "baseline/baseline_file.h"
#include "baseline/build.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "devices/device_db.h"
#include "report/html/html_page.h"
#include "report/html/report_model.h"

namespace tensormorph {
namespace {

constexpr const char* kCreatedBy = "tensormorph 0.1.0";

struct ReportOptions {
  CommonOptions common;
  std::string output;
  std::string baseline;
  double gap_us = 100;
  double threshold = 5;
  size_t max_boxes = 100'000;
};

struct LinkedInput {
  TraceLinks links;
  std::vector<Step> steps;
  std::vector<int32_t> step_of_kernels, step_of_transfers;
};

// The baseline as a saved file, or a trace summarised into one (as `tensormorph diff` does).
int LoadBase(const ReportOptions& options, Baseline* base, bool* is_baseline) {
  StatusOr<std::optional<Baseline>> saved = ReadBaselineFile(options.baseline);
  if (!saved.ok()) {
    std::cerr << fmt::format("tensormorph: error: {}: {}\n", options.baseline,
                             saved.status().message());
    return kExitUnreadable;
  }
  if (saved->has_value()) {
    *base = std::move(**saved);
    *is_baseline = true;
    return kExitOk;
  }
  CommonOptions load = options.common;
  load.inputs = {options.baseline};
  std::vector<Trace> traces;
  if (int rc = LoadInputs(load, &traces); rc != kExitOk) return rc;
  PrintWarnings(traces);
  *base = BuildBaseline(Pointers(traces), kCreatedBy);
  return kExitOk;
}

}  // namespace

CommandRunner AddReportCommand(CLI::App* app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app->add_subcommand(
      "report",
      "one self-contained HTML file: summary, ops, kernels, timeline, roofline, "
      "occupancy, and the diff against --baseline");
  AddCommonOptions(command, &options->common);
  command->add_option("-o,--output", options->output, "the HTML file to write")->required();
  command->add_option("--baseline", options->baseline,
                      "a trace or a saved baseline to compare against (adds the diff view)");
  command->add_option("--gap", options->gap_us, "mark idle gaps longer than this many µs")
      ->check(CLI::Range(0.0, 1e12))
      ->capture_default_str();
  command->add_option("--threshold", options->threshold, "diff: percent change that counts")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  command
      ->add_option("--max-boxes", options->max_boxes,
                   "raw kernel boxes embedded for the timeline, over all lanes (beyond them the "
                   "timeline shows precomputed buckets)")
      ->capture_default_str();
  return [options]() {
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    std::optional<ReportDiff> diff;
    if (!options->baseline.empty()) {
      Baseline base;
      diff.emplace();
      diff->base_path = options->baseline;
      if (int rc = LoadBase(*options, &base, &diff->base_is_baseline); rc != kExitOk) return rc;
      diff->options.threshold_percent = options->threshold;
      diff->result = DiffProfiles(base, BuildBaseline(Pointers(traces), kCreatedBy), diff->options);
    }
    std::vector<LinkedInput> linked(traces.size());
    std::vector<TimelineInput> timeline_inputs;
    ReportData data;
    data.traces = Pointers(traces);
    for (size_t i = 0; i < traces.size(); ++i) {
      LinkedInput& l = linked[i];
      l.links = LinkTrace(traces[i]);
      l.steps = FindSteps(traces[i]);
      l.step_of_kernels = StepOfKernels(traces[i], l.links, l.steps);
      l.step_of_transfers = StepOfTransfers(traces[i], l.links, l.steps);
      timeline_inputs.push_back(
          {&traces[i], &l.links, &l.steps, &l.step_of_kernels, &l.step_of_transfers});
      data.links.push_back(&l.links);
    }
    data.timeline_options.min_gap_ns = std::llround(options->gap_us * 1000.0);
    const TimelineResult timeline = AnalyzeTimeline(timeline_inputs, data.timeline_options);
    const KernelSummary kernels = SummarizeKernels(data.traces, KernelQuery{});
    const OpSummary ops = SummarizeOps(data.traces, OpQuery{});
    const KernelOccupancySummary occupancy =
        SummarizeKernelOccupancy(data.traces, KernelOccupancyQuery{});
    const std::vector<DeviceSpec> devices = BuiltInDevices();
    RooflineQuery roofline_query;
    roofline_query.devices = &devices;
    const RooflineResult roofline = AnalyzeRoofline(data.traces, roofline_query);
    data.timeline = &timeline;
    data.kernels = &kernels;
    data.ops = &ops;
    data.occupancy = &occupancy;
    data.roofline = &roofline;
    data.diff = diff ? &*diff : nullptr;
    LaneOptions lanes;
    lanes.max_raw_boxes = options->max_boxes;
    std::string title = "tensormorph report";
    if (!traces.empty()) title += ": " + traces.front().path;
    if (traces.size() > 1) title += fmt::format(" (+{} more)", traces.size() - 1);
    const std::string page = RenderReportHtml(BuildReportModel(data, lanes), title);
    std::ofstream file(options->output, std::ios::binary | std::ios::trunc);
    file << page;
    file.close();
    if (!file) {
      std::cerr << fmt::format("tensormorph: error: {}: cannot write the output file\n",
                               options->output);
      return kExitUsage;
    }
    if (!options->common.quiet) {
      std::cerr << fmt::format("tensormorph: wrote {} ({:.1f} kB)\n", options->output,
                               page.size() / 1000.0);
    }
    return kExitOk;
  };
}

}  // namespace tensormorph
