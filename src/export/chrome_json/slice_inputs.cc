#include "export/chrome_json/slice_inputs.h"

#include <fmt/format.h>

#include <iterator>
#include <string_view>

#include "export/chrome_json/json_writer.h"

namespace tensormorph::chrome_json {

std::string InputArgs(const OpInputs& inputs) {
  const OpInputListsText lists = InputListsText(inputs);
  fmt::memory_buffer out;
  if (!lists.json) {
    out.append(std::string_view(",\"Inputs\":"));
    AppendJsonString(out, lists.dims);
    return fmt::to_string(out);
  }
  const auto member = [&](std::string_view key, std::string_view value) {
    if (value.empty()) return;
    fmt::format_to(std::back_inserter(out), ",\"{}\":{}", key, value);
  };
  member("Input Dims", lists.dims);
  member("Input type", lists.types);
  member("Concrete Inputs", lists.values);
  return fmt::to_string(out);
}

}  // namespace tensormorph::chrome_json
