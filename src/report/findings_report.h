// `tensormorph findings`: renders a FindingsResult as a ranked table with each finding's top
// items and fix, JSON (schema tensormorph.findings/1, README "Findings") or CSV (one row per
// finding, evidence as "key=value; ..." text).
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/findings/findings.h"

namespace tensormorph {

// One finding as JSON writes it: {"rule", "severity", "title", "estimated_gain_ns",
// "gain_percent", "gain_basis", "where", "evidence", "top", "fix"}.
Json FindingJson(const Finding& finding);

void RenderFindings(std::ostream& out, const std::vector<const Trace*>& traces,
                    const FindingsResult& result, OutputFormat format);

}  // namespace tensormorph
