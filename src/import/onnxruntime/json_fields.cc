#include "import/onnxruntime/json_fields.h"

#include <fmt/format.h>

#include "import/common/op_inputs_json.h"

namespace tensormorph::onnxruntime {

using nlohmann::json;

const json& Member(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string Str(const json& object, const char* key) {
  const json& v = Member(object, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

std::optional<int64_t> Int(const json& object, const char* key) {
  const json& v = Member(object, key);
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(v.get<uint64_t>());
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s.empty() || s.size() > 18) return std::nullopt;
    int64_t out = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      out = out * 10 + (c - '0');
    }
    return out;
  }
  return std::nullopt;
}

std::optional<OpInputs> InputsOf(const json& shapes) {
  if (!shapes.is_array() || shapes.empty()) return std::nullopt;
  json dims = json::array(), types = json::array();
  for (const json& entry : shapes) {
    if (!entry.is_object() || entry.size() != 1) return std::nullopt;
    dims.push_back(entry.begin().value());
    types.push_back(entry.begin().key());
  }
  return OpInputsFromValues(dims, &types);
}

}  // namespace tensormorph::onnxruntime
