#include "import/nsys/stats_report.h"

namespace tensormorph::nsys {

bool IsStatsReportHeader(std::string_view head) {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);  // a UTF-8 byte order mark
  const std::string_view line = head.substr(0, head.find('\n'));
  const bool time_column = line.starts_with("Time (%),") || line.starts_with("Time(%),") ||
                           line.starts_with("\"Time (%)\",") || line.starts_with("\"Time(%)\",");
  return time_column && line.find("Total Time (ns)") != std::string_view::npos;
}

}  // namespace tensormorph::nsys
