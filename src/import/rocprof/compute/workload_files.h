// Which files of a rocprof-compute workload folder exist (workload.h).
#pragma once

#include <string>
#include <vector>

namespace tensormorph::rocprof::compute {

struct WorkloadFiles {
  std::string folder;
  std::vector<std::string> counter_files;     // the primary pmc_perf first, then the other passes
  std::string timestamps, sysinfo, roofline;  // "" when absent
  bool any() const {
    return !counter_files.empty() || !timestamps.empty() || !sysinfo.empty() || !roofline.empty();
  }
};

// The files of `folder`, or of its only subfolder when `folder` itself has none (the
// `workloads/<name>/` level above the SoC folder).
WorkloadFiles FindWorkloadFiles(const std::string& folder);

}  // namespace tensormorph::rocprof::compute
