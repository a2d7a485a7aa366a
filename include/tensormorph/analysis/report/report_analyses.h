// Every analysis the HTML report shows, run once over the same LinkedTraces and side by side:
// kernels, timeline, ops (with --predict's placements), occupancy, roofline, findings, memory,
// compare (two or more inputs, --compare), and for one job of two or more ranks its collectives
// and critical path. The report's sink renders these results (report/html/report.h); it starts
// nothing itself. The analyses share the LinkedTraces, whose parts are each computed once by
// whichever analysis needs them first (linked_trace.h), and results computed once for two readers:
// the collectives (the timeline's ranks, the findings, the critical path), one timeline at the
// findings' shorter gap threshold (the page keeps its longer gaps: WithLongerGaps) and the what-if
// graphs, built beside the findings whose fixes they simulate. Each result is what its command
// prints (tests/report_analyses_test.cc), the same run side by side or one after another.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "tensormorph/analysis/compare/compare.h"
#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/job/collectives.h"
#include "tensormorph/analysis/job/critical_path.h"
#include "tensormorph/analysis/job/job.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/memory/memory.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/analysis/ops/ops.h"
#include "tensormorph/analysis/predict/op_predictions.h"
#include "tensormorph/analysis/roofline.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct ReportAnalysesQuery {
  TimelineOptions timeline;  // also the findings' straggler threshold and queue limit
  // Side by side, one thread each (false: one after another, for --threads 1).
  bool concurrent = true;
  std::optional<CompareQuery> compare;  // `report A B --compare`; absent: not compared
  std::optional<PredictQuery> predict;  // `report --predict KEY`; absent: no predictions
};

struct ReportAnalyses {
  ReportAnalysesQuery query;  // what they were run with (the page states its options)
  KernelSummary kernels;
  TimelineResult timeline;
  OpSummary ops;
  std::optional<OpPredictions> op_predictions;  // with ReportAnalysesQuery::predict
  KernelOccupancySummary occupancy;
  RooflineResult roofline;
  FindingsResult findings;
  MemoryResult memory;  // with the per-device series the timeline's memory lanes draw
  std::optional<CompareResult> compare;
  // One job of two or more ranks only (the Ranks section); absent otherwise.
  std::optional<CollectivesResult> collectives;
  std::optional<CriticalPathResult> critical_path;
};

// The caller's own work that reads only the traces and the kernels' occupancy: the report lays
// its timeline's lanes out there (report/html/report.h), on a core the analyses leave idle.
using BesideAnalyses = std::function<void(const KernelOccupancySummary& occupancy)>;

// The analyses over `inputs` with the built-in device table; `beside`, if set, runs as one more
// task once the occupancy is known (on the calling thread when not concurrent), and has returned
// when this does.
ReportAnalyses RunReportAnalyses(const std::vector<const LinkedTrace*>& inputs,
                                 const ReportAnalysesQuery& query,
                                 const BesideAnalyses& beside = {});

}  // namespace tensormorph
