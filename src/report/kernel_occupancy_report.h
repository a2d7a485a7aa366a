// Renders a KernelOccupancySummary as a table, JSON (schema tensormorph.kernel_occupancy/1) or CSV.
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"

namespace tensormorph {

// One row as `occupancy --format json` writes it (docs/occupancy.md); the HTML
// report's model writes the same. Its CSV columns come from the same table
// (kernel_occupancy_report.cc).
Json KernelOccupancyRowJson(const KernelOccupancyRow& row);

void RenderKernelOccupancy(std::ostream& out, const std::vector<const Trace*>& traces,
                           const KernelOccupancySummary& summary, OutputFormat format);

}  // namespace tensormorph
