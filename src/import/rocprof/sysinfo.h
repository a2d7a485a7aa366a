// The rocminfo text rocprof v1 writes beside its results (`results.sysinfo.txt` beside
// results.csv and results.db): the run's agents, so that a v1 trace names its devices ("AMD
// Instinct MI250X/MI250", gfx90a, 104 CUs) instead of labelling them by gpu-id.
#pragma once

#include <string>
#include <vector>

#include "import/rocprof/common/agents.h"
#include "tensormorph/io/input.h"

namespace tensormorph::rocprof {

struct SysinfoAgents {
  std::vector<AgentInfo> agents;
  std::string file_name;  // the file read ("results.sysinfo.txt"); empty when none was
};

// The agents of the sysinfo file beside `input` (rocminfo.h: SysinfoPathBeside), read with the
// input's limits. No such file: no agents and no warning. A file there that cannot be read, is
// not rocminfo's text or names no agent: no agents, and `warning` says why.
SysinfoAgents ReadSysinfoBeside(const Input& input, std::string* warning);

}  // namespace tensormorph::rocprof
