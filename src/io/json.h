// The JSON document every JSON sink builds and every JSON document reader checks:
// nlohmann::ordered_json, so keys stay in the order they were written (the documented order).
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "io/json_fwd.h"

namespace tensormorph {

// Indented by 2, one trailing newline; strings that are not valid UTF-8 (names from traces) are
// written with U+FFFD in place of the bad bytes instead of throwing. The bytes are those of
// nlohmann's dump(2, ' ', false, replace), written without building the text whole first.
void WriteJson(std::ostream& out, const Json& document);

// An array too large to hold as Json (a timeline's gaps: hundreds of thousands of rows), whose
// element(i) makes element i when it is written.
struct StreamedArray {
  size_t size = 0;
  std::function<Json(size_t)> element;
  // element() may be called from two threads at once: a long array is then written in batches,
  // half of each on a thread of its own (the bytes are the same).
  bool concurrent = false;
};

// The value that stands for arrays[index] in a document given to the WriteJson below: a binary
// value, which no trace name or other content of a document can be.
Json StreamedArrayPlaceholder(size_t index);

// Writes what WriteJson would write for `document` with each placeholder replaced by its array,
// holding one element at a time.
void WriteJson(std::ostream& out, const Json& document, const std::vector<StreamedArray>& arrays);

}  // namespace tensormorph
