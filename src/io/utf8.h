// Traces are not always valid UTF-8 (old Kineto wrote raw bytes of kernel and op names; HTA #324),
// and simdjson rejects a whole document for one bad byte. Repairing the text keeps the event.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tensormorph {

// `text` with every byte that is not part of a well-formed UTF-8 sequence replaced by U+FFFD.
// `replaced` counts the replacements.
std::string RepairUtf8(std::string_view text, size_t* replaced);

}  // namespace tensormorph
