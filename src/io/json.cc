#include "io/json.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <future>
#include <string>
#include <string_view>

namespace tensormorph {
namespace {

constexpr size_t kIndentStep = 2;
constexpr size_t kFlushBytes = 1 << 20;
constexpr size_t kBatch = 8192;  // elements of a concurrent StreamedArray per thread and batch

// Writes a Json value as nlohmann's dump(2, ' ', false, replace) does, byte for byte, but
// straight into a buffer flushed to the stream, with a fast path for the strings traces are made
// of (printable ASCII) and StreamedArray placeholders replaced by their elements as they come.
// Everything nlohmann formats in its own way (floating point numbers, strings with escapes or
// non-ASCII bytes) is formatted by nlohmann itself, so the output cannot drift from it.
class Writer {
 public:
  // `out` null: everything stays in buffer() (a part of an array written on another thread).
  Writer(std::ostream* out, const std::vector<StreamedArray>& arrays)
      : out_(out), arrays_(arrays) {}
  ~Writer() { Flush(); }

  void Value(const Json& value, size_t indent) {
    switch (value.type()) {
      case Json::value_t::object:
        Object(value, indent);
        break;
      case Json::value_t::array:
        Array(value, indent);
        break;
      case Json::value_t::string:
        String(value.get_ref<const std::string&>());
        break;
      case Json::value_t::binary:
        if (const StreamedArray* streamed = StreamedFor(value)) {
          Streamed(*streamed, indent);
        } else {
          buffer_ += Dump(value);
        }
        break;
      case Json::value_t::number_integer:
        Integer(value.get<int64_t>());
        break;
      case Json::value_t::number_unsigned:
        Integer(value.get<uint64_t>());
        break;
      case Json::value_t::boolean:
        buffer_ += value.get<bool>() ? "true" : "false";
        break;
      case Json::value_t::null:
        buffer_ += "null";
        break;
      default:  // floating point (and what dump() alone knows how to spell)
        buffer_ += Dump(value);
        break;
    }
    if (buffer_.size() >= kFlushBytes) Flush();
  }

  void Flush() {
    if (out_ == nullptr) return;
    *out_ << buffer_;
    buffer_.clear();
  }

  std::string& buffer() { return buffer_; }

 private:
  static std::string Dump(const Json& value) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }

  // Without the heap allocation of std::to_string for a number past its small-string buffer (a
  // timestamp in ns has 19 digits).
  template <typename Int>
  void Integer(Int v) {
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, v);
    buffer_.append(digits, end);
  }

  void String(const std::string& text) {
    if (!IsPlainAscii(text)) {
      buffer_ += Dump(Json(text));  // escapes, UTF-8 checks and U+FFFD: nlohmann's own
      return;
    }
    buffer_ += '"';
    buffer_ += text;
    buffer_ += '"';
  }

