#include "import/chrome/event_splitter.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <cstring>

#if defined(__AVX2__)
#include <immintrin.h>
#endif
#include <string>
#include <utility>

namespace tensormorph::chrome {
namespace {

bool IsSpace(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// One event larger than this is not a trace event; the input is something else.
constexpr size_t kMaxEventBytes = size_t{1} << 30;

}  // namespace

Status EventSplitter::Error(const std::string& what) const {
  return UnreadableInput(what, SourcePosition::AtOffset(content_offset_));
}

void EventSplitter::StartChunk(const char* data, size_t size, uint64_t content_offset) {
  if (buffer_.capacity() == 0) buffer_ = pool_->Take();
  buffer_.clear();
  buffer_.push_back('[');
  buffer_.insert(buffer_.end(), data, data + size);
  buffer_content_offset_ = content_offset;
  scan_pos_ = 1;
  last_event_end_ = 0;
}

Status EventSplitter::Feed(const char* data, size_t size, std::vector<EventChunk>* out) {
  size_t pos = 0;
  while (pos < size) {
    switch (mode_) {
      case Mode::kBeforeRoot: {
        // A UTF-8 byte order mark is tolerated at the very start.
        if (content_offset_ == 0 && size - pos >= 3 &&
            std::memcmp(data + pos, "\xEF\xBB\xBF", 3) == 0) {
          pos += 3;
          content_offset_ += 3;
          continue;
        }
        char c = data[pos];
        if (IsSpace(c)) {
          ++pos;
          ++content_offset_;
          continue;
        }
        if (c == '[') {
          root_ = Root::kArray;
          mode_ = Mode::kEvents;
          saw_trace_events_ = true;
          metadata_ = "{}";
          ++pos;
          ++content_offset_;
          StartChunk(nullptr, 0, content_offset_);
        } else if (c == '{') {
          root_ = Root::kObject;
          mode_ = Mode::kTopLevel;
          // The '{' itself is processed by FeedTopLevel.
        } else {
          const std::string found =
              c >= 32 && c < 127 ? fmt::format("'{}'", c)
                                 : fmt::format("byte 0x{:02x}", static_cast<unsigned char>(c));
          return Error(fmt::format("not a JSON trace: expected '[' or '{{' but found {}", found));
        }
        break;
      }
      case Mode::kTopLevel: {
        size_t consumed = 0;
        TM_RETURN_IF_ERROR(FeedTopLevel(data + pos, size - pos, &consumed));
        pos += consumed;
        content_offset_ += consumed;
        if (mode_ == Mode::kEvents) StartChunk(nullptr, 0, content_offset_);
        break;
      }
      case Mode::kEvents: {
        size_t old_size = buffer_.size();
        buffer_.insert(buffer_.end(), data + pos, data + size);
        ScanEvents(out);
        if (event_depth_ > 0 && scan_pos_ - event_begin_ > kMaxEventBytes) {
          return UnreadableInput(
              "an event in traceEvents is larger than 1 GiB; this is not a trace",
              SourcePosition::AtOffset(buffer_content_offset_ + event_begin_ - 1));
        }
        if (buffer_.size() > kMaxEventBytes + target_chunk_bytes_) {  // e.g. a 1 GiB string value
          return UnreadableInput(
              "more than 1 GiB of traceEvents without a complete event object; this is not a trace",
              SourcePosition::AtOffset(buffer_content_offset_));
        }
        if (!events_closed_) {
          DropLeadingSeparators();
          content_offset_ += size - pos;
          pos = size;
          break;
        }
        // The array closed at buffer_[scan_pos_] (']'); what follows goes back to the top level.
        size_t after_close = scan_pos_ + 1;
        size_t consumed = after_close - old_size;
        content_offset_ += consumed;
        pos += consumed;
        buffer_.resize(scan_pos_);
        if (last_event_end_ > 0) EmitChunk(last_event_end_, out);
        buffer_.clear();
        mode_ = root_ == Root::kArray ? Mode::kAfterRoot : Mode::kTopLevel;
        break;
      }
      case Mode::kAfterRoot: {
        for (; pos < size; ++pos, ++content_offset_) {
          if (!IsSpace(data[pos]) && !trailing_noted_) {
            notes_.push_back("ignored data after the end of the trace at byte " +
                             std::to_string(content_offset_));
            trailing_noted_ = true;
          }
        }
        break;
      }
    }
  }
  return Status::Ok();
}

Status EventSplitter::FeedTopLevel(const char* data, size_t size, size_t* consumed) {
  for (size_t i = 0; i < size; ++i) {
    char c = data[i];
    if (in_string_) {
      metadata_.push_back(c);
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
        if (capturing_key_) {
          capturing_key_ = false;
          key_complete_ = true;
          continue;
        }
      }
      if (capturing_key_) key_.push_back(c);
      continue;
    }
    if (IsSpace(c)) continue;
    if (await_events_value_) {
      await_events_value_ = false;
      if (c != '[') {
        return UnreadableInput("\"traceEvents\" is not an array",
                               SourcePosition::AtOffset(content_offset_ + i));
      }
      metadata_ += "[]";
      metadata_complete_ = metadata_.size();  // the events key is whole once its value is
      saw_trace_events_ = true;
      mode_ = Mode::kEvents;
      events_closed_ = false;
      *consumed = i + 1;
      return Status::Ok();
    }
    const size_t depth = open_brackets_.size();
    switch (c) {
      case '"':
        in_string_ = true;
        if (depth == 1 && expect_key_) {
          capturing_key_ = true;
          expect_key_ = false;
          key_.clear();
        }
        break;
      case '{':
      case '[':
        open_brackets_.push_back(c);
        if (open_brackets_.size() == 1) {
          expect_key_ = true;
          metadata_complete_ = metadata_.size() + 1;  // "{" alone is a complete prefix
        }
        break;
      case '}':
      case ']': {
        char open = c == '}' ? '{' : '[';
        if (depth == 0 || open_brackets_.back() != open) {
          return UnreadableInput(std::string("unbalanced '") + c + "' in the trace's top level",
                                 SourcePosition::AtOffset(content_offset_ + i));
        }
        open_brackets_.pop_back();
        if (open_brackets_.empty()) {
          metadata_.push_back(c);
          metadata_complete_ = metadata_.size();
          mode_ = Mode::kAfterRoot;
          *consumed = i + 1;
          return Status::Ok();
        }
        break;
      }
      case ',':
        if (depth == 1) {
          metadata_complete_ = metadata_.size();
          expect_key_ = true;
        }
        break;
      case ':':
        if (depth == 1 && key_complete_ && key_ == "traceEvents") {
          metadata_.push_back(c);
          await_events_value_ = true;
          key_complete_ = false;
          continue;
        }
        key_complete_ = false;
        break;
      default:
        break;
    }
    metadata_.push_back(c);
  }
  *consumed = size;
  return Status::Ok();
}

// A quote is escaped when an odd number of backslashes precede it. The run cannot reach back past
// the string's opening quote, which is inside the buffer, so the search needs no lower bound.
bool IsEscaped(const char* p, size_t quote) {
  size_t k = quote;
  while (k > 0 && p[k - 1] == '\\') --k;
  return ((quote - k) & 1) != 0;
}

bool EventSplitter::StepScalar(const char* p, size_t i) {
  const char c = p[i];
  if (event_in_string_) {
    if (c == '"' && !IsEscaped(p, i)) event_in_string_ = false;
    return false;
  }
  switch (c) {
    case '"':
      event_in_string_ = true;
      break;
    case '{':
    case '[':
      if (event_depth_++ == 0) event_begin_ = i;
      break;
    case '}':
    case ']':
      if (event_depth_ == 0) return true;  // the end of traceEvents
      if (--event_depth_ == 0) EndEvent(i + 1);
      break;
    default:
      break;
  }
  return false;
}

#if defined(__AVX2__)
// 64 bytes at a time: bit masks of quotes, backslashes and brackets; strings are masked out with a
// prefix XOR of the quote bits (the simdjson technique), so only brackets outside strings are
// visited one by one. Blocks with a backslash take the scalar path, which handles escapes.
bool EventSplitter::ScanBlock(const char* p, size_t i, bool* closed) {
  const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
  const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i + 32));
  auto mask = [&](__m256i a, __m256i b) {
    return static_cast<uint32_t>(_mm256_movemask_epi8(a)) |
           (static_cast<uint64_t>(static_cast<uint32_t>(_mm256_movemask_epi8(b))) << 32);
  };
  auto equal = [&](char c) {
    const __m256i v = _mm256_set1_epi8(c);
    return mask(_mm256_cmpeq_epi8(lo, v), _mm256_cmpeq_epi8(hi, v));
  };
  // '{' 0x7B and '[' 0x5B differ only in bit 0x20; so do '}' 0x7D and ']' 0x5D.
  const __m256i case_bit = _mm256_set1_epi8(0x20);
  const __m256i lo20 = _mm256_or_si256(lo, case_bit), hi20 = _mm256_or_si256(hi, case_bit);
  auto equal20 = [&](char c) {
    const __m256i v = _mm256_set1_epi8(c);
    return mask(_mm256_cmpeq_epi8(lo20, v), _mm256_cmpeq_epi8(hi20, v));
  };
  if (equal('\\') != 0) return false;
  const uint64_t quotes = equal('"');
  if ((quotes & 1) != 0 && i > 0 && p[i - 1] == '\\') return false;  // escaped by the last block
