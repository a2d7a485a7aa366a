#include "import/chrome/event_splitter.h"

#include <fmt/format.h>
#include <simdjson.h>

#include <cstring>
#include <string>

namespace tensormorph::chrome {
namespace {

bool IsSpace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// One event larger than this is not a trace event; the input is something else.
constexpr size_t kMaxEventBytes = size_t{1} << 30;

}  // namespace

Status EventSplitter::Error(const std::string& what) const {
  return UnreadableInput(what, SourcePosition::AtOffset(content_offset_));
}

void EventSplitter::StartChunk(const char* data, size_t size, uint64_t content_offset) {
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
        if (content_offset_ == 0 && size - pos >= 3 && std::memcmp(data + pos, "\xEF\xBB\xBF", 3) == 0) {
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
          return Error("not a JSON trace: expected '[' or '{' but found " +
                       (c >= 32 && c < 127 ? "'" + std::string(1, c) + "'"
                                           : fmt::format("byte 0x{:02x}", static_cast<unsigned char>(c))));
        }
        break;
      }
      case Mode::kTopLevel: {
        size_t consumed = 0;
        Status status = FeedTopLevel(data + pos, size - pos, &consumed);
        if (!status.ok()) return status;
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
          return UnreadableInput("an event in traceEvents is larger than 1 GiB; this is not a trace",
                                 SourcePosition::AtOffset(buffer_content_offset_ + event_begin_ - 1));
        }
        if (!events_closed_) {
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
        if (open_brackets_.size() == 1) expect_key_ = true;
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

void EventSplitter::ScanEvents(std::vector<EventChunk>* out) {
  const char* p = buffer_.data();
  const size_t n = buffer_.size();
  size_t i = scan_pos_;
  while (i < n) {
    if (event_in_string_) {
      const void* quote = std::memchr(p + i, '"', n - i);
      if (quote == nullptr) {
        i = n;
        break;
      }
      size_t q = static_cast<const char*>(quote) - p;
      size_t k = q;
      while (k > event_begin_ && p[k - 1] == '\\') --k;
      i = q + 1;
      if (((q - k) & 1) != 0) continue;  // an escaped quote
      event_in_string_ = false;
      if (event_depth_ == 0) {  // a string element of traceEvents (not an event, but whole)
        events_.emplace_back(event_begin_, i);
        last_event_end_ = i;
      }
      continue;
    }
    const char c = p[i];
    if (event_depth_ > 0) {
      if (c == '"') {
        event_in_string_ = true;
      } else if (c == '{' || c == '[') {
        ++event_depth_;
      } else if (c == '}' || c == ']') {
        if (--event_depth_ == 0) {
          events_.emplace_back(event_begin_, i + 1);
          last_event_end_ = i + 1;
        }
      }
      ++i;
      continue;
    }
    if (in_scalar_) {  // a number or literal element: ends at a separator
      if (c == ',' || c == ']' || IsSpace(c)) {
        in_scalar_ = false;
        events_.emplace_back(event_begin_, i);
        last_event_end_ = i;
      } else {
        ++i;
      }
      continue;
    }
    // Between events.
    if (c == ']') {
      events_closed_ = true;
      scan_pos_ = i;
      return;
    }
    if (c == '{' || c == '[') {
      event_begin_ = i;
      event_depth_ = 1;
    } else if (c == '"') {
      event_begin_ = i;
      event_in_string_ = true;
    } else if (c != ',' && !IsSpace(c)) {
      event_begin_ = i;
      in_scalar_ = true;
    }
    ++i;
  }
  scan_pos_ = i;
  if (buffer_.size() >= target_chunk_bytes_ && last_event_end_ > 0) EmitChunk(last_event_end_, out);
}

void EventSplitter::EmitChunk(size_t end, std::vector<EventChunk>* out) {
  const bool in_event = event_depth_ > 0 || event_in_string_ || in_scalar_;
  const size_t tail_begin = in_event ? event_begin_ : buffer_.size();

  EventChunk chunk;
  chunk.index = chunk_index_++;
  chunk.content_offset = buffer_content_offset_;
  chunk.events = std::move(events_);
  events_.clear();
  if (in_event && !chunk.events.empty() && chunk.events.back().first >= end) chunk.events.pop_back();

  std::vector<char> tail(buffer_.begin() + static_cast<std::ptrdiff_t>(tail_begin), buffer_.end());
  chunk.text = std::move(buffer_);
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
      const bool in_event = event_depth_ > 0 || event_in_string_ || in_scalar_;
      if (in_scalar_) {  // a number at the very end may be whole; let the parser judge it
        in_scalar_ = false;
        events_.emplace_back(event_begin_, buffer_.size());
        last_event_end_ = buffer_.size();
      } else if (in_event) {
        truncated_bytes_ = buffer_.size() - event_begin_;
      }
      if (last_event_end_ > 0) {
        event_depth_ = 0;
        event_in_string_ = false;
        EmitChunk(last_event_end_, out);
      }
      if (!in_event) notes_.push_back("the traceEvents array is not closed; the file may be cut off");
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
      notes_.push_back("the file ends inside the metadata after traceEvents; incomplete keys ignored");
      break;
    case Mode::kAfterRoot:
      if (!saw_trace_events_) {
        return UnreadableInput("no \"traceEvents\" array in this JSON object; not a Chrome/Kineto trace");
      }
      break;
  }
  return Status::Ok();
}

}  // namespace tensormorph::chrome
