#include "io/json.h"

namespace tensormorph {

void WriteJson(std::ostream& out, const Json& document) {
  out << document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

}  // namespace tensormorph
