// The report page: assets/page.html with the stylesheet, the script and the report's JSON
// (report_model.h) inlined, so the file opens offline and makes no request of any kind.
#pragma once

#include <string>

#include "report/json_output.h"

namespace tensormorph {

// `title` is plain text (escaped here).
std::string RenderReportHtml(const Json& model, const std::string& title);

}  // namespace tensormorph
