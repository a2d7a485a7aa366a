#include "analyses.h"

#include <sstream>

#include "report/collectives_report.h"
#include "report/critical_path_report.h"
#include "report/findings_report.h"
#include "report/kernel_occupancy_report.h"
#include "report/kernels_report.h"
#include "report/ops_report.h"
#include "report/roofline_report.h"
#include "report/timeline_report.h"
#include "tensormorph/analysis/job/collectives.h"
#include "tensormorph/analysis/job/job.h"

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

std::string OpsJson(const Traces& traces, const OpQuery& query) {
  const OpSummary summary = SummarizeOps(LinkedOf(traces), query);
  std::ostringstream out;
  RenderOps(out, TracesOf(traces), query, summary, OutputFormat::kJson);
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

std::string FindingsJson(const Traces& traces, const FindingsQuery& query) {
  const FindingsResult result = FindFindings(LinkedOf(traces), query);
  std::ostringstream out;
  RenderFindings(out, TracesOf(traces), result, OutputFormat::kJson);
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

}  // namespace tensormorph::python
