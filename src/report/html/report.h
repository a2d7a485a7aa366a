// The whole HTML report from linked traces: runs every analysis the page shows (timeline,
// kernels, ops, occupancy, roofline; collectives and critical path only for one job of two or
// more ranks) once over the same LinkedTraces, so each input is linked once however many sections
// read its links, and renders the page (report_model.h, html_page.h). What `tensormorph report`
// writes. The analyses share nothing but the LinkedTraces, whose parts are each computed once by
// whichever analysis needs them first (linked_trace.h), so they can run side by side; the page is
// the same either way.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "report/html/report_model.h"
#include "tensormorph/analysis/compare/compare.h"
#include "tensormorph/analysis/predict/predict.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct ReportPageOptions {
  TimelineOptions timeline;
  size_t max_raw_boxes = 100'000;  // LaneOptions::max_raw_boxes; host items: twice as many
  std::string title = "tensormorph report";
  // Run the analyses side by side, one thread each (false: one after another, for --threads 1).
  bool concurrent = true;
  // The inputs side by side (`report A B --compare`, analysis/compare); absent: no such section.
  std::optional<CompareQuery> compare;
  // The Compute panel's predictions on other devices (`report --predict KEY`,
  // analysis/predict/op_predictions.h); absent: none.
  std::optional<PredictQuery> predict;
};

// `diff` (the comparison against --baseline) may be null.
std::string RenderReport(const std::vector<const LinkedTrace*>& inputs, const ReportDiff* diff,
                         const ReportPageOptions& options);

}  // namespace tensormorph
