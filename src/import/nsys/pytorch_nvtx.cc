#include "import/nsys/pytorch_nvtx.h"

#include <charconv>

namespace tensormorph::nsys {
namespace {

// The integer right after `key` in `fields`, or nullopt.
std::optional<int64_t> IntField(std::string_view fields, std::string_view key) {
  const size_t at = fields.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  const char* begin = fields.data() + at + key.size();
  int64_t value = 0;
  auto [end, ec] = std::from_chars(begin, fields.data() + fields.size(), value);
  if (ec != std::errc() || end == begin) return std::nullopt;
  return value;
}

// The bracketed value after `key`, brackets balanced: "[[2, 3], [3]]".
std::string_view BracketField(std::string_view fields, std::string_view key) {
  const size_t at = fields.find(key);
  if (at == std::string_view::npos) return {};
  const size_t open = at + key.size();
  if (open >= fields.size() || fields[open] != '[') return {};
  int depth = 0;
  for (size_t i = open; i < fields.size(); ++i) {
    if (fields[i] == '[') ++depth;
    if (fields[i] == ']' && --depth == 0) return fields.substr(open, i - open + 1);
  }
  return {};
}

}  // namespace

std::optional<PytorchNvtxRange> ParsePytorchNvtxRange(std::string_view text) {
  // The name ends at the first ", seq = " or ", op_id = " (op names hold no such text).
  size_t cut = text.find(", seq = ");
  const size_t op_id_at = text.find(", op_id = ");
  if (op_id_at < cut) cut = op_id_at;
  if (cut == std::string_view::npos || cut == 0) return std::nullopt;
  const std::string_view fields = text.substr(cut);
  PytorchNvtxRange range;
  range.name = text.substr(0, cut);
  range.op_id = IntField(fields, ", op_id = ").value_or(-1);
  if (range.op_id < 0 && !IntField(fields, ", seq = ")) return std::nullopt;
  range.sizes = BracketField(fields, ", sizes = ");
  return range;
}

}  // namespace tensormorph::nsys
