// Parses one EventChunk into a ChunkResult. One ChunkParser per worker thread (it owns a
// simdjson parser, whose buffers are reused from chunk to chunk).
#pragma once

#include <simdjson.h>

#include "import/chrome/chunk_builder.h"
#include "import/chrome/event_splitter.h"

namespace tensormorph::chrome {

class ChunkParser {
 public:
  ChunkResult Parse(const EventChunk& chunk);

 private:
  bool ParseWhole(const EventChunk& chunk, ChunkResult* result);
  void ParseEventByEvent(const EventChunk& chunk, ChunkResult* result);
  // Reads the one event in json[0, length) (capacity: readable bytes, for simdjson's padding) and
  // adds it. A JSON error is returned; an event that is JSON but not usable sets `error`.
  simdjson::error_code ReadOne(const char* json, size_t length, size_t capacity, uint64_t offset,
                               ChunkBuilder* builder, std::string* error);

  simdjson::ondemand::parser parser_;
};

}  // namespace tensormorph::chrome
