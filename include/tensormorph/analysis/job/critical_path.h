// The critical path of each step across the ranks of one job (docs/critical-path.md): the chain
// of work that bounded the step, found by walking back from the step's end along the dependency
// that released each piece of work (launch, stream order, another stream's work, the device work a
// synchronising call waited for, the last rank to arrive at a collective).
//
// Invariants of every CriticalPathStep: `path` is in time order and contiguous (each piece ends
// where the next starts), covers [start_ns, end_ns) exactly, and its pieces summed by category
// are `composition`, whose fields add up to length_ns(). Times are aligned to the lowest rank's
// clock (CollectivesResult::clocks).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/job/collectives.h"
#include "tensormorph/analysis/job/job.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

enum class PathKind : uint8_t {
  kKernel,              // compute
  kMemcpy,              // compute
  kMemset,              // compute
  kCollectiveTransfer,  // comm_transfer: a collective kernel after the last rank arrived
  kCollectiveWait,      // comm_wait: before it, where the walk could not cross to the last rank
  kLaunch,              // host: launch call start -> kernel start
  kSync,                // host: waited-for work's end -> the synchronising call's end
  kCpuOp,               // host: inside an outermost framework op
  kCpu,                 // host: outside every op ("(no op)")
  kStepNotStarted,      // host: the rank had not begun the step (window start -> its step start)
  kIdle,                // idle: the device waited with nothing on the path running
};
const char* PathKindName(PathKind kind);      // "kernel", "collective_transfer", ...
const char* PathCategoryName(PathKind kind);  // "compute", "comm_transfer", "comm_wait", ...

struct PathPiece {
  int input = 0;
  std::optional<int64_t> rank;  // none for an input that is not a rank of a job
  PathKind kind = PathKind::kIdle;
  std::string name;
  int64_t start_ns = 0, end_ns = 0;
};

struct PathComposition {
  int64_t compute_ns = 0, comm_transfer_ns = 0, comm_wait_ns = 0, host_ns = 0, idle_ns = 0;
  int64_t total() const { return compute_ns + comm_transfer_ns + comm_wait_ns + host_ns + idle_ns; }
  void Add(PathKind kind, int64_t ns);
};

struct CriticalPathStep {
  std::optional<int64_t> step;  // N of ProfilerStep#N; none for the whole-trace window
  std::optional<int> input;     // the input walked, when the inputs are not one job
  int64_t start_ns = 0, end_ns = 0;
  std::optional<int64_t> end_rank;  // the rank whose work ended the step
  std::vector<int64_t> ranks;       // the ranks the path passes through, ascending
  PathComposition composition;
  std::vector<PathPiece> path;
  int64_t length_ns() const { return end_ns - start_ns; }
};

struct CriticalPathOptions {
  bool align_clocks = true;     // false (--no-clock-align): every offset 0
  std::optional<int64_t> step;  // only ProfilerStep#N
  // AnalyzeCollectives over the same inputs, job and align_clocks, when the caller has it already
  // (the report); null: computed here.
  const CollectivesResult* collectives = nullptr;
};

struct CriticalPathResult {
  JobLayout job;
  std::vector<RankClock> clocks;  // by rank, as `collectives` reports them (a job only)
  std::vector<CriticalPathStep> steps;
  std::vector<std::string> warnings;
};

// Pure over the linked inputs. `job` is DescribeJob's layout of the same inputs: a job is walked
// as one (its steps are the ProfilerStep numbers every rank has); inputs that are not one job are
// walked one by one.
CriticalPathResult AnalyzeCriticalPath(const std::vector<const LinkedTrace*>& inputs,
                                       const JobLayout& job, const CriticalPathOptions& options);

}  // namespace tensormorph
