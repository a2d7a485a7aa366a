#include "io/json_position.h"

#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tensormorph {
namespace {

// A char iterator that counts how far nlohmann's lexer has read: the lexer pulls one character
// at a time, so the count is the end of the token it last returned (plus at most one character of
// lookahead after a number).
class CountingIterator {
 public:
  using iterator_category = std::forward_iterator_tag;
  using value_type = char;
  using difference_type = std::ptrdiff_t;
  using pointer = const char*;
  using reference = const char&;

  CountingIterator(const char* at, uint64_t* consumed) : at_(at), consumed_(consumed) {}
  reference operator*() const { return *at_; }
  CountingIterator& operator++() {
    ++at_;
    ++*consumed_;
    return *this;
  }
  CountingIterator operator++(int) {
    CountingIterator old = *this;
    ++*this;
    return old;
  }
  bool operator==(const CountingIterator& o) const { return at_ == o.at_; }
  bool operator!=(const CountingIterator& o) const { return at_ != o.at_; }

 private:
  const char* at_;
  uint64_t* consumed_;
};

// Follows the JSON pointer of the current value; stops the parse when it reaches `target`.
class PointerFinder : public nlohmann::json_sax<nlohmann::json> {
 public:
  PointerFinder(std::string_view text, std::string target, const uint64_t* consumed)
      : text_(text), target_(std::move(target)), consumed_(consumed) {}

  uint64_t found() const { return found_; }

  bool null() override { return Value(); }
  bool boolean(bool) override { return Value(); }
  bool number_integer(number_integer_t) override { return Value(); }
  bool number_unsigned(number_unsigned_t) override { return Value(); }
  bool number_float(number_float_t, const string_t&) override { return Value(); }
  bool string(string_t&) override { return Value(); }
  bool binary(binary_t&) override { return Value(); }
  bool start_object(std::size_t) override { return Open('{'); }
  bool start_array(std::size_t) override { return Open('['); }
  bool end_object() override { return Close(); }
  bool end_array() override { return Close(); }
  bool key(string_t& k) override {
    frames_.back().key = Escape(k);
    mark_ = *consumed_;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  struct Frame {
    bool array = false;
    size_t next_index = 0;
    std::string key;
  };

  static std::string Escape(const std::string& key) {
    std::string out;
    for (char c : key) {
      if (c == '~') {
        out += "~0";
      } else if (c == '/') {
        out += "~1";
      } else {
        out += c;
      }
    }
    return out;
  }

  // The pointer of the value that starts now; advances the enclosing array's index.
  std::string CurrentPointer() {
    std::string p;
    for (Frame& f : frames_) {
      p += '/';
      p +=
          f.array ? std::to_string(&f == &frames_.back() ? f.next_index : f.next_index - 1) : f.key;
    }
    if (!frames_.empty() && frames_.back().array) ++frames_.back().next_index;
    return p;
  }

  // A value starts at the first character after the previous token that is not a separator.
  bool Found() {
    uint64_t at = mark_;
    while (at < text_.size() && std::string_view(" \t\r\n,:").find(text_[at]) != std::string::npos)
      ++at;
    found_ = at;
    return false;
  }

  bool Value() {
    if (CurrentPointer() == target_) return Found();
    mark_ = *consumed_;
    return true;
  }
  bool Open(char bracket) {
    if (CurrentPointer() == target_) return Found();
    Frame frame;
    frame.array = bracket == '[';
    frames_.push_back(std::move(frame));
    mark_ = *consumed_;
    return true;
  }
  bool Close() {
    frames_.pop_back();
    mark_ = *consumed_;
    return true;
  }

  std::string_view text_;
  std::string target_;
  const uint64_t* consumed_;
  std::vector<Frame> frames_;
  uint64_t mark_ = 0;
  uint64_t found_ = SourcePosition::kNoOffset;
};

}  // namespace

uint64_t OffsetOfJsonValue(std::string_view text, std::string_view pointer) {
  uint64_t consumed = 0;
  PointerFinder finder(text, std::string(pointer), &consumed);
  CountingIterator first(text.data(), &consumed), last(text.data() + text.size(), &consumed);
  nlohmann::json::sax_parse(first, last, &finder);
  return finder.found();
}

SourcePosition PositionInText(std::string_view text, uint64_t offset) {
  if (offset > text.size()) offset = text.size();
  SourcePosition p;
  p.byte_offset = offset;
  p.line = 1;
  p.column = 1;
  for (uint64_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++p.line;
      p.column = 1;
    } else {
      ++p.column;
    }
  }
  return p;
}

}  // namespace tensormorph
