#include "report/html/report.h"

#include <utility>

#include "report/html/html_page.h"
#include "report/html/timeline_lanes.h"

namespace tensormorph {

Json LayOutReportTimeline(const std::vector<const LinkedTrace*>& inputs,
                          const KernelOccupancySummary& occupancy,
                          const ReportPageOptions& options) {
  LaneOptions lane_options;
  lane_options.max_raw_boxes = options.max_raw_boxes;
  lane_options.max_raw_host_boxes = 2 * options.max_raw_boxes;
  return BuildTimelineLanes(inputs, occupancy, lane_options);
}

std::string RenderReport(const std::vector<const LinkedTrace*>& inputs,
                         const ReportAnalyses& analyses, const ReportDiff* diff,
                         const ReportPageOptions& options) {
  return RenderReport(inputs, analyses, diff, options,
                      LayOutReportTimeline(inputs, analyses.occupancy, options));
}

std::string RenderReport(const std::vector<const LinkedTrace*>& inputs,
                         const ReportAnalyses& analyses, const ReportDiff* diff,
                         const ReportPageOptions& options, Json timeline_lanes) {
  ReportData data;
  data.inputs = inputs;
  data.timeline_options = analyses.query.timeline;
  data.timeline = &analyses.timeline;
  data.kernels = &analyses.kernels;
  data.ops = &analyses.ops;
  data.op_predictions = analyses.op_predictions ? &*analyses.op_predictions : nullptr;
  data.occupancy = &analyses.occupancy;
  data.roofline = &analyses.roofline;
  data.diff = diff;
  data.findings = &analyses.findings;
  data.compare = analyses.compare ? &*analyses.compare : nullptr;
  data.collectives = analyses.collectives ? &*analyses.collectives : nullptr;
  data.critical_path = analyses.critical_path ? &*analyses.critical_path : nullptr;
  data.memory = &analyses.memory;
  return RenderReportHtml(BuildReportModel(data, std::move(timeline_lanes)), options.title);
}

}  // namespace tensormorph
