// JSON for WebGPU profiles, read with nlohmann's SAX interface so that every non-integer number
// keeps its decimal text: times such as tf.profile()'s kernelTimeMs (0.1234 ms) then convert to
// integer ns exactly (ParseScaledDecimal), never through a double.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace tensormorph::webgpu {

struct JsonError {
  uint64_t byte_offset = 0;  // into the parsed text
  std::string message;
};

// The document, with every non-integer number (and every integer too large for 64 bits) stored as
// a JSON string of its text; nullopt with `error` set when the text is not JSON.
std::optional<nlohmann::json> ParseJsonKeepingDecimals(std::string_view text, JsonError* error);

// A number member of a document from ParseJsonKeepingDecimals, times 10^scale, exactly (half away
// from zero); decimal text in a string is accepted the same way. nullopt when absent, not a
// number, or outside int64.
std::optional<int64_t> ScaledNumber(const nlohmann::json& value, int scale);

// The member `key` of an object, or null.
const nlohmann::json& Member(const nlohmann::json& object, const char* key);
std::string StringMember(const nlohmann::json& object, const char* key);

}  // namespace tensormorph::webgpu