#if defined(__PCLMUL__)
  uint64_t in_string = static_cast<uint64_t>(_mm_cvtsi128_si64(
      _mm_clmulepi64_si128(_mm_set_epi64x(0, static_cast<int64_t>(quotes)), _mm_set1_epi8(-1), 0)));
#else
  uint64_t in_string = quotes;
  for (int shift = 1; shift < 64; shift *= 2) in_string ^= in_string << shift;
#endif
  if (event_in_string_) in_string = ~in_string;
  const uint64_t opens = equal20('{') & ~in_string;
  const uint64_t closes = equal20('}') & ~in_string;
  uint64_t brackets = opens | closes;
  while (brackets != 0) {
    const int bit = __builtin_ctzll(brackets);
    brackets &= brackets - 1;
    const size_t at = i + static_cast<size_t>(bit);
    if ((opens >> bit) & 1) {
      if (event_depth_++ == 0) event_begin_ = at;
    } else {
      if (event_depth_ == 0) {
        *closed = true;
        scan_pos_ = at;
        return true;
      }
      if (--event_depth_ == 0) EndEvent(at + 1);
    }
  }
  event_in_string_ = (in_string >> 63) & 1;
  return true;
}
#else
bool EventSplitter::ScanBlock(const char*, size_t, bool*) {
  return false;
}
#endif

