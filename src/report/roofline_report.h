// Renders a RooflineResult as a table, JSON (schema tensormorph.roofline/1) or CSV.
#pragma once

#include <ostream>
#include <vector>

#include "analysis/roofline.h"
#include "report/output_format.h"

namespace tensormorph {

void RenderRoofline(std::ostream& out, const std::vector<const Trace*>& traces,
                    const RooflineResult& result, OutputFormat format);

}  // namespace tensormorph
