// The HTML report's data: every analysis result the page shows, as one JSON document that the page
// embeds (html_page.h) and its script renders (assets/js/, joined by tools/join_js_modules.cc). A
// sink: it only reads results that the analyses computed (DESIGN §1); schema
// "tensormorph.report/1", times in integer ns.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/json_fwd.h"
#include "tensormorph/analysis/compare/compare.h"
#include "tensormorph/analysis/diff/diff.h"
#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/job/collectives.h"
#include "tensormorph/analysis/job/critical_path.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/memory/memory.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/analysis/ops/ops.h"
#include "tensormorph/analysis/predict/op_predictions.h"
#include "tensormorph/analysis/roofline.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct ReportDiff {
  std::string base_path;
  bool base_is_baseline = false;  // a saved baseline file rather than a trace
  DiffOptions options;
  DiffResult result;
};

struct ReportData {
  std::vector<const LinkedTrace*> inputs;
  TimelineOptions timeline_options;
  const TimelineResult* timeline = nullptr;
  const KernelSummary* kernels = nullptr;  // SummarizeKernels with a default KernelQuery
  const OpSummary* ops = nullptr;
  const OpPredictions* op_predictions = nullptr;  // only with --predict: PredictOps over *ops
  const KernelOccupancySummary* occupancy = nullptr;
  const RooflineResult* roofline = nullptr;
  const ReportDiff* diff = nullptr;          // only with --baseline
  const CompareResult* compare = nullptr;    // only with --compare: the inputs as sides
  const FindingsResult* findings = nullptr;  // FindFindings with a default FindingsQuery
  // Only when the inputs are one job of two or more ranks (the Ranks section; both or neither):
  // AnalyzeCollectives and AnalyzeCriticalPath with default options over DescribeJob's layout.
  const CollectivesResult* collectives = nullptr;
  const CriticalPathResult* critical_path = nullptr;
  // AnalyzeMemory with its series (the Memory section and the timeline's memory lanes).
  const MemoryResult* memory = nullptr;
};

// `timeline_lanes`: BuildTimelineLanes over the same inputs and occupancy (built beside the
// analyses by RenderReport); the model's timeline section is made from it.
Json BuildReportModel(const ReportData& data, Json timeline_lanes);

}  // namespace tensormorph
