// Renders a PredictResult (`tensormorph predict`) as a table, JSON (schema tensormorph.predict/1,
// docs/predict.md) or CSV (one line per row, each target's fields prefixed by its key).
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/predict/predict.h"

namespace tensormorph {

// `evaluation` (predict --measured) may be null; its target_ns is parallel to result.rows.
Json PredictJson(const Trace& trace, const PredictResult& result,
                 const PredictEvaluation* evaluation);

void RenderPredict(std::ostream& out, const Trace& trace, const PredictResult& result,
                   const PredictEvaluation* evaluation, OutputFormat format);

}  // namespace tensormorph
