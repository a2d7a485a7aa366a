// `tensormorph critical-path`: renders a CriticalPathResult as tables (per step its length, its
// composition and the pieces with the most time; every piece with --path), JSON (schema
// tensormorph.critical_path/1, docs/critical-path.md) or CSV (one row per piece).
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/job/critical_path.h"

namespace tensormorph {

struct CriticalPathRenderOptions {
  OutputFormat format = OutputFormat::kTable;
  size_t top = 10;           // table: pieces summed by rank, kind and name, per step
  bool every_piece = false;  // table: the whole path
};

// `critical-path --format json`'s document.
Json CriticalPathJson(const std::vector<const Trace*>& traces, const CriticalPathResult& result);

// One of its steps without the "path" (which CriticalPathJson appends): {"step", "input",
// "start_ns", "end_ns", "length_ns", "end_rank", "ranks", "composition"}; the HTML report embeds
// it.
Json CriticalPathStepJson(const std::vector<const Trace*>& traces, const CriticalPathStep& step);

void RenderCriticalPath(std::ostream& out, const std::vector<const Trace*>& traces,
                        const CriticalPathResult& result, const CriticalPathRenderOptions& render);

}  // namespace tensormorph
