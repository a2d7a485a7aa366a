#include "import/webgpu/json_decimal.h"

#include <string>

#include "model/time.h"

namespace tensormorph::webgpu {
namespace {

using nlohmann::json;

// Forwards every SAX event to nlohmann's own DOM builder, except floats, which become strings.
class DecimalKeepingSax {
 public:
  DecimalKeepingSax(json* root, JsonError* error) : dom_(*root, false), error_(error) {}
  bool null() { return dom_.null(); }
  bool boolean(bool v) { return dom_.boolean(v); }
  bool number_integer(json::number_integer_t v) { return dom_.number_integer(v); }
  bool number_unsigned(json::number_unsigned_t v) { return dom_.number_unsigned(v); }
  bool number_float(json::number_float_t, const std::string& text) {
    std::string copy = text;
    return dom_.string(copy);
  }
  bool string(std::string& v) { return dom_.string(v); }
  bool binary(json::binary_t& v) { return dom_.binary(v); }
  bool start_object(std::size_t n) { return dom_.start_object(n); }
  bool key(std::string& k) { return dom_.key(k); }
  bool end_object() { return dom_.end_object(); }
  bool start_array(std::size_t n) { return dom_.start_array(n); }
  bool end_array() { return dom_.end_array(); }
  template <typename Exception>
  bool parse_error(std::size_t position, const std::string&, const Exception& ex) {
    error_->byte_offset = position == 0 ? 0 : position - 1;
    error_->message = ex.what();
    return false;
  }

 private:
  nlohmann::detail::json_sax_dom_parser<json> dom_;
  JsonError* error_;
};

}  // namespace

std::optional<json> ParseJsonKeepingDecimals(std::string_view text, JsonError* error) {
  json root;
  DecimalKeepingSax sax(&root, error);
  error->message.clear();
  bool ok = false;
  try {
    ok = json::sax_parse(text.begin(), text.end(), &sax);
  } catch (const json::exception& ex) {  // size limits inside the DOM builder
    error->message = ex.what();
    ok = false;
  }
  if (!ok) {
    if (error->message.empty()) error->message = "not valid JSON";
    return std::nullopt;
  }
  return root;
}

std::optional<int64_t> ScaledNumber(const json& value, int scale) {
  if (value.is_number_integer() || value.is_number_unsigned()) {
    return ParseScaledDecimal(value.dump(), scale);
  }
  if (value.is_string()) return ParseScaledDecimal(value.get_ref<const std::string&>(), scale);
  return std::nullopt;
}

const json& Member(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string StringMember(const json& object, const char* key) {
  const json& v = Member(object, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

}  // namespace tensormorph::webgpu
