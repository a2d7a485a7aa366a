#include "tensormorph/export/baseline/baseline_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "export/baseline/baseline_json.h"

namespace tensormorph {
namespace {

constexpr size_t kHeadBytes = 64 * 1024;

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

Status CannotOpen(const std::string& path) {
  return {StatusCode::kIoError, fmt::format("cannot open the file: {}", std::strerror(errno))};
}

}  // namespace

bool LooksLikeTensormorphDocument(std::string_view head) {
  if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);  // UTF-8 byte order mark
  size_t i = 0;
  while (i < head.size() && IsSpace(head[i])) ++i;
  if (i == head.size() || head[i] != '{') return false;
  // We write "schema" first; any position is accepted, as long as its value names our schema.
  for (size_t at = head.find("\"schema\"", i); at != std::string_view::npos;
       at = head.find("\"schema\"", at + 1)) {
    size_t j = at + 8;
    while (j < head.size() && IsSpace(head[j])) ++j;
    if (j == head.size() || head[j] != ':') continue;
    ++j;
    while (j < head.size() && IsSpace(head[j])) ++j;
    // Native traces (tensormorph.trace/N) are traces, read by the importers.
    if (head.substr(j, 13) == "\"tensormorph.") return head.substr(j, 19) != "\"tensormorph.trace/";
  }
  return false;
}

StatusOr<std::optional<Baseline>> ReadBaselineFile(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return CannotOpen(path);
  std::string head(kHeadBytes, '\0');
  file.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(file.gcount()));
  if (!LooksLikeTensormorphDocument(head)) return std::optional<Baseline>();
  std::ostringstream rest;
  rest << file.rdbuf();
  const std::string text = head + rest.str();
  TM_ASSIGN_OR_RETURN(Baseline baseline, ParseBaseline(text));
  return std::optional<Baseline>(std::move(baseline));
}

Status WriteBaselineFile(const std::string& path, const Baseline& baseline) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return CannotOpen(path);
  WriteJson(file, BaselineToJson(baseline));
  file.close();
  if (!file) return {StatusCode::kIoError, "cannot write the file"};
  return Status::Ok();
}

}  // namespace tensormorph
