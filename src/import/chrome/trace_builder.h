// After all chunks are merged: resolve devices and the backend, apply the time base, name the
// tracks, sort the tables, and describe the format version.
#pragma once

#include "import/chrome/chunk_merger.h"
#include "import/chrome/trace_metadata.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::chrome {

void BuildChromeTrace(const TopLevelMetadata& meta, MergedChunks& merged, Trace* trace);

}  // namespace tensormorph::chrome
