#include "import/rocprof/siblings.h"

#include <filesystem>
#include <string_view>

namespace tensormorph::rocprof {
namespace {

struct FileName {
  CsvKind kind;
  std::string_view suffix;
};

// Agent info first: the other files resolve their agents against it.
constexpr FileName kNames[] = {
    {CsvKind::kAgentInfo, "agent_info.csv"},
    {CsvKind::kKernels, "kernel_trace.csv"},
    {CsvKind::kMemoryCopy, "memory_copy_trace.csv"},
    {CsvKind::kHipApi, "hip_api_trace.csv"},
    {CsvKind::kHipApi, "hip_trace.csv"},
};

}  // namespace

std::vector<Sibling> FindSiblings(const std::string& path, CsvKind kind) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  const std::string file = p.filename().string();
  std::optional<std::string> prefix;
  for (const FileName& n : kNames) {
    if (n.kind == kind && file.ends_with(n.suffix)) {
      prefix = file.substr(0, file.size() - n.suffix.size());
      break;
    }
  }
  std::vector<Sibling> siblings;
  if (!prefix) return siblings;
  // "x_kernel_trace.csv" has the prefix "x_"; a prefix must be empty or end in '_', so that
  // "old_kernel_trace.csv" is not taken as a sibling of "kernel_trace.csv".
  if (!prefix->empty() && prefix->back() != '_') return siblings;
  bool have_hip = kind == CsvKind::kHipApi;
  for (const FileName& n : kNames) {
    if (n.kind == kind) continue;
    if (n.kind == CsvKind::kHipApi && have_hip) continue;
    const fs::path candidate = p.parent_path() / (*prefix + std::string(n.suffix));
    std::error_code ec;
    if (!fs::is_regular_file(candidate, ec)) continue;
    siblings.push_back({n.kind, candidate.string()});
    if (n.kind == CsvKind::kHipApi) have_hip = true;
  }
  return siblings;
}

}  // namespace tensormorph::rocprof
