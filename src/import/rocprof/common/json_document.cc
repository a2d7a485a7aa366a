#include "import/rocprof/common/json_document.h"

#include <fmt/format.h>

namespace tensormorph::rocprof {

StatusOr<nlohmann::json> ReadJsonDocument(const Input& input, std::string_view what,
                                          std::string* gzip_warning) {
  TM_ASSIGN_OR_RETURN(std::string text, input.Content(gzip_warning));
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) {
    return UnreadableInput(fmt::format("not valid JSON (a cut-off {}?)", what),
                           SourcePosition{1, 1});
  }
  return doc;
}

}  // namespace tensormorph::rocprof
