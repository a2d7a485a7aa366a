// Renders the theoretical occupancy of one launch configuration (`tensormorph occupancy --arch ARCH
// --block-size N --registers N ...`) as a table, JSON (schema tensormorph.occupancy/1) or CSV.
// The trace form (every kernel of a trace) is kernel_occupancy_report.h.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "report/output_format.h"
#include "tensormorph/analysis/occupancy/gpu_limits.h"
#include "tensormorph/analysis/occupancy/occupancy.h"

namespace tensormorph {

// What one launch's report shows: the architecture, the launch as given, and its result.
struct OccupancyLaunch {
  const GpuArch& arch;
  const LaunchConfig& launch;
  const OccupancyResult& result;
};

// The CSV header, in the order the CSV writes it (for tests: the JSON keys it flattens).
std::vector<std::string> OccupancyLaunchCsvHeader();

void RenderOccupancyLaunch(std::ostream& out, const OccupancyLaunch& launch, OutputFormat format);

}  // namespace tensormorph
