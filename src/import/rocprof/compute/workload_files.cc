#include "import/rocprof/compute/workload_files.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace tensormorph::rocprof::compute {
namespace {

namespace fs = std::filesystem;

// pmc_perf_<N>.csv -> N; -1 for other names.
long PassNumber(const std::string& name) {
  constexpr std::string_view kPrefix = "pmc_perf_";
  if (!name.starts_with(kPrefix) || !name.ends_with(".csv")) return -1;
  const std::string digits = name.substr(kPrefix.size(), name.size() - kPrefix.size() - 4);
  if (digits.empty() || digits.size() > 6 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return -1;
  }
  return std::stol(digits);
}

WorkloadFiles ListFolder(const std::string& folder) {
  WorkloadFiles files;
  files.folder = folder;
  std::error_code ec;
  std::string merged;
  std::vector<std::pair<long, std::string>> passes;
  std::vector<std::string> sq;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
    std::error_code type_ec;
    if (!entry.is_regular_file(type_ec)) continue;
    const std::string name = entry.path().filename().string();
    const std::string path = entry.path().string();
    if (name == "pmc_perf.csv") {
      merged = path;
    } else if (long n = PassNumber(name); n >= 0) {
      passes.emplace_back(n, path);
    } else if (name.starts_with("SQ") && name.ends_with(".csv")) {
      sq.push_back(path);  // SQ_LEVEL_WAVES.csv, SQ_INST_LEVEL_*.csv, SQC_*.csv
    } else if (name == "timestamps.csv") {
      files.timestamps = path;
    } else if (name == "sysinfo.csv") {
      files.sysinfo = path;
    } else if (name == "roofline.csv") {
      files.roofline = path;
    }
  }
  std::sort(passes.begin(), passes.end());
  std::sort(sq.begin(), sq.end());
  // The merged pmc_perf.csv already holds every pmc_perf_N pass; without it the passes are read
  // and joined here.
  if (!merged.empty()) files.counter_files.push_back(merged);
  if (merged.empty()) {
    for (const auto& [n, path] : passes) files.counter_files.push_back(path);
  }
  if (!files.counter_files.empty()) {
    files.counter_files.insert(files.counter_files.end(), sq.begin(), sq.end());
  }
  return files;
}

}  // namespace

WorkloadFiles FindWorkloadFiles(const std::string& folder) {
  WorkloadFiles here = ListFolder(folder);
  if (here.any()) return here;
  std::error_code ec;
  std::vector<std::string> subfolders;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder, ec)) {
    std::error_code type_ec;
    if (entry.is_directory(type_ec)) subfolders.push_back(entry.path().string());
  }
  if (subfolders.size() != 1) return here;
  return ListFolder(subfolders[0]);
}

}  // namespace tensormorph::rocprof::compute
