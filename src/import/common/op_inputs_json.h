// Filling the model's op-argument table (model/op_inputs.h) from the JSON the sources write: the
// lists as text (Kineto's args, NVTX ranges), the native format's one object, or values an
// importer collected. The rules of what reads as a shape, and what makes a trace disagree with
// itself (OpInputs::consistent), live here.
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string_view>

#include "tensormorph/model/op_inputs.h"

namespace tensormorph {

// From each list's JSON text as the source spelled it ("" = the source has no such list):
// Kineto's "Input Dims", "Input type", "Concrete Inputs" and "Input Strides". The spelling of the
// first three is kept for the exporters; strides are typed only. Text that is not JSON gives a
// set whose spelling is not JSON (OpInputs::Spelling::json) and that no analysis reads.
OpInputs OpInputsFromLists(std::string_view dims, std::string_view types, std::string_view values,
                           std::string_view strides = {});

// From one object {"dims": [...], "types": [...], "concrete": [...]} (the native format's
// slice.inputs; what the model kept as text before the table).
OpInputs OpInputsFromObjectText(std::string_view text);

// From values an importer collected: `dims` an array with one entry per argument (a shape, null,
// anything the source had); `types`, when not null, an array of the same length of dtype names.
// No spelling: the exporters write the lists as compact JSON.
OpInputs OpInputsFromValues(const nlohmann::json& dims, const nlohmann::json* types = nullptr);

}  // namespace tensormorph
