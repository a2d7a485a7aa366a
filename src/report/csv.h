// CSV in the RFC 4180 quoting style (fields quoted only when they hold a comma, quote or line
// break), with plain \n line ends as nsys stats and most Unix tools write them.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace tensormorph {

void WriteCsvRow(std::ostream& out, const std::vector<std::string>& fields);

}  // namespace tensormorph
