// The baseline document, tensormorph.baseline/1 (docs/baseline.md): writing it, and
// reading it back with errors that name the position (line:column) of the offending value.
#pragma once

#include <string_view>

#include "io/json.h"
#include "tensormorph/analysis/profile/profile.h"
#include "tensormorph/model/status.h"

namespace tensormorph {

Json BaselineToJson(const Baseline& baseline);

// Parses and checks a whole document. Errors are kUnreadableInput, with the position of the value
// (or of the object lacking a field) when there is one.
StatusOr<Baseline> ParseBaseline(std::string_view text);

}  // namespace tensormorph
