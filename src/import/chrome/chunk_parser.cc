#include "import/chrome/chunk_parser.h"

#include <fmt/format.h>

#include "import/chrome/event_reader.h"
#include "io/utf8.h"

namespace tensormorph::chrome {

ChunkResult ChunkParser::Parse(const EventChunk& chunk) {
  ChunkResult result;
  result.input_fraction = chunk.input_fraction;
  if (!ParseWhole(chunk, &result)) {
    // Some event is malformed JSON: start over and read the events one by one, so that one bad
    // event costs only itself. Rare, so the fast path stays a single pass.
    result = ChunkResult();
    result.input_fraction = chunk.input_fraction;
    ParseEventByEvent(chunk, &result);
  }
  return result;
}

bool ChunkParser::ParseWhole(const EventChunk& chunk, ChunkResult* result) {
  simdjson::ondemand::document doc;
  if (parser_.iterate(chunk.text.data(), chunk.json_length, chunk.text.size()).get(doc)) {
    return false;
  }
  simdjson::ondemand::array array;
  if (doc.get_array().get(array)) return false;
  ChunkBuilder builder(result);
  size_t index = 0;
  for (auto element : array) {
    simdjson::ondemand::value value;
    if (element.get(value)) return false;
    // The splitter found exactly these events; if simdjson sees more, the text is not plain JSON.
    if (index >= chunk.events.size()) return false;
    const uint64_t offset = chunk.content_offset + chunk.events[index].first - 1;
    RawEvent event;
    std::string error;
    simdjson::error_code json_error;
    if (!ReadEvent(value, &event, &error, &json_error)) {
      if (json_error) return false;
      builder.Skip(offset, error + "; skipped");
    } else {
      builder.Add(event, offset);
    }
    ++index;
  }
  return index == chunk.events.size();
}

namespace {

// The splitter cuts out objects and arrays only; anything else between them (a number, a string)
// is an element of traceEvents that is not an event. Returns the offset of each such value.
std::vector<size_t> FindStrayValues(const EventChunk& chunk, size_t begin, size_t end) {
  std::vector<size_t> found;
  bool expect_value = true, in_string = false, escaped = false;
  for (size_t i = begin; i < end; ++i) {
    const char c = chunk.text[i];
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == ',') {
      expect_value = true;
    } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      if (expect_value) found.push_back(i);
      expect_value = false;
      in_string = c == '"';
    }
  }
  return found;
}

}  // namespace

simdjson::error_code ChunkParser::ReadOne(const char* json, size_t length, size_t capacity,
                                          uint64_t offset, ChunkBuilder* builder,
                                          std::string* error) {
  simdjson::ondemand::document doc;
  simdjson::ondemand::value value;
  simdjson::error_code err = parser_.iterate(json, length, capacity).get(doc);
  if (!err) err = doc.get_value().get(value);
  if (err) return err;
  RawEvent event;
  if (ReadEvent(value, &event, error, &err)) {
    builder->Add(event, offset);
  }
  return err;
}

void ChunkParser::ParseEventByEvent(const EventChunk& chunk, ChunkResult* result) {
  ChunkBuilder builder(result);
  size_t previous_end = 1;  // after the '[' the splitter put in front
  auto check_gap = [&](size_t until) {
    for (size_t at : FindStrayValues(chunk, previous_end, until)) {
      builder.Skip(chunk.content_offset + at - 1,
                   "an element of traceEvents is not an event object; skipped");
    }
  };
  for (const auto& [begin, end] : chunk.events) {
    check_gap(begin);
    previous_end = end;
    const uint64_t offset = chunk.content_offset + begin - 1;
    std::string error;
    // The chunk's own bytes after the event serve as simdjson's padding.
    simdjson::error_code err = ReadOne(chunk.text.data() + begin, end - begin,
                                       chunk.text.size() - begin, offset, &builder, &error);
    if (err == simdjson::UTF8_ERROR) {
      size_t replaced = 0;
      const simdjson::padded_string repaired(
          RepairUtf8({chunk.text.data() + begin, end - begin}, &replaced));
      err = ReadOne(repaired.data(), repaired.size(), repaired.size() + simdjson::SIMDJSON_PADDING,
                    offset, &builder, &error);
      if (!err && error.empty()) {
        builder.Warn(offset, fmt::format("{} bytes of invalid UTF-8 in this event were replaced by "
                                         "U+FFFD",
                                         replaced));
      }
    }
    if (err) {
      builder.Skip(offset, fmt::format("malformed JSON in event ({}); skipped",
                                       simdjson::error_message(err)));
    } else if (!error.empty()) {
      builder.Skip(offset, error + "; skipped");
    }
  }
  check_gap(chunk.json_length - 1);  // up to the closing ']'
}

}  // namespace tensormorph::chrome
