// `tensormorph whatif`: renders a WhatIfResult as a table (the replay per step, then each
// scenario's step total before and after), JSON (schema tensormorph.whatif/1, docs/whatif.md) or
// CSV (one row per scenario and step).
#pragma once

#include <ostream>
#include <vector>

#include "io/json_fwd.h"
#include "report/output_format.h"
#include "tensormorph/analysis/whatif/whatif.h"

namespace tensormorph {

Json WhatIfJson(const std::vector<const Trace*>& traces, const WhatIfResult& result);

void RenderWhatIf(std::ostream& out, const std::vector<const Trace*>& traces,
                  const WhatIfResult& result, OutputFormat format);

}  // namespace tensormorph
