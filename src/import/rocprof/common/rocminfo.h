// The agents of `rocminfo`, as rocprof v1 keeps them: the tool's text in `<name>.sysinfo.txt`
// beside results.csv / results.db (first line "CMD: rocminfo", ANSI colour escapes around the
// module line), or flattened into results.json's otherData ("Agent2.MarketingName"). Both hold,
// per "Agent N" (rocminfo's own count, CPU agents first), the same fields; a field's name is
// rocminfo's with its spaces removed ("Marketing Name" -> "MarketingName"), as the flattened
// keys write it. The node id ("Node") is what v1's gpu-id column holds.
//
// Only an agent's own fields are read (two-space indent in the text); the nested Cache, Pool
// and ISA sections are not. In the flattened keys rocprof nests every field after "Memory
// Properties" under "MemoryProperties." (WavefrontSize, MaxWavesPerCU): that prefix is dropped.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "import/rocprof/common/agents.h"

namespace tensormorph::rocprof {

// rocminfo field name (spaces removed) -> value text, per rocminfo agent number.
using RocminfoAgents = std::map<int64_t, std::map<std::string, std::string>>;

// Whether the first bytes are rocminfo's text (rocprof's sysinfo file or rocminfo's own output).
bool LooksLikeRocminfoText(std::string_view head);

// The agents of rocminfo's text, each with its own fields (nested sections left out).
RocminfoAgents ParseRocminfoText(std::string_view text);

// Adds one flattened key ("Agent2.MarketingName") with its value; other keys are ignored.
void AddFlattenedRocminfoKey(std::string_view key, const std::string& value,
                             RocminfoAgents* agents);

// AgentInfo per agent with a readable Node (the rest is left out), GPUs numbered (NumberGpus):
// DeviceType "GPU", Name the gfx target ("gfx90a"), MarketingName, ComputeUnit, WavefrontSize
// and MaxWavesPerCU ("64(0x40)" reads as 64), the gfx target version from the name.
std::vector<AgentInfo> AgentsFromRocminfo(const RocminfoAgents& agents);

// "<stem>.sysinfo.txt" beside `path` (results.csv -> results.sysinfo.txt), as rocprof v1 names
// it.
std::string SysinfoPathBeside(const std::string& path);

}  // namespace tensormorph::rocprof
