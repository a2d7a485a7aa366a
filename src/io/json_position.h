// Where a value sits in JSON text, for error messages about documents read through nlohmann-json
// (whose DOM forgets positions): the text is scanned once more, on the error path only.
#pragma once

#include <cstdint>
#include <string_view>

#include "tensormorph/model/status.h"

namespace tensormorph {

// The byte offset where the value at `pointer` (RFC 6901, e.g. "/kernels/3/count") starts, or
// SourcePosition::kNoOffset when the text has no such value.
uint64_t OffsetOfJsonValue(std::string_view text, std::string_view pointer);

// 1-based line and column (in bytes) of `offset` in `text`; offsets past the end get the end.
SourcePosition PositionInText(std::string_view text, uint64_t offset);

}  // namespace tensormorph
