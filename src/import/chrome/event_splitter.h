// Cuts the `traceEvents` array of a Chrome trace into chunks of whole events, so that each chunk
// can be parsed by simdjson on its own thread. It understands just enough JSON to do that safely:
// strings (with escapes), nesting depth, and the top-level keys of the object form.
//
// Everything outside `traceEvents` (deviceProperties, distributedInfo, ...) is kept as a small JSON
// object text with `"traceEvents": []`, parsed once at the end. Metadata written after the events
// (Kineto's on-demand path does that) is therefore found too.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "io/buffer_pool.h"
#include "tensormorph/model/status.h"

namespace tensormorph::chrome {

// Whole events, as the text `[ev,ev,...,ev]` followed by simdjson padding.
struct EventChunk {
  uint64_t index = 0;           // order in the file; results are merged in this order
  std::vector<char> text;       // JSON array text; text.size() includes the padding
  size_t json_length = 0;       // bytes of JSON before the padding
  uint64_t content_offset = 0;  // offset in the (decompressed) input of text[1]
  double input_fraction = 0;    // how far into the input the chunk ends (see ChunkResult)
  // [begin, end) of each event inside `text`, for parsing events one by one after an error.
  std::vector<std::pair<uint32_t, uint32_t>> events;
};

class EventSplitter {
 public:
  // Chunks hold at least `target_chunk_bytes` of events (except the last); their buffers come from
  // `pool`, sized for a chunk plus one input block.
  EventSplitter(size_t target_chunk_bytes, BufferPool* pool)
      : target_chunk_bytes_(target_chunk_bytes), pool_(pool) {}

  // Feeds the next bytes of the input; complete chunks are appended to `out`.
  [[nodiscard]] Status Feed(const char* data, size_t size, std::vector<EventChunk>* out);
  // End of input: flushes the last chunk. A trace cut off mid-event is not an error; the partial
  // event is dropped and reported through truncated_bytes().
  [[nodiscard]] Status Finish(std::vector<EventChunk>* out);

  bool is_array_form() const { return root_ == Root::kArray; }
  bool saw_trace_events() const { return saw_trace_events_; }
  // The top-level object without its events, as JSON text ("{}" for the array form).
  const std::string& metadata_json() const { return metadata_; }
  uint64_t truncated_bytes() const { return truncated_bytes_; }
  // Elements of traceEvents that are not objects, and stray separators; reported as warnings.
  const std::vector<std::string>& notes() const { return notes_; }
  uint64_t content_size() const { return content_offset_; }

 private:
  enum class Root { kUnknown, kArray, kObject };
  enum class Mode { kBeforeRoot, kTopLevel, kEvents, kAfterRoot };

  Status FeedTopLevel(const char* data, size_t size, size_t* consumed);
  void ScanEvents(std::vector<EventChunk>* out);
  // Scans buffer_[i, i + 64) with SIMD; false when the block needs the scalar path.
  bool ScanBlock(const char* p, size_t i, bool* closed);
  // Scans one byte; true when it closes the traceEvents array.
  bool StepScalar(const char* p, size_t i);
  void EndEvent(size_t end);
  void DropLeadingSeparators();
  void EmitChunk(size_t end, std::vector<EventChunk>* out);
  void StartChunk(const char* data, size_t size, uint64_t content_offset);
  Status Error(const std::string& what) const;

  const size_t target_chunk_bytes_;
  BufferPool* pool_;
  Root root_ = Root::kUnknown;
  Mode mode_ = Mode::kBeforeRoot;
  uint64_t content_offset_ = 0;  // bytes of input consumed so far
  uint64_t chunk_index_ = 0;

  // Top-level scanning state (object form, outside traceEvents).
  std::string metadata_;
  size_t metadata_complete_ = 0;  // metadata_ length after the last complete member
  std::vector<char> open_brackets_;
  bool in_string_ = false;
  bool escaped_ = false;
  bool expect_key_ = false;
  bool capturing_key_ = false;
  bool key_complete_ = false;        // a depth-1 key just ended; the next ':' belongs to it
  bool await_events_value_ = false;  // after `"traceEvents":`
  std::string key_;
  bool saw_trace_events_ = false;

  // Events state. buffer_ holds '[' then the not-yet-emitted event text.
  std::vector<char> buffer_;
  uint64_t buffer_content_offset_ = 0;  // input offset of buffer_[1]
  size_t scan_pos_ = 1;
  // Nesting inside the current event (0 between events) and whether inside a string. Elements of
  // traceEvents that are not objects or arrays are not cut out here; the parser notices them.
  int event_depth_ = 0;
  bool event_in_string_ = false;
  size_t event_begin_ = 0;
  size_t last_event_end_ = 0;  // 0 = no complete event in buffer_ yet
  std::vector<std::pair<uint32_t, uint32_t>> events_;
  bool events_closed_ = false;
  bool trailing_noted_ = false;
  uint64_t truncated_bytes_ = 0;
  std::vector<std::string> notes_;
};

}  // namespace tensormorph::chrome
