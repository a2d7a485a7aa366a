// CSV in the RFC 4180 quoting style (fields quoted only when they hold a comma, quote or line
// break), with plain \n line ends as nsys stats and most Unix tools write them.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tensormorph {

void WriteCsvRow(std::ostream& out, const std::vector<std::string>& fields);

// A CSV number field: the shortest text that reads back as the same double; "" when absent.
std::string CsvNumber(const std::optional<double>& value);

}  // namespace tensormorph
