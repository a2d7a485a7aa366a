#include "analyses.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "io/json.h"
#include "report/collectives_report.h"
#include "report/compare_report.h"
#include "report/critical_path_report.h"
#include "report/diff_report.h"
#include "report/findings_report.h"
#include "report/kernel_occupancy_report.h"
#include "report/kernels_report.h"
#include "report/memory_report.h"
#include "report/ops_report.h"
#include "report/predict_report.h"
#include "report/roofline_report.h"
#include "report/timeline_report.h"
#include "report/whatif_report.h"
#include "tensormorph/analysis/job/collectives.h"
#include "tensormorph/analysis/job/job.h"
#include "tensormorph/analysis/predict/op_predictions.h"
#include "tensormorph/analysis/profile/build.h"
#include "tensormorph/version.h"

namespace tensormorph::python {
namespace {

std::vector<const Trace*> TracesOf(const Traces& traces) {
  std::vector<const Trace*> out;
  for (const LoadedTrace* t : traces) out.push_back(&t->trace());
  return out;
}

std::vector<const LinkedTrace*> LinkedOf(const Traces& traces) {
  std::vector<const LinkedTrace*> out;
  for (const LoadedTrace* t : traces) out.push_back(&t->linked());
  return out;
}

}  // namespace

std::string KernelsJson(const Traces& traces, const KernelQuery& query) {
  const KernelSummary summary = SummarizeKernels(LinkedOf(traces), query);
  std::ostringstream out;
  RenderKernels(out, TracesOf(traces), query, summary, OutputFormat::kJson);
  return std::move(out).str();
}

std::unique_ptr<PredictTargets> ResolvePredictTargets(const std::vector<std::string>& keys,
                                                      const std::string& calibration_path,
                                                      const std::vector<std::string>& spec_files) {
  auto targets = std::make_unique<PredictTargets>();
  targets->devices = BuiltInDevices();
  for (const std::string& path : spec_files) {
    StatusOr<std::vector<DeviceSpec>> loaded = LoadDeviceSpecs(path, std::move(targets->devices));
    if (!loaded.ok()) throw std::invalid_argument(loaded.status().message());
    targets->devices = std::move(loaded).value();
  }
  for (const std::string& key : keys) {
    const auto found = std::find_if(targets->devices.begin(), targets->devices.end(),
                                    [&](const DeviceSpec& d) { return d.key == key; });
    if (key.empty() || found == targets->devices.end()) {
      throw std::invalid_argument(fmt::format(
          "no device \"{}\" in the device database (the keys: tensormorph devices; more with "
          "device_specs)",
          key));
    }
    targets->query.targets.push_back(&*found);
  }
  if (!calibration_path.empty()) {
    StatusOr<Calibration> loaded = LoadCalibration(calibration_path);
    if (!loaded.ok()) {
      const Status& status = loaded.status();
      std::string where = calibration_path;
      if (status.position().line > 0) {
        where += fmt::format(":{}:{}", status.position().line, status.position().column);
      }
      throw std::invalid_argument(where + ": " + status.message());
    }
    targets->calibration = std::move(loaded).value();
  }
  targets->query.devices = &targets->devices;
  targets->query.calibration = targets->calibration ? &*targets->calibration : nullptr;
  return targets;
}

std::string OpsJson(const Traces& traces, OpQuery query, const PredictTargets* predict) {
  if (predict != nullptr) query.devices = &predict->devices;
  const std::vector<const LinkedTrace*> linked = LinkedOf(traces);
  const OpSummary summary = SummarizeOps(linked, query);
  std::optional<OpPredictions> predictions;
  if (predict != nullptr && !predict->query.targets.empty()) {
    predictions = PredictOps(summary, query, linked, predict->query);
  }
  std::ostringstream out;
  RenderOps(out, TracesOf(traces), query, summary, OutputFormat::kJson,
            predictions ? &*predictions : nullptr);
  return std::move(out).str();
}

std::string CompareJson(const Traces& traces, CompareQuery query,
                        const std::vector<DeviceSpec>& devices) {
  query.devices = &devices;
  const CompareResult result = CompareTraces(LinkedOf(traces), query);
  std::ostringstream out;
  RenderCompare(out, TracesOf(traces), result, OutputFormat::kJson);
  return std::move(out).str();
}

std::string PredictJson(const LoadedTrace& trace, const LoadedTrace* measured,
                        const PredictTargets& targets, size_t top) {
  std::ostringstream out;
  if (measured == nullptr) {
    PredictQuery query = targets.query;
    query.top = top;
    RenderPredict(out, trace.trace(), PredictTrace(trace.linked(), query), nullptr,
                  OutputFormat::kJson);
    return std::move(out).str();
  }
  StatusOr<MeasuredPrediction> predicted =
      PredictAgainstMeasured(trace.linked(), measured->linked(), targets.query, top);
  if (!predicted.ok()) throw std::invalid_argument(predicted.status().message());
  RenderPredict(out, trace.trace(), predicted->result, &predicted->evaluation, OutputFormat::kJson);
  return std::move(out).str();
}

std::string TimelineJson(const Traces& traces, const TimelineOptions& options) {
  const TimelineResult result = AnalyzeTimeline(LinkedOf(traces), options);
  TimelineRenderOptions render;
  render.format = OutputFormat::kJson;
  std::ostringstream out;
  RenderTimeline(out, TracesOf(traces), options, result, render);
  return std::move(out).str();
}

std::string RooflineJson(const Traces& traces, const RooflineQuery& query) {
  const RooflineResult result = AnalyzeRoofline(LinkedOf(traces), query);
  std::ostringstream out;
  RenderRoofline(out, TracesOf(traces), result, OutputFormat::kJson);
  return std::move(out).str();
}

std::string OccupancyJson(const Traces& traces, const KernelOccupancyQuery& query) {
  const KernelOccupancySummary summary = SummarizeKernelOccupancy(LinkedOf(traces), query);
  std::ostringstream out;
  RenderKernelOccupancy(out, TracesOf(traces), summary, OutputFormat::kJson);
  return std::move(out).str();
}

std::string FindingsJson(const Traces& traces, const FindingsQuery& query, bool simulate) {
  const FindingsResult result = FindSimulatedFindings(LinkedOf(traces), query, simulate);
  std::ostringstream out;
  RenderFindings(out, TracesOf(traces), result, OutputFormat::kJson);
  return std::move(out).str();
}

std::string MemoryJson(const Traces& traces, const MemoryQuery& query) {
  const MemoryResult result = AnalyzeMemory(LinkedOf(traces), query);
  std::ostringstream out;
  RenderMemory(out, TracesOf(traces), result, OutputFormat::kJson);
  return std::move(out).str();
}

JsonWithWarnings CollectivesJson(const Traces& traces, bool as_job, bool align_clocks) {
  const JobLayout job = DescribeJob(TracesOf(traces), as_job);
  CollectiveOptions options;
  options.align_clocks = align_clocks;
  const CollectivesResult result = AnalyzeCollectives(LinkedOf(traces), job, options);
  std::ostringstream out;
  // The limit only shortens the table; JSON lists every collective.
  RenderCollectives(out, TracesOf(traces), result, OutputFormat::kJson, /*limit=*/0);
  return {std::move(out).str(), result.warnings};
}

JsonWithWarnings CriticalPathJson(const Traces& traces, bool as_job,
                                  const CriticalPathOptions& options) {
  const JobLayout job = DescribeJob(TracesOf(traces), as_job);
  const CriticalPathResult result = AnalyzeCriticalPath(LinkedOf(traces), job, options);
  CriticalPathRenderOptions render;
  render.format = OutputFormat::kJson;
  std::ostringstream out;
  RenderCriticalPath(out, TracesOf(traces), result, render);
  return {std::move(out).str(), result.warnings};
}

JsonWithWarnings WhatIfJson(const Traces& traces, const WhatIfQuery& query) {
  const JobLayout job = DescribeJob(TracesOf(traces), query.as_job);
  const WhatIfResult result = SimulateWhatIf(LinkedOf(traces), job, query);
  std::ostringstream out;
  RenderWhatIf(out, TracesOf(traces), result, OutputFormat::kJson);
  return {std::move(out).str(), result.warnings};
}

Profile ProfileOfTraces(const Traces& traces) {
  return {BuildBaseline(LinkedOf(traces), kTensormorphVersion),
          traces.empty() ? "" : traces.front()->trace().path, false};
}

std::string DiffJson(const Profile& base, const Profile& next, DiffOptions options) {
  options.base_resolution_ns = base.baseline.timestamp_resolution_ns;
  options.new_resolution_ns = next.baseline.timestamp_resolution_ns;
  const DiffResult result = DiffProfiles(base.baseline, next.baseline, options);
  std::ostringstream out;
  RenderDiff(out, {base.path, base.is_baseline}, {next.path, next.is_baseline}, options, result,
             OutputFormat::kJson);
  return std::move(out).str();
}

std::string ReportHtml(const Traces& traces, const Profile* base, double threshold_percent,
                       const ReportAnalysesQuery& query, ReportPageOptions options) {
  const std::vector<const LinkedTrace*> linked = LinkedOf(traces);
  std::optional<ReportDiff> diff;
  if (base != nullptr) {
    diff.emplace();
    diff->base_path = base->path;
    diff->base_is_baseline = base->is_baseline;
    diff->options.threshold_percent = threshold_percent;
    diff->result =
        DiffProfiles(base->baseline, BuildBaseline(linked, kTensormorphVersion), diff->options);
  }
  // The title names the inputs as the command line's does.
  if (!traces.empty()) options.title += ": " + traces.front()->trace().path;
  if (traces.size() > 1) options.title += " (+" + std::to_string(traces.size() - 1) + " more)";
  // The timeline's lanes laid out beside the analyses, as the command line does.
  Json lanes;
  const ReportAnalyses analyses =
      RunReportAnalyses(linked, query, [&](const KernelOccupancySummary& occupancy) {
        lanes = LayOutReportTimeline(linked, occupancy, options);
      });
  return RenderReport(linked, analyses, diff ? &*diff : nullptr, options, std::move(lanes));
}

}  // namespace tensormorph::python
