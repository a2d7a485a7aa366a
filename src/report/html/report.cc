#include "report/html/report.h"

#include "report/html/html_page.h"
#include "report/html/timeline_lanes.h"

namespace tensormorph {

std::string RenderReport(const std::vector<const LinkedTrace*>& inputs,
                         const ReportAnalyses& analyses, const ReportDiff* diff,
                         const ReportPageOptions& options) {
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
  LaneOptions lane_options;
  lane_options.max_raw_boxes = options.max_raw_boxes;
  lane_options.max_raw_host_boxes = 2 * options.max_raw_boxes;
  return RenderReportHtml(
      BuildReportModel(data, BuildTimelineLanes(inputs, analyses.occupancy, lane_options)),
      options.title);
}

}  // namespace tensormorph
