// Turns byte offsets into (decompressed) content into 1-based line:column, by reading the input
// once more. Only used on the error path, so the fast path never counts newlines.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensormorph/model/status.h"

namespace tensormorph {

// Positions for `offsets` (any order), in the same order. Offsets past the end get the last line.
std::vector<SourcePosition> ResolveOffsets(const std::string& path,
                                           const std::vector<uint64_t>& offsets);

// Fills in line/column of a status that carries only a byte offset.
Status WithLineAndColumn(const std::string& path, Status status);

}  // namespace tensormorph
