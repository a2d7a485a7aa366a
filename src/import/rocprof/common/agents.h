// Agents (devices) of a rocprof run. Rows name their agent by id text: rocprofv3 writes
// "Agent N" (the default `--agent-index=relative`: the logical node id), "GPU N"/"CPU N" with
// `type-relative`, ROCm 6.2 and rocprof v1/v2 a bare node id / gpu-id. With the run's
// agent_info.csv an agent becomes a named device with its GPU ordinal (its place among the GPU
// agents by logical node id), gfx target and CU count. Without it only "GPU N" gives an
// ordinal: an "Agent N" also counts the CPU agents, so no ordinal is guessed, as for Kineto's
// ROCm devices (labelled rocm:agentN).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "import/rocprof/common/columns.h"
#include "import/rocprof/common/csv_file.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof {

struct AgentInfo {
  int64_t node_id = -1;
  int64_t logical_node_id = -1;
  bool gpu = false;
  std::string gfx;                 // Name: "gfx942"
  std::string product;             // Product_Name: "AMD Instinct MI300X"
  int64_t gfx_target_version = 0;  // 90402 = gfx 9.4.2
  int64_t cu_count = 0, wave_front_size = 0, max_waves_per_cu = 0, lds_kb = 0;
  int32_t gpu_ordinal = -1;  // place among the GPU agents by logical node id
};

// Sets gpu_ordinal on the GPU agents: their place among the GPU agents by logical node id.
void NumberGpus(std::vector<AgentInfo>* agents);

// Reads agent_info.csv (columns by name; a row without node ids is skipped with a warning).
Status ReadAgentInfo(CsvFile* file, Warnings* warnings, std::vector<AgentInfo>* agents);

// The key under Trace::metadata that carries a device's gfx target name (JSON text, e.g.
// "\"gfx942\""), shown by info and the exports. Analyses read Device::arch, which the importers
// set beside it (and the native reader sets from it).
std::string GfxArchMetadataKey(int64_t trace_id);

// Turns agent id text into device indexes of one Trace, creating devices on first use.
class DeviceResolver {
 public:
  DeviceResolver(const std::vector<AgentInfo>& agents, Trace* trace)
      : agents_(agents), trace_(trace) {}
  // The device of a GPU agent; kNoDevice for a CPU agent, an empty or unreadable id.
  uint32_t Resolve(std::string_view agent_text);
  // One device for the kernels of a file without an agent column (every kernel ran on some GPU;
  // which one the file does not say).
  uint32_t Unrecorded();
  // Whether the id names a CPU agent ("CPU N", or a CPU in agent_info).
  bool IsHost(std::string_view agent_text) const;
  // Forgets the devices from index `count` on (the caller took them back out of the trace).
  void Forget(size_t count);

 private:
  const AgentInfo* Find(const AgentRef& ref) const;

  const std::vector<AgentInfo>& agents_;
  Trace* trace_;
  std::map<std::pair<int, int64_t>, uint32_t> devices_;  // (space, number) -> device
};

}  // namespace tensormorph::rocprof
