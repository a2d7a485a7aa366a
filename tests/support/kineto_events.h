// Independent reading of Kineto / Chrome trace files for end-to-end tests: shares no code with
// src/. Files are decompressed with zlib, parsed with nlohmann-json (not simdjson), and decimal
// microsecond values are converted to integer nanoseconds by MicrosTextToNanos from their text,
// never through a double.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tensormorph::testing {

// Exact decimal-µs text → integer ns.

// Converts the decimal text of a microsecond value (e.g. "1712195495505543.2", "12", "-3.0005",
// "1.5e3") to nanoseconds: everything up to the third fractional digit is kept exactly, the rest
// rounds half away from zero. Returns nullopt on malformed text or overflow.
inline std::optional<int64_t> MicrosTextToNanos(const std::string& text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
    negative = text[i] == '-';
    ++i;
  }
  std::string digits;  // all mantissa digits, decimal point removed
  int64_t int_digits = 0;
  bool seen_point = false;
  for (; i < text.size(); ++i) {
    const char c = text[i];
    if (c >= '0' && c <= '9') {
      digits.push_back(c);
      if (!seen_point) ++int_digits;
    } else if ((c == '.' || c == ',') && !seen_point) {
      seen_point = true;
    } else {
      break;
    }
  }
  if (digits.empty()) return std::nullopt;
  int64_t exponent = 0;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    bool exp_negative = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
      exp_negative = text[i] == '-';
      ++i;
    }
    if (i >= text.size()) return std::nullopt;
    for (; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      exponent = exponent * 10 + (text[i] - '0');
      if (exponent > 100000) return std::nullopt;
    }
    if (exp_negative) exponent = -exponent;
  }
  if (i != text.size()) return std::nullopt;

  // value = 0.<digits> * 10^(int_digits + exponent) µs; in ns the decimal point sits after
  // `point` digits.
  const int64_t point = int_digits + exponent + 3;
  __int128 magnitude = 0;
  const __int128 limit = static_cast<__int128>(INT64_MAX);
  for (int64_t k = 0; k < point; ++k) {
    const int d = k < static_cast<int64_t>(digits.size()) ? digits[k] - '0' : 0;
    magnitude = magnitude * 10 + d;
    if (magnitude > limit) return std::nullopt;
  }
  if (point >= 0 && point < static_cast<int64_t>(digits.size()) && digits[point] >= '5') {
    ++magnitude;  // half away from zero: the first dropped digit decides
  }
  if (magnitude > limit) return std::nullopt;
  const auto value = static_cast<int64_t>(magnitude);
  return negative ? -value : value;
}

inline std::string Gunzip(const std::filesystem::path& path, std::string* error) {
  gzFile gz = gzopen(path.c_str(), "rb");
  if (gz == nullptr) {
    *error = "gzopen failed";
    return {};
  }
  std::string data;
  std::vector<char> buf(1 << 20);
  for (;;) {
    const int n = gzread(gz, buf.data(), static_cast<unsigned>(buf.size()));
    if (n < 0) {
      int errnum = 0;
      *error = std::string("gzread failed: ") + gzerror(gz, &errnum);
      gzclose(gz);
      return {};
    }
    if (n == 0) break;
    data.append(buf.data(), static_cast<size_t>(n));
  }
  gzclose(gz);
  return data;
}

// A SAX handler that builds the document like nlohmann's own DOM parser, except that every
// floating-point number is kept as its text (a string value): 1695835573023613.123 µs does not
// fit a double to the nanosecond.
class ExactDomBuilder : public nlohmann::json_sax<nlohmann::json> {
 public:
  using json = nlohmann::json;
  explicit ExactDomBuilder(json* root) : root_(root) {}
  bool null() override { return Put(nullptr); }
  bool boolean(bool v) override { return Put(v); }
  bool number_integer(number_integer_t v) override { return Put(v); }
  bool number_unsigned(number_unsigned_t v) override { return Put(v); }
  bool number_float(number_float_t, const string_t& text) override { return Put(text); }
  bool string(string_t& v) override { return Put(v); }
  bool binary(binary_t&) override { return false; }
  bool start_object(std::size_t) override { return Open(json::object()); }
  bool end_object() override { return Close(); }
  bool start_array(std::size_t) override { return Open(json::array()); }
  bool end_array() override { return Close(); }
  bool key(string_t& k) override {
    key_ = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  json* Put(json value, bool* placed) {
    if (stack_.empty()) {
      *root_ = std::move(value);
      *placed = true;
      return root_;
    }
    json& top = *stack_.back();
    *placed = true;
    if (top.is_array()) {
      top.push_back(std::move(value));
      return &top.back();
    }
    json& slot = top[key_];
    slot = std::move(value);
    return &slot;
  }
  bool Put(json value) {
    bool placed = false;
    Put(std::move(value), &placed);
    return placed;
  }
  bool Open(json container) {
    bool placed = false;
    stack_.push_back(Put(std::move(container), &placed));
    return placed;
  }
  bool Close() {
    stack_.pop_back();
    return true;
  }

  json* root_;
  std::vector<json*> stack_;
  std::string key_;
};

// The whole trace document with floats kept as text; a discarded value on failure.
inline nlohmann::json ReadTraceExact(const std::filesystem::path& path, std::string* error) {
  std::string text = Gunzip(path, error);
  nlohmann::json root;
  if (!error->empty()) return nlohmann::json(nlohmann::json::value_t::discarded);
  ExactDomBuilder builder(&root);
  if (!nlohmann::json::sax_parse(text, &builder)) {
    *error = "parse failed";
    return nlohmann::json(nlohmann::json::value_t::discarded);
  }
  return root;
}

// A ts / dur field of ReadTraceExact's output (an integer, or a float kept as text) in ns.
inline std::optional<int64_t> FieldNanos(const nlohmann::json& value) {
  if (value.is_string()) return MicrosTextToNanos(value.get<std::string>());
  if (value.is_number_integer()) return MicrosTextToNanos(std::to_string(value.get<int64_t>()));
  return std::nullopt;
}

}  // namespace tensormorph::testing
