// Telling a saved baseline from a trace, and reading it. A baseline is recognised by content, as
// traces are: a JSON object whose "schema" is a tensormorph document ("tensormorph.…"); every
// other file is left to the trace importers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "tensormorph/analysis/profile/profile.h"
#include "tensormorph/model/status.h"

namespace tensormorph {

// True when `head` (the start of a file) is a JSON object declaring a tensormorph schema other
// than the native trace format (tensormorph.trace/N), which the importers read.
bool LooksLikeTensormorphDocument(std::string_view head);

// nullopt when `path` is not a tensormorph document (read it as a trace); the baseline when it is
// one; an error (kIoError, or kUnreadableInput with a position) when it cannot be read or is a
// tensormorph document that is not a valid baseline.
StatusOr<std::optional<Baseline>> ReadBaselineFile(const std::string& path);

// Writes the document; kIoError when the file cannot be written.
Status WriteBaselineFile(const std::string& path, const Baseline& baseline);

}  // namespace tensormorph
