// Renders a DiffResult as a table, JSON (schema tensormorph.diff/1, README "tensormorph diff") or
// CSV.
#pragma once

#include <ostream>
#include <string>

#include "analysis/diff/diff.h"
#include "report/output_format.h"

namespace tensormorph {

// One side of the comparison as the user named it.
struct DiffSource {
  std::string path;
  bool is_baseline = false;  // a saved baseline rather than a trace
};

void RenderDiff(std::ostream& out, const DiffSource& base, const DiffSource& next,
                const DiffOptions& options, const DiffResult& result, OutputFormat format);

}  // namespace tensormorph
