// Text placed in HTML or SVG (XML): the five markup characters as entities, and control
// characters that XML 1.0 does not allow at all as spaces. Kernel names hold all of them
// (templates: <, >, &).
#pragma once

#include <string>
#include <string_view>

namespace tensormorph {

std::string EscapeMarkup(std::string_view text);

}  // namespace tensormorph
