// Renders a KernelOccupancySummary as a table, JSON (schema tensormorph.kernel_occupancy/1) or CSV.
#pragma once

#include <ostream>
#include <vector>

#include "analysis/occupancy/kernel_occupancy.h"
#include "report/output_format.h"

namespace tensormorph {

void RenderKernelOccupancy(std::ostream& out, const std::vector<const Trace*>& traces,
                           const KernelOccupancySummary& summary, OutputFormat format);

}  // namespace tensormorph
