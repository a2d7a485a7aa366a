#include "import/native/json_fields.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "import/native/native_schema.h"

namespace tensormorph::native {
namespace {

using simdjson::ondemand::json_type;

std::string_view TypeName(value& v) {
  json_type type;
  if (v.type().get(type)) return "malformed JSON";
  switch (type) {
    case json_type::array:
      return "an array";
    case json_type::object:
      return "an object";
    case json_type::number:
      return "a number";
    case json_type::string:
      return "a string";
    case json_type::boolean:
      return "a boolean";
    case json_type::null:
      return "null";
  }
  return "a value";
}

}  // namespace

const char* Where(value& v) {
  return v.raw_json_token().data();
}

std::string Excerpt(value& v) {
  std::string_view token = v.raw_json_token();
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) {
    token.remove_suffix(1);
  }
  if (token.size() > 40) return fmt::format("{}...", token.substr(0, 40));
  return std::string(token);
}

Status FieldReader::ErrorAt(const char* where, std::string message) const {
  return UnreadableInput(std::move(message), locate_(where));
}

Status FieldReader::Error(value& v, std::string_view key, std::string_view what) const {
  return ErrorAt(Where(v), fmt::format("{}.{} {}, not {}", record_, key, what, Excerpt(v)));
}

Status FieldReader::JsonError(simdjson::error_code error, const char* where) const {
  return ErrorAt(where, fmt::format("{} ({})", kSyntaxErrorPrefix, simdjson::error_message(error)));
}

Status FieldReader::Int(value& v, std::string_view key, int64_t min, int64_t max,
                        int64_t* out) const {
  int64_t n = 0;
  const bool is_number = TypeName(v) == std::string_view("a number");
  if (!is_number || v.get_int64().get(n) || n < min || n > max) {
    if (!is_number) return Error(v, key, "must be an integer");
    return Error(v, key, fmt::format("must be an integer from {} to {}", min, max));
  }
  *out = n;
  return Status::Ok();
}

Status FieldReader::UInt(value& v, std::string_view key, uint64_t max, uint64_t* out) const {
  uint64_t n = 0;
  const bool is_number = TypeName(v) == std::string_view("a number");
  if (!is_number || v.get_uint64().get(n) || n > max) {
    if (!is_number) return Error(v, key, "must be an integer");
    return Error(v, key, fmt::format("must be an integer from 0 to {}", max));
  }
  *out = n;
  return Status::Ok();
}

Status FieldReader::TimeNs(value& v, std::string_view key, int64_t* out) const {
  int64_t n = 0;
  if (TypeName(v) != std::string_view("a number") || v.get_int64().get(n) || n < -kMaxTimeNs ||
      n > kMaxTimeNs) {
    return Error(v, key, "must be an integer number of nanoseconds within ±2^62");
  }
  *out = n;
  return Status::Ok();
}

Status FieldReader::Double(value& v, std::string_view key, double* out) const {
  std::string_view text;
  if (v.get_string().get(text) == simdjson::SUCCESS) {
    if (text == "NaN") {
      *out = std::numeric_limits<double>::quiet_NaN();
    } else if (text == "Infinity") {
      *out = std::numeric_limits<double>::infinity();
    } else if (text == "-Infinity") {
      *out = -std::numeric_limits<double>::infinity();
    } else {
      return Error(v, key, "must be a number");
    }
    return Status::Ok();
  }
  if (v.get_double().get(*out)) return Error(v, key, "must be a number");
  return Status::Ok();
}

Status FieldReader::String(value& v, std::string_view key, std::string_view* out) const {
  if (v.get_string().get(*out)) return Error(v, key, "must be a string");
  return Status::Ok();
}

Status FieldReader::Bool(value& v, std::string_view key, bool* out) const {
  if (v.get_bool().get(*out)) return Error(v, key, "must be true or false");
  return Status::Ok();
}

Status FieldReader::Dim(value& v, std::string_view key, Dim3* out) const {
  simdjson::ondemand::array array;
  if (v.get_array().get(array)) return Error(v, key, "must be an array [x, y, z]");
  uint32_t dims[3] = {1, 1, 1};
  size_t count = 0;
  for (auto element : array) {
    value item;
    if (std::move(element).get(item)) return JsonError(element.error(), Where(v));
    if (count == 3) return Error(item, key, "must have at most 3 dimensions");
    uint64_t n = 0;
    TM_RETURN_IF_ERROR(UInt(item, key, UINT32_MAX, &n));
    dims[count++] = static_cast<uint32_t>(n);
  }
  if (count == 0) {
    *out = Dim3{};
  } else {
    *out = Dim3{dims[0], dims[1], dims[2]};
  }
  return Status::Ok();
}

Status FieldReader::Reference(value& v, std::string_view key, bool allow_null,
                              std::optional<int64_t>* out) const {
  simdjson::ondemand::json_type type;
  if (allow_null && !v.type().get(type) && type == simdjson::ondemand::json_type::null) {
    *out = std::nullopt;
    return Status::Ok();
  }
  int64_t id = 0;
  if (v.get_int64().get(id)) {
    return Error(v, key, allow_null ? "must be an integer id or null" : "must be an integer id");
  }
  *out = id;
  return Status::Ok();
}

}  // namespace tensormorph::native
