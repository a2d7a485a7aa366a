#include "import/chrome/chunk_parser.h"

#include <fmt/format.h>

#include "import/chrome/event_reader.h"

namespace tensormorph::chrome {

ChunkResult ChunkParser::Parse(const EventChunk& chunk) {
  ChunkResult result;
  if (!ParseWhole(chunk, &result)) {
    // Some event is malformed JSON: start over and read the events one by one, so that one bad
    // event costs only itself. Rare, so the fast path stays a single pass.
    result = ChunkResult();
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

void ChunkParser::ParseEventByEvent(const EventChunk& chunk, ChunkResult* result) {
  ChunkBuilder builder(result);
  for (const auto& [begin, end] : chunk.events) {
    const uint64_t offset = chunk.content_offset + begin - 1;
    simdjson::ondemand::document doc;
    // The chunk's own bytes after the event serve as simdjson's padding.
    auto err = parser_.iterate(chunk.text.data() + begin, end - begin, chunk.text.size() - begin)
                   .get(doc);
    simdjson::ondemand::value value;
    if (!err) err = doc.get_value().get(value);
    RawEvent event;
    std::string error;
    simdjson::error_code json_error = err;
    if (!err && ReadEvent(value, &event, &error, &json_error)) {
      builder.Add(event, offset);
      continue;
    }
    if (json_error) error = fmt::format("malformed JSON in event ({})", simdjson::error_message(json_error));
    builder.Skip(offset, error + "; skipped");
  }
}

}  // namespace tensormorph::chrome
