#include "report/html/report.h"

#include "report/html/html_page.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/analysis/ops/ops.h"
#include "tensormorph/analysis/roofline.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {

std::string RenderReport(const std::vector<const LinkedTrace*>& inputs, const ReportDiff* diff,
                         const ReportPageOptions& options) {
  ReportData data;
  data.inputs = inputs;
  data.timeline_options = options.timeline;
  const TimelineResult timeline = AnalyzeTimeline(inputs, data.timeline_options);
  const KernelSummary kernels = SummarizeKernels(inputs, KernelQuery{});
  const OpSummary ops = SummarizeOps(inputs, OpQuery{});
  const KernelOccupancySummary occupancy = SummarizeKernelOccupancy(inputs, KernelOccupancyQuery{});
  const std::vector<DeviceSpec> devices = BuiltInDevices();
  RooflineQuery roofline_query;
  roofline_query.devices = &devices;
  const RooflineResult roofline = AnalyzeRoofline(inputs, roofline_query);
  data.timeline = &timeline;
  data.kernels = &kernels;
  data.ops = &ops;
  data.occupancy = &occupancy;
  data.roofline = &roofline;
  data.diff = diff;
  LaneOptions lanes;
  lanes.max_raw_boxes = options.max_raw_boxes;
  return RenderReportHtml(BuildReportModel(data, lanes), options.title);
}

}  // namespace tensormorph
