// Renders an OpSummary (the Compute panel) as a table, JSON (schema tensormorph.ops/1) or CSV.
#pragma once

#include <ostream>
#include <vector>

#include "analysis/ops/ops.h"
#include "report/json_output.h"
#include "report/output_format.h"

namespace tensormorph {

// An op's placements as the JSON outputs show them: [{"backend", "device", "device_ns",
// "kernels"}, ...] (ops JSON and the HTML report's Compute panel).
Json OpPlacementsJson(const std::vector<OpPlacement>& placements);

void RenderOps(std::ostream& out, const std::vector<const Trace*>& traces, const OpQuery& query,
               const OpSummary& summary, OutputFormat format);

}  // namespace tensormorph
