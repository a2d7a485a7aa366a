// The JSON document type by name only (nlohmann's own forward declarations): for headers that
// declare functions taking or returning a Json, so that a file including them to call a renderer
// (the command line's commands) does not parse nlohmann/json.hpp. A file that builds, reads or
// writes a Json includes io/json.h (or report/json_output.h).
#pragma once

#include <nlohmann/json_fwd.hpp>

namespace tensormorph {

// nlohmann::ordered_json: keys stay in the order they were written (the documented order).
using Json = nlohmann::ordered_json;

}  // namespace tensormorph
