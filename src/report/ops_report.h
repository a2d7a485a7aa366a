// Renders an OpSummary (the Compute panel) as a table, JSON (schema tensormorph.ops/1) or CSV.
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/ops/ops.h"
#include "tensormorph/analysis/predict/op_predictions.h"

namespace tensormorph {

// An op's placements as the JSON outputs show them: [{"backend", "device", "device_ns",
// "kernels"}, ...] (ops JSON and the HTML report's Compute panel).
Json OpPlacementsJson(const std::vector<OpPlacement>& placements);

// One row as `ops --format json` writes it (docs/ops.md), with "input" and "start_ns"
// as the query asks; the HTML report's model writes the same. Its CSV columns come from the same
// table (ops_report.cc). With `predictions` (--predict, PredictOps over the summary whose row
// `index` this is), the row's "predicted_within" and "predictions" list.
Json OpRowJson(const OpRow& row, const OpQuery& query, const OpPredictions* predictions = nullptr,
               size_t index = 0);

// --predict: {"targets": [{"key", "name", "unusable"}], "sources": [{"input", "label",
// "database_key"}]}, the top-level "predict" member of the ops JSON and of the report's model.
Json OpPredictTargetsJson(const OpPredictions& predictions);

// `predictions`: null without --predict; else PredictOps over `summary`.
void RenderOps(std::ostream& out, const std::vector<const Trace*>& traces, const OpQuery& query,
               const OpSummary& summary, OutputFormat format,
               const OpPredictions* predictions = nullptr);

}  // namespace tensormorph
