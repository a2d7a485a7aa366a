#include <cstdint>
#include <optional>
#include <string>

#include "import/xplane/xplane_importer.h"

namespace tensormorph::xplane {
namespace {

// A base-128 varint of at most 10 bytes; nullopt when it runs past the end or is too long.
std::optional<uint64_t> ReadVarint(std::string_view data, size_t* pos) {
  uint64_t value = 0;
  for (int shift = 0; shift < 64 && *pos < data.size(); shift += 7) {
    const uint8_t byte = static_cast<uint8_t>(data[(*pos)++]);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return value;
  }
  return std::nullopt;
}

int SniffPlane(std::string_view head) {
  size_t pos = 0;
  if (head.empty() || static_cast<uint8_t>(head[pos++]) != 0x0a) return 0;  // field 1, LEN
  std::optional<uint64_t> plane_size = ReadVarint(head, &pos);
  if (!plane_size || *plane_size < 3) return 0;
  if (pos < head.size() && static_cast<uint8_t>(head[pos]) == 0x08) {  // XPlane.id, varint
    ++pos;
    if (!ReadVarint(head, &pos)) return 0;
  }
  if (pos >= head.size() || static_cast<uint8_t>(head[pos++]) != 0x12) return 0;  // name, LEN
  std::optional<uint64_t> name_size = ReadVarint(head, &pos);
  if (!name_size || *name_size == 0 || *name_size > 4096 || *name_size > *plane_size) return 0;
  const std::string_view name = head.substr(pos, *name_size);
  for (std::string_view known : {"/host:", "/device:", "Task Environment"}) {
    const size_t n = std::min(name.size(), known.size());
    if (n >= 5 && name.substr(0, n) == known.substr(0, n)) return 90;
  }
  return 0;
}

}  // namespace

int SniffXSpace(std::string_view head) {
  if (int score = SniffPlane(head)) return score;
  // The registry hands over the head without leading whitespace bytes, and the plane tag 0x0a
  // is '\n': look again as if it had been there.
  if (head.empty() || head[0] == '\x0a') return 0;
  std::string restored(1, '\x0a');
  restored.append(head.substr(0, 256));
  return SniffPlane(restored);
}

}  // namespace tensormorph::xplane
