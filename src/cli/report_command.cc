// `tensormorph report TRACE... -o report.html [--baseline BASE]`: one self-contained HTML file
// with the summary, Compute panel, kernels, timeline, roofline, occupancy, (for one job of two or
// more ranks) the ranks with their collectives and critical path, and (with a baseline) the diff.
// Every section comes from the same analyses as the other commands (src/report/html).
#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <memory>
#include <utility>

#include "cli/commands.h"
#include "cli/common.h"
#include "cli/predict_targets.h"
#include "cli/profile_input.h"
#include "io/json.h"
#include "report/html/report.h"
#include "tensormorph/analysis/diff/diff.h"
#include "tensormorph/analysis/profile/build.h"
#include "tensormorph/analysis/report/report_analyses.h"

namespace tensormorph {
namespace {

struct ReportOptions {
  CommonOptions common;
  std::string output;
  std::string baseline;
  // The library's defaults (the report's timeline, the diff, the page).
  double gap_us = TimelineOptions{}.min_gap_ns / 1000.0;
  double threshold = DiffOptions{}.threshold_percent;
  size_t max_boxes = ReportPageOptions{}.max_raw_boxes;
  bool compare = false;
  std::string compare_by = "shape";
  std::string labels;            // comma-separated (SplitLabels)
  PredictTargetOptions predict;  // --predict KEY[,KEY...]: the Compute panel's predictions
};

}  // namespace

CommandRunner AddReportCommand(CLI::App* app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command = app->add_subcommand(
      "report",
      "one self-contained HTML file: summary with findings, ops, kernels, timeline (host and "
      "device lanes, launch arrows), roofline, occupancy, a job's ranks (collectives, critical "
      "path), the diff against --baseline, --compare");
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
      ->add_option(
          "--max-boxes", options->max_boxes,
          "raw kernel and copy boxes embedded for the timeline, over all lanes, and twice as "
          "many host boxes (beyond them the timeline shows precomputed buckets)")
      ->capture_default_str();
  command->add_flag("--compare", options->compare,
                    "the traces are the same workload on different devices or software: add "
                    "`tensormorph compare` of them as a section");
  command->add_option("--compare-by", options->compare_by, "rows of the comparison (--compare)")
      ->check(CLI::IsMember({"op", "shape", "stack", "category"}))
      ->capture_default_str();
  command->add_option("--label", options->labels,
                      "a name for each side of --compare, in the order of the traces");
  command->add_option("--predict", options->predict.targets,
                      "the Compute panel says what each op would take on these devices "
                      "(device-database keys separated by commas; tensormorph predict)");
  AddPredictFileOptions(command, &options->predict);
  return [options]() {
    if (options->common.format != "table") {
      return PrintError(kExitUsage, fmt::format("report writes one HTML file; --format {} is for "
                                                "the other commands (tensormorph kernels, ops, "
                                                "timeline, roofline, occupancy --format {})",
                                                options->common.format, options->common.format));
    }
    if (!options->compare && !options->labels.empty()) {
      return PrintError(kExitUsage, "--label names the sides of --compare: add --compare",
                        "tensormorph report");
    }
    if (int rc = CheckPredictFilesNeedTargets(options->predict, "tensormorph report");
        rc != kExitOk) {
      return rc;
    }
    PredictTargetData predict_data;
    ReportAnalysesQuery query;
    ReportPageOptions page_options;
    if (!options->predict.targets.empty()) {
      query.predict.emplace();
      if (int rc = ResolvePredictTargets(options->predict, "--predict", "tensormorph report",
                                         &predict_data, &*query.predict);
          rc != kExitOk) {
        return rc;
      }
    }
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    if (options->compare) {
      if (int rc = CheckCompareSides(traces.size(), SplitLabels(options->labels).size(), "report");
          rc != kExitOk) {
        return rc;
      }
    }
    PrintWarnings(traces);
    // Linked once here; the baseline builder and every section read the same links.
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
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
          DiffProfiles(base, BuildBaseline(Pointers(linked), kTensormorphVersion), diff->options);
    }
    query.timeline.min_gap_ns = std::llround(options->gap_us * 1000.0);
    query.concurrent = options->common.threads != 1;
    query.timeline.concurrent = query.concurrent;
    if (options->compare) {
      query.compare.emplace();
      query.compare->by = *ParseCompareBy(options->compare_by);
      if (!options->labels.empty()) query.compare->labels = SplitLabels(options->labels);
    }
    page_options.max_raw_boxes = options->max_boxes;
    if (!traces.empty()) page_options.title += ": " + traces.front().path;
    if (traces.size() > 1) page_options.title += fmt::format(" (+{} more)", traces.size() - 1);
    // The analyses side by side (the library), the timeline's lanes laid out beside them, then the
    // page from their results.
    Json lanes;
    const ReportAnalyses analyses =
        RunReportAnalyses(Pointers(linked), query, [&](const KernelOccupancySummary& occupancy) {
          lanes = LayOutReportTimeline(Pointers(linked), occupancy, page_options);
        });
    const std::string page = RenderReport(Pointers(linked), analyses, diff ? &*diff : nullptr,
                                          page_options, std::move(lanes));
    if (int rc = WriteOutputFile(options->output, page); rc != kExitOk) return rc;
    if (!options->common.quiet) {
      std::cerr << fmt::format("tensormorph: wrote {} ({:.1f} kB)\n", options->output,
                               page.size() / 1000.0);
    }
    return kExitOk;
  };
}

}  // namespace tensormorph
