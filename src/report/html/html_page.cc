// Fills the page template (html_page.h). The assets are compiled in: embed_assets.cmake turns
// assets/*.{html,css,js} into report/html/assets_embedded.h at build time.
#include "report/html/html_page.h"

#include <string_view>

#include "report/html/assets_embedded.h"
#include "report/markup_escape.h"

namespace tensormorph {
namespace {

// JSON inside <script type="application/json">: "</" would end the element early, so every "<"
// becomes \u003c (valid JSON, same string).
std::string ScriptSafe(std::string json) {
  std::string out;
  out.reserve(json.size());
  for (char c : json) {
    if (c == '<') {
      out += "\\u003c";
    } else {
      out += c;
    }
  }
  return out;
}

// Replaces every `marker`; what is inserted is not searched again.
void Replace(std::string* text, std::string_view marker, std::string_view with) {
  for (size_t at = text->find(marker); at != std::string::npos;
       at = text->find(marker, at + with.size())) {
    text->replace(at, marker.size(), with);
  }
}

}  // namespace

std::string RenderReportHtml(const Json& model, const std::string& title) {
  // Compact, unlike the commands' JSON (WriteJson indents): the page's size matters here.
  const std::string json = model.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string page(html_assets::kPage);
  // Title first and data last: inserted text is never searched for a later marker.
  Replace(&page, "@@TITLE@@", EscapeMarkup(title));
  Replace(&page, "/*@@CSS@@*/", html_assets::kCss);
  Replace(&page, "/*@@JS@@*/", html_assets::kJs);
  Replace(&page, "@@DATA@@", ScriptSafe(json));
  return page;
}

}  // namespace tensormorph
