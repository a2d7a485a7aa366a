// The files of one rocprofv3 run: `<prefix>_kernel_trace.csv`, `<prefix>_memory_copy_trace.csv`,
// `<prefix>_hip_api_trace.csv` (`hip_trace.csv` in the docs' samples), `<prefix>_agent_info.csv`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "import/rocprof/common/columns.h"

namespace tensormorph::rocprof {

struct Sibling {
  CsvKind kind;
  std::string path;
};

// The other files of the run that `path` (of kind `kind`) belongs to and that exist, in the
// order agent info, kernels, memory copies, HIP API. Empty when the file name does not end in
// its kind's rocprofv3 name (a renamed file or a v1/v2 results.csv stands alone).
std::vector<Sibling> FindSiblings(const std::string& path, CsvKind kind);

}  // namespace tensormorph::rocprof
