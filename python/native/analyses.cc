#include "analyses.h"

#include <sstream>

#include "report/kernels_report.h"
#include "report/ops_report.h"
#include "report/timeline_report.h"

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

}  // namespace tensormorph::python
