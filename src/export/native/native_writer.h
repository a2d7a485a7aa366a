// Writes a Trace in the native Tensormorph trace format (docs/native-format.md), in either layout:
// one JSON object, or NDJSON (a header line, then one record per line). Both layouts write the same
// records; every field of the model is written, fields equal to their documented default left out.
#pragma once

#include <cstdio>
#include <string>

#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::native {

enum class Layout { kJson, kNdjson };

// Writes `trace` to `file`; `output_name` names the file in errors. Returns an I/O error when a
// write fails (the disk is full, the pipe closed).
Status WriteNativeTrace(const Trace& trace, Layout layout, std::FILE* file,
                        const std::string& output_name);

}  // namespace tensormorph::native
