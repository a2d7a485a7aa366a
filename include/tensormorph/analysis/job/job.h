// Whether several inputs are one job, and its ranks. A job's ranks are what the cross-rank analyses
// (collectives, the timeline's ranks, the stragglers finding) compare; inputs that are not one job
// are reported per input, never as ranks.
//
// The rules (docs/collectives.md):
//  - several inputs are one job when every one names its rank (Kineto's distributedInfo), the world
//    sizes agree, the ranks are distinct and the inputs' time spans overlap, allowing
//    kJobClockTolerance for clocks of different hosts;
//  - one input that names its rank is one rank of a job (of world size N when it says so);
//  - one input whose devices ran work for two or more host processes, each device for one process
//    only (an Nsight Systems export of a job launched with one process per GPU), is one rank per
//    process, numbered by pid order;
//  - `as_job` makes several inputs one job whatever the checks find, each input a rank (its own
//    rank where it names one, else its position).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph {

// How far apart two ranks' clocks may be and the inputs still count as overlapping in time.
constexpr int64_t kJobClockTolerance = 60'000'000'000;  // 60 s

struct JobRank {
  int input = 0;  // index into the inputs
  int64_t rank = 0;
  bool rank_from_trace = false;  // the trace named it (else pid order or input position)
  std::optional<int64_t> pid;    // the host process, for a rank that is one process of an input
  // The input's devices (Trace::devices indexes) that are this rank's; empty = all of them.
  std::vector<uint32_t> devices;
};

struct JobLayout {
  bool is_job = false;  // the inputs are (ranks of) one job
  bool forced = false;  // --as-job made them one
  // Every rank of the job is given (as many ranks as its world size, or no world size known).
  // Only then is a collective's last arrival among the given ranks for sure, so only then are
  // stragglers named.
  bool complete = false;
  std::optional<int64_t> world_size;
  std::string backend;  // "nccl", "rccl", ... when the traces say
  // By rank when is_job; otherwise one entry per input, numbered by position (labels only).
  std::vector<JobRank> ranks;
  std::string verdict;  // what was found, as one sentence for the reports
};

// Pure: reads the traces' rank facts, spans and launch tracks.
JobLayout DescribeJob(const std::vector<const Trace*>& inputs, bool as_job);

// True when kernel `k` of `trace` ran on one of `rank`'s devices.
bool OnRankDevices(const JobRank& rank, const Kernel& kernel);

}  // namespace tensormorph
