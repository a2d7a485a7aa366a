// The model keeps an op's recorded inputs as one interned JSON text (Slice::inputs):
// {"dims": <Input Dims>, "types": <Input type>, "concrete": <Concrete Inputs>}. Exporters write the
// three parts back as separate values, byte for byte as the importer kept them.
#pragma once

#include <string_view>

namespace tensormorph::chrome_json {

struct SliceInputs {
  std::string_view dims, types, concrete;  // raw JSON text of each member; empty when absent
};

// Splits `text` into its members. False when `text` is not valid JSON (UTF-8 included) or not an
// object: the caller must then not paste any of it into JSON output.
bool SplitSliceInputs(std::string_view text, SliceInputs* out);

}  // namespace tensormorph::chrome_json
