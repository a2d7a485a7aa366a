#include "report/json_output.h"

namespace tensormorph {

Json DescribeInputs(const std::vector<const Trace*>& traces) {
  Json inputs = Json::array();
  for (const Trace* trace : traces) {
    Json backends = Json::array();
    for (Backend b : trace->backends) backends.push_back(BackendName(b));
    inputs.push_back({{"path", trace->path},
                      {"format", trace->format},
                      {"format_version", trace->format_version},
                      {"backends", backends}});
  }
  return inputs;
}

}  // namespace tensormorph
