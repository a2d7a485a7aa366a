// The processes of a rocpd database and what belongs to each: its agents (as devices), its
// threads (as tracks), its correlation ids and its rank.
//
// A process is one (guid, pid): one rocprofv3 run writes one process, `rocpd merge` joins several
// (the ranks of a job, each with its own guid). Per process:
//   * agents come from rocpd_info_agent (id = the agent's node id; logical_index, type, name =
//     gfx target, product_name, and extdata = rocprofiler's agent record with cu_count,
//     wave_front_size, max_waves_per_cu, lds_size_in_kb, gfx_target_version). They become
//     rocprof::AgentInfo and go through rocprof::DeviceResolver, as the rocprofv3 CSV and JSON
//     importers' agents do, so a device gets the same name, GPU ordinal, gfx arch metadata and CU
//     count (and so the same occupancy limits) whichever output format was read. As in the JSON
//     importer, each process resolves its own devices.
//   * correlation ids (rocpd_event.stack_id = rocprofiler's internal correlation id) are unique
//     within the process only, so the model's id is <process ordinal + 1:32><id:32>, as the
//     Nsight Systems importer does for its processes; 0 stays 0.
//   * the rank is read from the environment rocprofv3 recorded (RANK, OMPI_COMM_WORLD_RANK,
//     PMI_RANK, PMIX_RANK, SLURM_PROCID, MV2_COMM_WORLD_RANK; world size from WORLD_SIZE,
//     OMPI_COMM_WORLD_SIZE, PMI_SIZE, SLURM_NTASKS).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "import/rocpd/schema.h"
#include "import/rocprof/common/agents.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocpd {

struct ProcessInfo {
  std::string guid;
  int64_t pid = 0;
  std::string command;
  std::optional<int64_t> rank, world_size;
  std::vector<rocprof::AgentInfo> agents;
  std::map<int64_t, size_t> agent_by_id;  // rocpd_info_agent.id -> agents[]
  std::optional<rocprof::DeviceResolver> devices;
  std::map<int64_t, uint32_t> tracks;  // tid -> Trace::tracks
};

class Processes {
 public:
  explicit Processes(Trace* trace) : trace_(trace) {}

  // Reads rocpd_info_process, rocpd_info_thread (names) and rocpd_info_agent, when present.
  Status Read(const Database& db, const RocpdSchema& schema);

  // The ordinal of (guid, pid), created on first use for rows whose process has no info row.
  uint32_t Of(std::string_view guid, int64_t pid);
  const std::deque<ProcessInfo>& all() const { return processes_; }

  // The device of an agent id of the process; kNoDevice for a CPU agent. An id the agent table
  // does not describe becomes an undescribed device with that node id.
  uint32_t Device(uint32_t process, int64_t agent_id);
  bool IsCpuAgent(uint32_t process, int64_t agent_id) const;
  uint32_t Track(uint32_t process, int64_t tid);
  static uint64_t Correlation(uint32_t process, int64_t id) {
    if (id <= 0 || id > UINT32_MAX) return 0;
    return (uint64_t{process} + 1) << 32 | static_cast<uint64_t>(id);
  }

 private:
  Trace* trace_;
  std::deque<ProcessInfo> processes_;  // stable addresses: resolvers refer to their agents
  std::map<std::pair<std::string, int64_t>, uint32_t, std::less<>> by_key_;
  std::map<std::pair<uint32_t, int64_t>, std::string> thread_names_;
};

}  // namespace tensormorph::rocpd
