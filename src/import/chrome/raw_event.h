// One Chrome trace event as read from JSON, before it is classified into model rows.
// String views point into the simdjson parser's buffers and live as long as the chunk's document.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "tensormorph/model/trace.h"

namespace tensormorph::chrome {

// pid and tid are numbers in most traces, strings in some ("Spans", "stream 7", "CPU functions").
struct RawId {
  int64_t number = 0;
  std::string_view text;  // non-empty view only for string ids
  bool is_string = false;
  bool present = false;
};

// record_param_comms' collective arguments (newer Kineto); `any` when one of them was present.
struct RawCollective {
  std::string_view name, process_group, process_group_description, dtype;
  int64_t seq = -1, in_nelems = -1, out_nelems = -1, group_size = -1;  // -1 = absent
  bool any = false;
};

struct RawArgs {
  bool has_correlation = false, has_external_id = false, has_device = false, has_stream = false;
  uint64_t correlation = 0;
  int64_t external_id = -1;
  int64_t device = -1;
  int64_t stream = -1;
  Dim3 grid, block;
  int64_t registers_per_thread = -1;
  int64_t shared_memory = -1;
  int64_t occupancy_percent = -1;
  int64_t bytes = -1;              // "bytes" (memcpy/memset) or "size" (MTIA dma_request)
  std::string_view input_dims;     // raw JSON of "Input Dims"
  std::string_view input_types;    // raw JSON of "Input type"
  std::string_view input_values;   // raw JSON of "Concrete Inputs" (scalars as strings)
  std::string_view input_strides;  // raw JSON of "Input Strides"
  std::string_view metadata_name;  // M events: process_name / thread_name
  std::string_view labels;         // M events: process_labels
  // JAX / XLA trace viewer JSON, whose args are all strings (import/chrome/jax_events.h).
  std::string_view hlo_op, hlo_module, kernel_details;
  RawCollective collective;
};

struct RawEvent {
  char phase = 0;
  std::string_view name;
  std::string_view category;
  bool has_ts = false, has_dur = false, has_id = false;
  int64_t ts_ns = 0;
  int64_t dur_ns = 0;
  uint64_t id = 0;
  bool binds_enclosing = false;  // "bp": "e"
  std::string_view scope;        // "s" of instant events: "t", "p", "g"
  // The JSON text of "args" of instant events ("ph" "i" / "I"), whose args are kept whole; other
  // events' args are parsed into `args` instead, in the same pass when "ph" comes first (as every
  // profiler writes it), from this text after the pass when a file with sorted keys puts "args"
  // before "ph".
  std::string_view raw_args;
  RawId pid, tid;
  RawArgs args;
};

}  // namespace tensormorph::chrome