void EventSplitter::ScanEvents(std::vector<EventChunk>* out) {
  const char* p = buffer_.data();
  const size_t n = buffer_.size();
  size_t i = scan_pos_;
  while (i < n) {
    bool closed = false;
    if (n - i >= 64 && ScanBlock(p, i, &closed)) {
      if (closed) {
        events_closed_ = true;
        return;
      }
      i += 64;
      continue;
    }
    const size_t end = std::min(n, i + 64);
    for (; i < end; ++i) {
      if (StepScalar(p, i)) {
        events_closed_ = true;
        scan_pos_ = i;
        return;
      }
    }
  }
  scan_pos_ = i;
  if (buffer_.size() >= target_chunk_bytes_ && last_event_end_ > 0) EmitChunk(last_event_end_, out);
}

// Between events with no complete event buffered, everything scanned so far is separators (or
// values that are not events): keep none of it, so that a gzip file of whitespace cannot make the
// buffer grow without bound.
void EventSplitter::DropLeadingSeparators() {
  if (event_depth_ > 0 || event_in_string_ || last_event_end_ > 0 ||
      buffer_.size() < 1 + target_chunk_bytes_) {
    return;
  }
  const auto strays = std::count_if(buffer_.begin() + 1, buffer_.end(),
                                    [](char c) { return !IsSpace(c) && c != ','; });
  if (strays > 0) {
    notes_.push_back(fmt::format(
        "skipped {} bytes of values in traceEvents that are not event objects (near byte {})",
        strays, buffer_content_offset_));
  }
  buffer_content_offset_ += buffer_.size() - 1;
  buffer_.resize(1);
  scan_pos_ = 1;
}

void EventSplitter::EndEvent(size_t end) {
  events_.emplace_back(static_cast<uint32_t>(event_begin_), static_cast<uint32_t>(end));
  last_event_end_ = end;
}

void EventSplitter::EmitChunk(size_t end, std::vector<EventChunk>* out) {
  const bool in_event = event_depth_ > 0;
  const size_t tail_begin = in_event ? event_begin_ : buffer_.size();

  EventChunk chunk;
  chunk.index = chunk_index_++;
  chunk.content_offset = buffer_content_offset_;
  chunk.events = std::move(events_);
  events_.clear();

  std::vector<char> tail(buffer_.begin() + static_cast<std::ptrdiff_t>(tail_begin), buffer_.end());
  chunk.text = std::exchange(buffer_, std::vector<char>());
  chunk.text.resize(end);
  chunk.text.push_back(']');
  chunk.json_length = chunk.text.size();
  chunk.text.resize(chunk.json_length + simdjson::SIMDJSON_PADDING, '\0');
  out->push_back(std::move(chunk));

  const uint64_t tail_offset = buffer_content_offset_ + tail_begin - 1;
  StartChunk(tail.data(), tail.size(), tail_offset);
  scan_pos_ = buffer_.size();
  if (in_event) event_begin_ = 1;
}

Status EventSplitter::Finish(std::vector<EventChunk>* out) {
  switch (mode_) {
    case Mode::kBeforeRoot:
      return UnreadableInput(content_offset_ == 0 ? "the file is empty"
                                                  : "the file holds only whitespace");
    case Mode::kEvents: {
      const bool in_event = event_depth_ > 0;
      if (in_event) truncated_bytes_ = buffer_.size() - event_begin_;
      if (last_event_end_ > 0) {
        event_depth_ = 0;
        event_in_string_ = false;
        EmitChunk(last_event_end_, out);
      }
      if (!in_event)
        notes_.push_back("the traceEvents array is not closed; the file may be cut off");
      // The header written before the events is still good: close the object it was in.
      if (root_ == Root::kObject) metadata_.push_back('}');
      break;
    }
    case Mode::kTopLevel:
      if (!saw_trace_events_) {
        return UnreadableInput(
            "no \"traceEvents\" array in this JSON object; not a Chrome/Kineto trace",
            SourcePosition::AtOffset(content_offset_));
      }
      // Cut off inside metadata written after the events: keep the complete members.
      metadata_.resize(metadata_complete_);
      metadata_.push_back('}');
      notes_.push_back(
          "the file ends inside the metadata after traceEvents; incomplete keys ignored");
      break;
    case Mode::kAfterRoot:
      if (!saw_trace_events_) {
        return UnreadableInput(
            "no \"traceEvents\" array in this JSON object; not a Chrome/Kineto trace");
      }
      break;
  }
  return Status::Ok();
}

}  // namespace tensormorph::chrome
