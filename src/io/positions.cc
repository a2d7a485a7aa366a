#include "io/positions.h"

#include <algorithm>
#include <numeric>

#include "tensormorph/io/block_reader.h"

namespace tensormorph {

std::vector<SourcePosition> ResolveOffsets(const std::string& path,
                                           const std::vector<uint64_t>& offsets) {
  std::vector<SourcePosition> positions(offsets.size());
  if (offsets.empty()) return positions;
  std::vector<size_t> order(offsets.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return offsets[a] < offsets[b]; });

  StatusOr<std::unique_ptr<BlockReader>> reader = BlockReader::Open(path);
  uint64_t line = 1, line_start = 0, offset = 0;
  size_t next = 0;
  std::vector<char> block;
  while (reader.ok() && next < order.size() && (*reader)->Next(&block)) {
    for (size_t i = 0; i < block.size() && next < order.size(); ++i, ++offset) {
      while (next < order.size() && offsets[order[next]] == offset) {
        positions[order[next++]] = {line, offset - line_start + 1, offset};
      }
      if (block[i] == '\n') {
        ++line;
        line_start = offset + 1;
      }
    }
  }
  for (; next < order.size(); ++next) {
    positions[order[next]] = {line, offset - line_start + 1, offsets[order[next]]};
  }
  return positions;
}

Status WithLineAndColumn(const std::string& path, Status status) {
  if (status.ok() || status.position().byte_offset == SourcePosition::kNoOffset ||
      status.position().line != 0) {
    return status;
  }
  SourcePosition position = ResolveOffsets(path, {status.position().byte_offset})[0];
  return {status.code(), status.message(), position};
}

}  // namespace tensormorph
