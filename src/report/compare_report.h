// Renders a CompareResult (`tensormorph compare`) as a table, JSON (schema tensormorph.compare/1,
// docs/compare.md) or CSV (one line per row, each side's fields prefixed by its label).
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/compare/compare.h"

namespace tensormorph {

// The whole JSON document (the HTML report's comparison section embeds the same).
Json CompareJson(const std::vector<const Trace*>& traces, const CompareResult& result);

void RenderCompare(std::ostream& out, const std::vector<const Trace*>& traces,
                   const CompareResult& result, OutputFormat format);

}  // namespace tensormorph
