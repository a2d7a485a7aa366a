// Reading ORT's hand-written event JSON: members that may be absent, integers that ORT writes as
// numbers (ts, dur) or as strings of digits (most args).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "tensormorph/model/op_inputs.h"

namespace tensormorph::onnxruntime {

// object[key], or null when `object` is not an object or lacks the key.
const nlohmann::json& Member(const nlohmann::json& object, const char* key);

// object[key] when it is a string, else "".
std::string Str(const nlohmann::json& object, const char* key);

// object[key] as an integer: a JSON integer, or a string of at most 18 decimal digits.
std::optional<int64_t> Int(const nlohmann::json& object, const char* key);

// The op's arguments (Trace::op_inputs: dims [[1,3,224,224], ...], types ["float", ...]) from
// ORT's input_type_shape [{"float": [1,3,224,224]}, ...]; none when absent or shaped otherwise.
std::optional<OpInputs> InputsOf(const nlohmann::json& shapes);

}  // namespace tensormorph::onnxruntime
