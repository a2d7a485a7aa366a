// The top-level keys of a Kineto trace (everything but traceEvents): schema version, time base,
// device properties, distributed info, and the profiler/runtime versions that tell the backend.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/status.h"
#include "model/trace.h"

namespace tensormorph::chrome {

struct TopLevelMetadata {
  std::optional<int64_t> schema_version;
  std::optional<int64_t> base_time_ns;
  std::optional<int64_t> rank;
  std::optional<int64_t> world_size;
  std::string distributed_backend;  // "nccl", "gloo", ...
  std::vector<Device> device_properties;
  std::map<std::string, std::string> scalars;  // other scalar keys, JSON text
  std::vector<std::string> warnings;
};

// `json` is the object text the splitter kept (with "traceEvents": []).
StatusOr<TopLevelMetadata> ParseTopLevelMetadata(const std::string& json);

}  // namespace tensormorph::chrome
