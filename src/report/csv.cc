#include "report/csv.h"

#include <fmt/format.h>

namespace tensormorph {

void WriteCsvRow(std::ostream& out, const std::vector<std::string>& fields) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out << ',';
    const std::string& f = fields[i];
    if (f.find_first_of(",\"\r\n") == std::string::npos) {
      out << f;
      continue;
    }
    out << '"';
    for (char c : f) {
      if (c == '"') out << '"';
      out << c;
    }
    out << '"';
  }
  out << '\n';
}

std::string CsvNumber(const std::optional<double>& value) {
  return value ? fmt::format("{}", *value) : "";
}

}  // namespace tensormorph
