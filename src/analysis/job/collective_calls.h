// One rank's collective kernels with what their launching ops say of them, for matching across
// ranks (collectives.h). A kernel's message bytes are, in this order: record_param_comms' (or the
// op's) "In/Out msg nelems" x dtype; the first input of the nccl:<type> range around its launch
// (ProcessGroupNCCL records the flattened tensor); record_param_comms' first input; else unknown.
// Its type: "Collective name", else the nccl:/rccl:/c10d:: op or range, else the kernel name.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/analysis/job/job.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct CollectiveCall {
  uint32_t kernel = 0;    // index into Trace::kernels
  std::string_view name;  // the kernel's name (views the trace's strings)
  int64_t stream = -1;
  int64_t start_ns = 0, end_ns = 0;  // the rank's own clock
  std::string type;                  // CollectiveType
  std::string process_group;
  std::optional<int64_t> seq, bytes, group_size;
};

// The collective kernels of `rank` in `linked` (names with "nccl" or "rccl", any case), by start.
std::vector<CollectiveCall> CollectiveCallsOf(const LinkedTrace& linked, const JobRank& rank);

// The normalised type of a collective from any of its names: record_param_comms' "Collective
// name" (allreduce, _allgather_base, all_to_allv), an op name (nccl:all_reduce,
// c10d::alltoall_base_) or a kernel name (ncclKernel_AllReduce_RING_LL_Sum_float,
// ncclDevKernel_SendRecv): all_reduce, all_gather, reduce_scatter, all_to_all, broadcast,
// reduce, send_recv, barrier; "" when the name says none of them.
std::string CollectiveType(std::string_view name);

// Bytes of one element of a dtype as PyTorch spells it ("Float", "c10::BFloat16", "long int");
// 0 when unknown.
int64_t ElementBytes(std::string_view dtype);

}  // namespace tensormorph
