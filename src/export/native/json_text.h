// Appends JSON text to a buffer: the few pieces the native trace writer needs, fast enough for
// traces of millions of rows (no DOM, no allocation per value).
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <string_view>

namespace tensormorph::native {

// `text` as a JSON string literal. Bytes that are not well-formed UTF-8 become U+FFFD, since JSON
// text must be UTF-8 (importers already repair names, so this is for robustness only).
void AppendJsonString(fmt::memory_buffer* out, std::string_view text);

// A double that reads back to the same value: the shortest round-trip form; NaN and infinities
// (which JSON numbers cannot spell) as the strings "NaN", "Infinity", "-Infinity".
void AppendJsonDouble(fmt::memory_buffer* out, double value);

// One JSON object, written member by member: {"a":1,"b":"x"}.
class ObjectWriter {
 public:
  explicit ObjectWriter(fmt::memory_buffer* out) : out_(out) { out_->push_back('{'); }
  void Close() { out_->push_back('}'); }

  void String(std::string_view key, std::string_view value) {
    Key(key);
    AppendJsonString(out_, value);
  }
  void Int(std::string_view key, int64_t value) {
    Key(key);
    fmt::format_to(std::back_inserter(*out_), "{}", value);
  }
  void UInt(std::string_view key, uint64_t value) {
    Key(key);
    fmt::format_to(std::back_inserter(*out_), "{}", value);
  }
  void Double(std::string_view key, double value) {
    Key(key);
    AppendJsonDouble(out_, value);
  }
  void Bool(std::string_view key, bool value) {
    Key(key);
    out_->append(std::string_view(value ? "true" : "false"));
  }
  // A member whose value is JSON text the caller vouches for.
  void Raw(std::string_view key, std::string_view json) {
    Key(key);
    out_->append(json);
  }
  // The buffer, for a member's value written after Key().
  fmt::memory_buffer* out() const { return out_; }
  // A member whose value the caller writes next (raw JSON text, an array, an object).
  void Key(std::string_view key) {
    if (!first_) out_->push_back(',');
    first_ = false;
    AppendJsonString(out_, key);
    out_->push_back(':');
  }

 private:
  fmt::memory_buffer* out_;
  bool first_ = true;
};

}  // namespace tensormorph::native
