#include "import/rocprof/sysinfo.h"

#include <filesystem>
#include <system_error>

#include "import/rocprof/common/rocminfo.h"

namespace tensormorph::rocprof {

SysinfoAgents ReadSysinfoBeside(const Input& input, std::string* warning) {
  warning->clear();
  const std::string path = SysinfoPathBeside(input.path());
  std::error_code ec;
  if (input.is_folder() || !std::filesystem::is_regular_file(path, ec)) return {};
  const std::string name = std::filesystem::path(path).filename().string();
  StatusOr<Input> file = input.Related(path);
  std::string gzip_warning;
  StatusOr<std::string> text =
      file.ok() ? file->Content(&gzip_warning) : StatusOr<std::string>(file.status());
  if (!text.ok()) {
    *warning = path + ": could not be read, devices stay unnamed: " + text.status().message();
    return {};
  }
  if (!LooksLikeRocminfoText(*text)) {
    *warning = path + ": not rocminfo's text, not used: devices stay unnamed";
    return {};
  }
  SysinfoAgents out;
  out.agents = AgentsFromRocminfo(ParseRocminfoText(*text));
  if (out.agents.empty()) {
    *warning = path + ": rocminfo's text without an agent's Node, not used: devices stay unnamed";
    return {};
  }
  out.file_name = name;
  return out;
}

}  // namespace tensormorph::rocprof
