// For the lanes' tests: a lane's box starts, decoded from its deltas (timeline_lanes.h).
#pragma once

#include <cstdint>
#include <vector>

#include "report/json_output.h"

namespace tensormorph {

inline std::vector<int64_t> DecodedStarts(const Json& lane) {
  std::vector<int64_t> out;
  int64_t t = 0;
  for (const Json& delta : lane["s"]) out.push_back(t += delta.get<int64_t>());
  return out;
}

}  // namespace tensormorph
