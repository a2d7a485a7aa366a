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

  simdjson::ondemand::parser parser_;
};

}  // namespace tensormorph::chrome
