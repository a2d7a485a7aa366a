// `tensormorph memory`: renders a MemoryResult as a table per device (peak, capacity, what was
// alive at the peak, allocations per op, the largest, the steps), JSON (schema
// tensormorph.memory/1, docs/memory.md) or CSV (one row per device).
#pragma once

#include <ostream>
#include <vector>

#include "report/json_output.h"
#include "report/output_format.h"
#include "tensormorph/analysis/memory/memory.h"
#include "tensormorph/analysis/memory/memory_fit.h"

namespace tensormorph {

// The JSON document (schema tensormorph.memory/1) that `memory --format json` writes and the
// report embeds.
Json MemoryDocument(const std::vector<const Trace*>& traces, const MemoryResult& result);

void RenderMemory(std::ostream& out, const std::vector<const Trace*>& traces,
                  const MemoryResult& result, OutputFormat format);

// A workload's peak and its fit on devices, as compare and predict write it in JSON:
// {peak_allocated_bytes, peak_reserved_bytes, basis, device, fits: [{device, capacity_bytes, fits,
// percent_of_capacity}], text}.
Json WorkloadMemoryJson(const WorkloadMemory& memory, const std::vector<MemoryFit>& fits);

}  // namespace tensormorph
