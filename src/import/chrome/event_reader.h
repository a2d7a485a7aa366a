// Reads one event object with simdjson On-Demand into a RawEvent, accepting every value type that
// real producers write (numbers as strings, ids beyond int64, hex stream ids) and rejecting the
// rest with a message that says which key was wrong.
#pragma once

#include <simdjson.h>

#include <string>

#include "import/chrome/raw_event.h"

namespace tensormorph::chrome {

// Returns false with `error` set when the event cannot be used; the caller skips it.
// A simdjson error (malformed JSON) is returned through `json_error` so that the caller can
// abandon the fast whole-chunk pass and re-read the chunk event by event.
bool ReadEvent(simdjson::ondemand::value element, RawEvent* event, std::string* error,
               simdjson::error_code* json_error);

}  // namespace tensormorph::chrome
