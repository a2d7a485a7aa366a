#include "import/xplane/profile_dir.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace tensormorph::xplane {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kSuffix = ".xplane.pb";

std::vector<std::string> XplanesIn(const fs::path& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() > kSuffix.size() && name.ends_with(kSuffix) && it->is_regular_file(ec)) {
      files.push_back(it->path().string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// The newest sub-folder of `runs` that holds an XSpace (run names are timestamps, so the
// greatest name is the newest run).
std::vector<std::string> NewestRun(const fs::path& runs, std::string* run) {
  std::vector<fs::path> dirs;
  std::error_code ec;
  for (fs::directory_iterator it(runs, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->is_directory(ec)) dirs.push_back(it->path());
  }
  std::sort(dirs.begin(), dirs.end(), [](const fs::path& a, const fs::path& b) {
    return a.filename().string() > b.filename().string();
  });
  for (const fs::path& dir : dirs) {
    std::vector<std::string> files = XplanesIn(dir);
    if (!files.empty()) {
      *run = dir.string();
      return files;
    }
  }
  return {};
}

}  // namespace

std::vector<std::string> FindRunXplanes(const std::string& folder, std::string* run) {
  fs::path root = fs::path(folder).lexically_normal();
  if (!root.has_filename() && root.has_parent_path()) root = root.parent_path();  // "dir/"
  std::vector<std::string> files = XplanesIn(root);
  if (!files.empty()) {
    *run = folder;
    return files;
  }
  std::error_code ec;
  const fs::path profiles = root / "plugins" / "profile";
  if (fs::is_directory(profiles, ec)) return NewestRun(profiles, run);
  if (root.filename() == "profile") return NewestRun(root, run);  // <log_dir>/plugins/profile
  return {};
}

StatusOr<std::string> ResolveProfileDir(const std::string& folder) {
  std::string run;
  const std::vector<std::string> files = FindRunXplanes(folder, &run);
  if (files.empty()) {
    return UnreadableInput(
        "no *.xplane.pb in this folder, its plugins/profile/<run>/ folders or its run folders; "
        "a JAX profile log dir holds plugins/profile/<YYYY_MM_DD_HH_MM_SS>/<host>.xplane.pb");
  }
  if (files.size() > 1) {
    std::string names;
    for (const std::string& f : files) {
      names += fmt::format("{}{}", names.empty() ? "" : ", ", fs::path(f).filename().string());
    }
    return UnreadableInput(fmt::format(
        "the newest profile run {} holds {} hosts' XSpaces ({}); tensormorph reads one host per "
        "input: name the file of the host you want (or give each file as its own input)",
        run, files.size(), names));
  }
  return files[0];
}

}  // namespace tensormorph::xplane
