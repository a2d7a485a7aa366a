#include "import/rocprof/side_files.h"

#include <fmt/format.h>

#include <filesystem>

#include "import/rocprof/common/rocminfo.h"
#include "import/rocprof/compute/workload.h"

namespace tensormorph::rocprof {
namespace {

std::string_view FirstLine(std::string_view head) {
  if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3);
  return head.substr(0, head.find_first_of("\r\n"));
}

// The sibling `<prefix>kernel_trace.csv` a rocprofv3 file of `suffix` points to, when it exists.
std::string KernelTraceBeside(const std::string& path, std::string_view suffix) {
  const std::filesystem::path file(path);
  std::string name = file.filename().string();
  if (!name.ends_with(suffix)) return {};
  name.replace(name.size() - suffix.size(), suffix.size(), "kernel_trace.csv");
  const std::filesystem::path sibling = file.parent_path() / name;
  std::error_code ec;
  return std::filesystem::is_regular_file(sibling, ec) ? sibling.string() : std::string();
}

// "<prefix>hip_api_stats.csv" -> "hip_api_stats.csv": the part rocprofv3 appends to the run's
// output prefix (output_stream.cpp names files <prefix>_<domain>_stats.csv).
std::string_view StatisticsSuffix(std::string_view path) {
  for (std::string_view domain :
       {"kernel_stats.csv", "hip_api_stats.csv", "hsa_api_stats.csv", "marker_api_stats.csv",
        "memory_copy_stats.csv", "memory_allocation_stats.csv", "rccl_api_stats.csv",
        "scratch_memory_stats.csv", "hip_domain_stats.csv", "domain_stats.csv"}) {
    if (path.ends_with(domain)) return domain;
  }
  return "_stats.csv";
}

std::string InsteadOf(const std::string& path, std::string_view suffix) {
  const std::string sibling = KernelTraceBeside(path, suffix);
  return sibling.empty() ? "the run's kernel_trace.csv (rocprofv3 --kernel-trace)"
                         : fmt::format("{} beside it", sibling);
}

// rocprof v1's --stats files (`results.stats.csv`, `results.hip_stats.csv`,
// `results.copy_stats.csv`) have five columns; rocprofv3's add MinNs, MaxNs and StdDev.
bool IsRocprofV1Statistics(std::string_view header) {
  return header.find("\"MinNs\"") == std::string_view::npos;
}

// The results.csv a rocprof v1 statistics file was written beside: `<prefix>.csv`, the prefix
// being the name up to its first dot (results.stats.csv -> results.csv).
std::string V1ResultsInstead(const std::string& path) {
  const std::filesystem::path file(path);
  const std::string name = file.filename().string();
  const std::filesystem::path sibling =
      file.parent_path() / (name.substr(0, name.find('.')) + ".csv");
  std::error_code ec;
  return std::filesystem::is_regular_file(sibling, ec)
             ? fmt::format("{} beside it", sibling.string())
             : std::string("the run's results.csv (rocprof v1 writes it beside this file)");
}

}  // namespace

SideFile ClassifySideFile(std::string_view head) {
  const std::string_view line = FirstLine(head);
  if (line.starts_with("\"Name\",\"Calls\",\"TotalDurationNs\"")) return SideFile::kStatistics;
  if (line.starts_with("ROCPROFV3 ") || (line.empty() && head.find("ROCPROFV3 ") < 8)) {
    return SideFile::kSummary;
  }
  if (line.starts_with("\"Kind\",\"Operation\",\"Agent_Id\",\"Allocation_Size\"")) {
    return SideFile::kMemoryAllocation;
  }
  if (line.starts_with("\"Kind\",\"Operation\",\"Agent_Id\",\"Queue_Id\"")) {
    return SideFile::kScratchMemory;
  }
  // pmc_dispatch_info.csv shares its first columns with rocprof-compute's timestamps.csv, which
  // is a kernel table; it is the one without times.
  const bool dispatch_info = line.starts_with("Dispatch_ID,Kernel_Name,GPU_ID") &&
                             line.find("Timestamp") == std::string_view::npos &&
                             line.find("BeginNs") == std::string_view::npos;
  if (LooksLikeRocminfoText(head)) return SideFile::kRocminfo;
  if (line.starts_with("workload_name,") || line.starts_with("device,HBMBw,") || dispatch_info) {
    return SideFile::kComputeTable;
  }
  return SideFile::kNone;
}

StatusOr<Trace> ImportSideFile(SideFile kind, const Input& input) {
  const std::string& path = input.path();
  const SourcePosition start{1, 1};
  switch (kind) {
    case SideFile::kStatistics: {
      StatusOr<std::string> head = input.Head(4096);
      if (head.ok() && IsRocprofV1Statistics(FirstLine(*head))) {
        return UnreadableInput(
            fmt::format("a rocprof v1 statistics file (--stats: totals per name, no dispatches "
                        "or times); read {} instead",
                        V1ResultsInstead(path)),
            start);
      }
      return UnreadableInput(
          fmt::format("a rocprofv3 statistics file (totals per name, no dispatches or times); "
                      "read {} instead",
                      InsteadOf(path, StatisticsSuffix(path))),
          start);
    }
    case SideFile::kSummary:
      return UnreadableInput(
          "a rocprofv3 summary (-S): tables of totals, no dispatches or times; read the run's "
          "kernel_trace.csv (rocprofv3 --kernel-trace --output-format csv) instead",
          start);
    case SideFile::kMemoryAllocation:
    case SideFile::kScratchMemory:
      return UnreadableInput(
          fmt::format(
              "a rocprofv3 {} trace: allocations, not kernels or copies; read {} "
              "instead (its copies and API calls are read with it)",
              kind == SideFile::kScratchMemory ? "scratch memory" : "memory allocation",
              InsteadOf(path, kind == SideFile::kScratchMemory ? "scratch_memory_trace.csv"
                                                               : "memory_allocation_trace.csv")),
          start);
    case SideFile::kComputeTable: {
      const std::string folder = std::filesystem::path(path).parent_path().string();
      if (compute::SniffWorkloadFolder(folder.empty() ? "." : folder) > 0) {
        return compute::ImportWorkload(input, folder.empty() ? "." : folder);
      }
      return UnreadableInput(
          "a rocprof-compute table (sysinfo.csv, roofline.csv or pmc_dispatch_info.csv) outside "
          "its workload folder: give the folder that holds pmc_perf.csv",
          start);
    }
    case SideFile::kRocminfo:
      return UnreadableInput(
          fmt::format("rocminfo's text (rocprof v1's sysinfo file: the run's agents, no "
                      "dispatches); read {} instead, which takes its device names from this file",
                      V1ResultsInstead(path)),
          start);
    case SideFile::kNone:
      break;
  }
  return UnreadableInput("not a rocprof side file", start);
}

}  // namespace tensormorph::rocprof
