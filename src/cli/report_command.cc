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
#include "baseline/build.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/profile_input.h"
#include "devices/device_db.h"
#include "report/html/html_page.h"
#include "report/html/report_model.h"

namespace tensormorph {
namespace {

struct ReportOptions {
  CommonOptions common;
  std::string output;
  std::string baseline;
  double gap_us = 100;
  double threshold = 5;
  size_t max_boxes = 100'000;
};

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
    if (options->common.format != "table") {
      std::cerr << fmt::format(
          "tensormorph: error: report writes one HTML file; --format {} is for the other "
          "commands (tensormorph kernels, ops, timeline, roofline, occupancy --format {})\n",
          options->common.format, options->common.format);
      return kExitUsage;
    }
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    std::optional<ReportDiff> diff;
    if (!options->baseline.empty()) {
      Baseline base;
      diff.emplace();
      diff->base_path = options->baseline;
      if (int rc = LoadProfile(options->common, options->baseline, &base, &diff->base_is_baseline);
          rc != kExitOk) {
        return rc;
      }
      diff->options.threshold_percent = options->threshold;
      diff->result =
          DiffProfiles(base, BuildBaseline(Pointers(traces), kTensormorphVersion), diff->options);
    }
    std::vector<LinkedTrace> linked(traces.size());
    std::vector<TimelineInput> timeline_inputs;
    ReportData data;
    data.traces = Pointers(traces);
    for (size_t i = 0; i < traces.size(); ++i) {
      linked[i] = LinkForTimeline(traces[i]);
      timeline_inputs.push_back(linked[i].Input());
      data.links.push_back(&linked[i].links);
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
