// What every JSON report shares: the document type and its writer (io/json.h), the inputs block,
// and how an absent value is written.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "io/json.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

// {"path", "format", "format_version", "backends"} for each input: shared by every command.
Json DescribeInputs(const std::vector<const Trace*>& traces);

// The one way an absent value is written: the value, or null. Text where "" means "none" and a
// name that may be missing (a null const char*) are absent the same way.
template <typename T>
Json OrNull(const std::optional<T>& value) {
  return value ? Json(*value) : Json(nullptr);
}
inline Json OrNull(const std::string& text) {
  return text.empty() ? Json(nullptr) : Json(text);
}
inline Json OrNull(const char* name) {
  return name != nullptr ? Json(name) : Json(nullptr);
}

}  // namespace tensormorph