  // True when no byte of `text` needs an escape or a UTF-8 check: printable ASCII other than
  // '"' and '\\'. Eight bytes at a time (kernel names run to hundreds of bytes): a byte b is
  // flagged when b < 0x20, b >= 0x7f, or b equals one of the two quotes, with the carry-free
  // byte tests of "Bit Twiddling Hacks" (has-less-than and has-zero-byte on b ^ c).
  static bool IsPlainAscii(std::string_view text) {
    constexpr uint64_t kOnes = 0x0101010101010101ULL, kHigh = 0x8080808080808080ULL;
    auto has_zero = [](uint64_t x) { return (x - kOnes) & ~x & kHigh; };
    size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, text.data() + i, 8);
      const uint64_t below_space = (w - kOnes * 0x20) & ~w & kHigh;
      const uint64_t del_or_high = ((w & ~kHigh) + kOnes * 0x01) & kHigh;  // b & 0x7f == 0x7f
      if ((w & kHigh) | below_space | del_or_high | has_zero(w ^ (kOnes * '"')) |
          has_zero(w ^ (kOnes * '\\'))) {
        break;  // a byte of this word may need care: the byte loop below decides
      }
    }
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') return false;
    }
    return true;
  }

  void Object(const Json& object, size_t indent) {
    if (object.empty()) {
      buffer_ += "{}";
      return;
    }
    buffer_ += "{\n";
    bool first = true;
    for (auto it = object.begin(); it != object.end(); ++it) {
      if (!first) buffer_ += ",\n";
      first = false;
      buffer_.append(indent + kIndentStep, ' ');
      String(it.key());
      buffer_ += ": ";
      Value(it.value(), indent + kIndentStep);
    }
    buffer_ += '\n';
    buffer_.append(indent, ' ');
    buffer_ += '}';
  }

  void Array(const Json& array, size_t indent) {
    Elements(
        array.size(), [&array](size_t i) -> const Json& { return array[i]; }, indent);
  }

  void Streamed(const StreamedArray& streamed, size_t indent) {
    if (!streamed.concurrent || streamed.size < 2 * kBatch) {
      Elements(streamed.size, streamed.element, indent);
      return;
    }
    // Batches of 2 x kBatch elements: the first half written on a thread of its own, the second
    // here, then both appended in order; memory stays at one batch's text.
    buffer_ += "[\n";
    for (size_t from = 0; from < streamed.size; from += 2 * kBatch) {
      const size_t middle = std::min(from + kBatch, streamed.size);
      const size_t to = std::min(from + 2 * kBatch, streamed.size);
      std::future<std::string> first = std::async(
          std::launch::async, [&, from, middle] { return Part(streamed, from, middle, indent); });
      const std::string second = Part(streamed, middle, to, indent);
      buffer_ += first.get();
      buffer_ += second;
      Flush();
    }
    buffer_ += '\n';
    buffer_.append(indent, ' ');
    buffer_ += ']';
  }

  // Elements [from, to) of `streamed` as they stand between its brackets.
  std::string Part(const StreamedArray& streamed, size_t from, size_t to, size_t indent) const {
    Writer part(nullptr, arrays_);
    for (size_t i = from; i < to; ++i) {
      if (i > 0) part.buffer_ += ",\n";
      part.buffer_.append(indent + kIndentStep, ' ');
      part.Value(streamed.element(i), indent + kIndentStep);
    }
    return std::move(part.buffer_);
  }

  // An array of `count` elements, element i being element_at(i).
  template <typename ElementAt>
  void Elements(size_t count, const ElementAt& element_at, size_t indent) {
    if (count == 0) {
      buffer_ += "[]";
      return;
    }
    buffer_ += "[\n";
    for (size_t i = 0; i < count; ++i) {
      if (i > 0) buffer_ += ",\n";
      buffer_.append(indent + kIndentStep, ' ');
      Value(element_at(i), indent + kIndentStep);
    }
    buffer_ += '\n';
    buffer_.append(indent, ' ');
    buffer_ += ']';
  }

  const StreamedArray* StreamedFor(const Json& placeholder) const {
    const Json::binary_t& binary = placeholder.get_binary();
    if (!binary.empty() || !binary.has_subtype() || binary.subtype() >= arrays_.size()) {
      return nullptr;
    }
    return &arrays_[binary.subtype()];
  }

  std::ostream* out_;
  const std::vector<StreamedArray>& arrays_;
  std::string buffer_;
};

}  // namespace

Json StreamedArrayPlaceholder(size_t index) {
  return Json::binary({}, static_cast<std::uint64_t>(index));
}

void WriteJson(std::ostream& out, const Json& document) {
  WriteJson(out, document, {});
}

void WriteJson(std::ostream& out, const Json& document, const std::vector<StreamedArray>& arrays) {
  Writer writer(&out, arrays);
  writer.Value(document, 0);
  writer.buffer() += '\n';
}

}  // namespace tensormorph
