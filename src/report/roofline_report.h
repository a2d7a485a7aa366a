// Renders a RooflineResult as a table, JSON (schema tensormorph.roofline/1) or CSV.
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/roofline.h"

namespace tensormorph {

// One row as `roofline --format json` writes it (docs/roofline.md); the HTML report's
// model writes the same. Its CSV columns come from the same table (roofline_report.cc).
Json RooflineRowJson(const RooflineRow& row);

// `skipped`: [{"reason", "count"}].
Json RooflineSkippedJson(const std::vector<RooflineSkip>& skipped);

void RenderRoofline(std::ostream& out, const std::vector<const Trace*>& traces,
                    const RooflineResult& result, OutputFormat format);

}  // namespace tensormorph
