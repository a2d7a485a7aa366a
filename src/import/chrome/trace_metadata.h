// The top-level keys of a Kineto trace (everything but traceEvents): schema version, time base,
// device properties, distributed info, and the profiler/runtime versions that tell the backend.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/model/status.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::chrome {

struct TopLevelMetadata {
  std::optional<int64_t> schema_version;
  std::optional<int64_t> base_time_ns;
  std::optional<int64_t> rank;
  std::optional<int64_t> world_size;
  std::string distributed_backend;  // "nccl", "gloo", ...
  std::vector<Device> device_properties;
  std::map<std::string, std::string> scalars;  // other scalar keys, JSON text
  // A file written by `tensormorph export --to chrome-json` lists each device's backend under
  // "tensormorph": {"devices": [{"id", "backend", "vendor", ...}]}, by the id its events carry:
  // what the Kineto dialect cannot say (a trace with CPU and WebGPU devices, a rocprof source).
  std::map<int64_t, std::pair<Backend, std::string>> exported_devices;  // id -> backend, vendor
  std::vector<std::string> warnings;
};

// `json` is the object text the splitter kept (with "traceEvents": []).
StatusOr<TopLevelMetadata> ParseTopLevelMetadata(const std::string& json);

}  // namespace tensormorph::chrome
