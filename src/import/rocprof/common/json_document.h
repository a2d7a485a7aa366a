// A rocprof JSON output (rocprofv3's results.json, rocprof v1's Chrome trace) read and parsed
// whole with nlohmann-json: these files are results.csv-sized, and both readers walk the document
// more than once.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "tensormorph/io/input.h"
#include "tensormorph/model/status.h"

namespace tensormorph::rocprof {

// The input's document; text that is not JSON is an error at 1:1 naming `what` ("rocprofv3
// results.json"), as a cut-off file is the usual cause. A gzip member's warning goes to
// `gzip_warning`.
StatusOr<nlohmann::json> ReadJsonDocument(const Input& input, std::string_view what,
                                          std::string* gzip_warning);

}  // namespace tensormorph::rocprof
