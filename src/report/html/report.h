// The whole HTML report: renders the results of every analysis the page shows
// (RunReportAnalyses, tensormorph/analysis/report/report_analyses.h, over the same LinkedTraces) as
// one self-contained page (report_model.h, html_page.h). What `tensormorph report` writes. The sink
// starts no analysis: it renders, with the timeline's lanes laid out from the traces and the
// occupancy (timeline_lanes.h), by the caller beside the analyses or here.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "report/html/report_model.h"
#include "tensormorph/analysis/report/report_analyses.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct ReportPageOptions {
  size_t max_raw_boxes = 100'000;  // LaneOptions::max_raw_boxes; host items: twice as many
  std::string title = "tensormorph report";
};

// `analyses` are RunReportAnalyses(inputs, ...)'s; `diff` (the comparison against --baseline)
// may be null.
std::string RenderReport(const std::vector<const LinkedTrace*>& inputs,
                         const ReportAnalyses& analyses, const ReportDiff* diff,
                         const ReportPageOptions& options);

// The page's timeline lanes (timeline_lanes.h) with the page's budgets. They read the traces and
// the kernels' occupancy only, so a caller lays them out beside the analyses (the BesideAnalyses
// of RunReportAnalyses) and passes them to the overload below; the one above lays them out after.
Json LayOutReportTimeline(const std::vector<const LinkedTrace*>& inputs,
                          const KernelOccupancySummary& occupancy,
                          const ReportPageOptions& options);
std::string RenderReport(const std::vector<const LinkedTrace*>& inputs,
                         const ReportAnalyses& analyses, const ReportDiff* diff,
                         const ReportPageOptions& options, Json timeline_lanes);

}  // namespace tensormorph
