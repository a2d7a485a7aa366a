// JSON sinks build nlohmann::ordered_json documents (keys stay in the documented order) and write
// them through here, so that names that are not valid UTF-8 are replaced rather than thrown on.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <vector>

#include "model/trace.h"

namespace tensormorph {

using Json = nlohmann::ordered_json;

void WriteJson(std::ostream& out, const Json& document);

// {"path", "format", "format_version", "backends"} for each input: shared by every command.
Json DescribeInputs(const std::vector<const Trace*>& traces);

}  // namespace tensormorph
