// The JSON document every JSON sink builds and every JSON document reader checks:
// nlohmann::ordered_json, so keys stay in the order they were written (the documented order).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace tensormorph {

using Json = nlohmann::ordered_json;

// Indented by 2, one trailing newline; strings that are not valid UTF-8 (names from traces) are
// written with U+FFFD in place of the bad bytes instead of throwing.
void WriteJson(std::ostream& out, const Json& document);

}  // namespace tensormorph
