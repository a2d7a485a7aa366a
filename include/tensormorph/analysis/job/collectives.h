// Collectives across the ranks of one job (DESIGN §4 "collectives"; docs/collectives.md): each
// NCCL/RCCL collective kernel matched on every rank, the ranks' clocks aligned from them, and per
// collective the skew, each rank's wait, the transfer time and the bandwidths.
//
// Definitions:
//  - a rank's collective kernels are its kernels whose name holds "nccl" or "rccl" (any case);
//  - matching: by (process group, Seq) of the record_param_comms op that launched each kernel when
//    every collective kernel has one; otherwise by (kernel name, stream, k): the k-th kernel of
//    that name on that stream of each rank, by start. An instance is a key every rank has; kernels
//    some ranks lack are counted in a warning;
//  - clocks: rank r's offset from the lowest rank is the median over instances of (r's end - the
//    lowest rank's end), since a collective's kernels end together on every rank; the uncertainty
//    is 1.4826 x the median absolute deviation of those differences (a standard deviation's
//    estimate). Aligned time = the rank's time - its offset; every figure below uses aligned times;
//  - per instance: skew = last start - first start; a rank's wait = time in its kernel before the
//    last rank arrived, max(0, min(end, last start) - start); transfer = last end - last start;
//    algorithm bandwidth = bytes / transfer; bus bandwidth = that x nccl-tests' factor for n ranks
//    (all-reduce 2(n-1)/n; all-gather, reduce-scatter, all-to-all (n-1)/n; broadcast, reduce,
//    send/recv 1); the last rank is the one with the latest start (ties: the lowest rank);
//  - per rank: the wait it suffered (its waits summed) and the wait it caused (the others' waits at
//    the instances it arrived last at), and why it was late there: its time from the end of its
//    previous collective to this one's start split into computation (non-collective device work),
//    communication and idle, each compared with the other ranks' median; the largest excess names
//    the cause.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/job/job.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct CollectiveOptions {
  bool align_clocks = true;  // false (--no-clock-align): every offset 0
};

struct RankClock {
  int input = 0;
  int64_t rank = 0;
  int64_t offset_ns = 0;
  std::optional<int64_t> uncertainty_ns;  // none for the reference rank or without instances
  size_t samples = 0;                     // instances the offset was estimated from
};

struct CollectiveRankTiming {
  int64_t rank = 0;
  int64_t start_ns = 0, end_ns = 0;  // aligned
  int64_t wait_ns = 0;
  std::optional<int64_t> bytes;  // this rank's message bytes, when its trace says
  uint32_t kernel = 0;           // index into the rank's Trace::kernels
};

struct CollectiveInstance {
  size_t index = 0;  // position by first (aligned) start
  std::string name;  // the kernel name (on the lowest rank)
  std::string type;  // all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce,
                     // send_recv, barrier, or "other"
  std::string process_group;  // "" when the trace does not say
  std::optional<int64_t> seq;
  std::optional<int64_t> bytes;  // the largest of the ranks' message bytes; none when unknown
  int64_t group_size = 0;        // n of the bus-bandwidth factor
  std::vector<CollectiveRankTiming> ranks;  // by rank
  int64_t first_start_ns = 0, last_start_ns = 0;
  int64_t skew_ns = 0, transfer_ns = 0;
  std::optional<double> algo_bytes_per_s, bus_bytes_per_s;  // none without bytes or transfer
  int64_t last_rank = 0;
};

// The instances of one type in one message-size bucket (BytesBucketName).
struct CollectiveTypeSummary {
  std::string type;
  std::string size_bucket;
  size_t count = 0;
  std::optional<int64_t> bytes;  // summed over the instances with known bytes
  int64_t skew_ns = 0, max_skew_ns = 0, wait_ns = 0, transfer_ns = 0;  // summed (max: largest)
  std::optional<double> algo_bytes_per_s, bus_bytes_per_s;  // summed bytes / summed transfer
};

// Why a rank arrived late where it was last (see the header comment), summed over those instances.
struct LateCause {
  int64_t computation_ns = 0, communication_ns = 0, idle_ns = 0;  // excess over the others' median
  std::string cause;  // the largest of the three: "computation", "communication", "idle"; or ""
};

struct RankWaits {
  int input = 0;
  int64_t rank = 0;
  int64_t wait_suffered_ns = 0;
  int64_t wait_caused_ns = 0;
  size_t times_last = 0;
  LateCause late;
};

struct CollectivesResult {
  JobLayout job;
  std::string matched_by;         // "process group and Seq", "kernel name and stream order"
  std::vector<RankClock> clocks;  // by rank
  std::vector<CollectiveInstance> collectives;
  std::vector<CollectiveTypeSummary> by_type;  // by type, then bucket
  std::vector<RankWaits> per_rank;             // by rank; empty for one rank
  std::vector<std::string> warnings;
};

// Pure over the linked inputs (links for the launching ops). `job` is DescribeJob's layout of the
// same inputs; an input layout that is not a job yields no instances and a warning.
CollectivesResult AnalyzeCollectives(const std::vector<const LinkedTrace*>& inputs,
                                     const JobLayout& job, const CollectiveOptions& options);

// "< 1 KiB", "1 KiB - 64 KiB", "64 KiB - 1 MiB", "1 MiB - 16 MiB", "16 MiB - 256 MiB",
// ">= 256 MiB", or "unknown".
std::string BytesBucketName(std::optional<int64_t> bytes);

// nccl-tests' bus-bandwidth factor of `type` over n ranks (1 for types it does not define).
double BusBandwidthFactor(const std::string& type, int64_t n);

}  // namespace tensormorph
