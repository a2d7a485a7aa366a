// Renders a KernelSummary as a table, JSON (schema tensormorph.kernels/1) or CSV.
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/kernels.h"

namespace tensormorph {

void RenderKernels(std::ostream& out, const std::vector<const Trace*>& traces,
                   const KernelQuery& query, const KernelSummary& summary, OutputFormat format);

// One row as `kernels --format json` writes it (docs/kernels.md), with "input" when
// the inputs are kept apart; the HTML report's model writes the same. Its CSV columns come from the
// same table (kernels_report.cc).
Json KernelRowJson(const KernelRow& row, bool by_input);

// Why a set of inputs has no kernel rows, in one sentence (CPU-only trace, counter ranges only...).
std::string ExplainNoKernels(const std::vector<const Trace*>& traces, const KernelQuery& query);

}  // namespace tensormorph
