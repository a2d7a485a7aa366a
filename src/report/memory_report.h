// `tensormorph memory`: renders a MemoryResult as a table per device (peak, capacity, what was
// alive at the peak, allocations per op, the largest, the steps), JSON (schema
// tensormorph.memory/1, docs/memory.md) or CSV (one row per device).
#pragma once

#include <ostream>
#include <vector>

#include "report/output_format.h"
#include "tensormorph/analysis/memory/memory.h"

namespace tensormorph {

void RenderMemory(std::ostream& out, const std::vector<const Trace*>& traces,
                  const MemoryResult& result, OutputFormat format);

}  // namespace tensormorph
