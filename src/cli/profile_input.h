// Profiles that `diff` and `report --baseline` compare: a baseline saved by `baseline save`, or a
// trace summarised into one on the fly.
#pragma once

#include <string>

#include "cli/common.h"
#include "tensormorph/analysis/profile/profile.h"
#include "tensormorph/version.h"

namespace tensormorph {

// Reads `path` as a saved baseline, else loads it as a trace (with `load`'s input options) and
// builds its baseline. On failure prints the error (and a note on what the path may be) and
// returns the exit code; else kExitOk, with `is_baseline` saying which it was.
int LoadProfile(const CommonOptions& load, const std::string& path, Baseline* profile,
                bool* is_baseline);

}  // namespace tensormorph
