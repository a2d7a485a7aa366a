#include "report/json_output.h"

namespace tensormorph {

void WriteJson(std::ostream& out, const Json& document) {
  out << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

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
