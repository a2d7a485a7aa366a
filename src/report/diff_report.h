// Renders a DiffResult as a table, JSON (schema tensormorph.diff/1, docs/diff.md) or
// CSV.
#pragma once

#include <ostream>
#include <string>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/diff/diff.h"

namespace tensormorph {

// One side of the comparison as the user named it.
struct DiffSource {
  std::string path;
  bool is_baseline = false;  // a saved baseline rather than a trace
};

// One row as `diff --format json` writes it (docs/diff.md); the HTML report's model
// writes the same. Its CSV columns come from the same table (diff_report.cc).
Json DiffRowJson(const DiffRow& row, const DiffResult& result);

// `counts`: {"regressed", "improved", "unchanged", "added", "removed"}.
Json DiffCountsJson(const DiffStatusCounts& counts);

void RenderDiff(std::ostream& out, const DiffSource& base, const DiffSource& next,
                const DiffOptions& options, const DiffResult& result, OutputFormat format);

}  // namespace tensormorph
