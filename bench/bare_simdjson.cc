// tm_bare_simdjson: the baseline of the benchmark. One single-threaded simdjson on-demand pass
// over an uncompressed Kineto trace that reads what `tensormorph kernels` needs of every event
// (ph, cat, name, ts, dur) and nothing else, with no model built and no output formatted.
//
//   tm_bare_simdjson FILE.json
//
// padded_string::load holds the whole file in memory, so its peak RSS is about the file size;
// the on-demand parser also limits a single document to 4 GiB.
#include <fmt/core.h>
#include <simdjson.h>

#include <algorithm>
#include <cstdint>
#include <exception>
#include <string_view>

namespace ondemand = simdjson::ondemand;

int main(int argc, char** argv) try {
  if (argc != 2) {
    fmt::print(stderr, "usage: tm_bare_simdjson FILE.json\n");
    return 2;
  }
  simdjson::padded_string json = simdjson::padded_string::load(argv[1]);
  ondemand::parser parser;
  ondemand::document doc = parser.iterate(json);

  // Everything read is folded into these sums and printed, so no read can be optimised away.
  uint64_t events = 0;
  uint64_t complete = 0;
  uint64_t kernels = 0;
  uint64_t name_bytes = 0;
  double kernel_us = 0;
  double last_ts = 0;
  for (ondemand::object event : doc["traceEvents"].get_array()) {
    ++events;
    bool kernel = false;
    double dur = 0;
    // One walk over the fields in document order: Kineto's key order differs between event
    // kinds, and looking each key up separately would rescan the object.
    for (auto field : event) {
      ondemand::raw_json_string key = field.key();
      if (key == "ph") {
        complete += std::string_view(field.value().get_string()) == "X" ? 1 : 0;
      } else if (key == "cat") {
        kernel = std::string_view(field.value().get_string()) == "kernel";
      } else if (key == "name") {
        name_bytes += std::string_view(field.value().get_string()).size();
      } else if (key == "ts") {
        last_ts = std::max(last_ts, double(field.value().get_double()));
      } else if (key == "dur") {
        dur = field.value().get_double();
      }
    }
    if (kernel) {
      ++kernels;
      kernel_us += dur;
    }
  }
  fmt::print(
      "events {} complete {} kernels {} kernel_time_ms {:.3f} name_bytes {} last_ts {:.3f}\n",
      events, complete, kernels, kernel_us / 1e3, name_bytes, last_ts);
  return 0;
} catch (const std::exception& e) {
  fmt::print(stderr, "tm_bare_simdjson: {}\n", e.what());
  return 1;
}
