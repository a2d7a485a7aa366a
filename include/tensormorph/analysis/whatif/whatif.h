// `tensormorph whatif` (docs/whatif.md): the step after a fix, simulated from the trace's own
// dependencies. The trace's work becomes one graph of events per job (or per input that is not a
// rank of one): each host thread's runtime calls and step marks in order with the measured host
// time between them, each device item's start released by its launch, its stream predecessor,
// the other-stream work it waited for (critical-path's rules) and, for a collective matched on
// every rank, its end by the last rank's arrival; a blocking call's end by the device item it
// waited for. Replayed by earliest time, each event keeps its measured delay after its latest
// dependency, so with no change the replay is the trace (where it is not, the replay error says
// how far and the warnings why).
//
// Invariants (tested on every shared trace): no scenario lengthens a step (edits only remove
// dependencies and shorten costs, and the replay is monotone in both); a speedup of work off
// every step's critical path changes no step; speeding every kernel up by x shortens a step by at
// most its kernel time on the critical path x (1 - 1/x).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/job/collectives.h"
#include "tensormorph/analysis/job/job.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

// --speedup PATTERN=FACTOR: the matching device items take 1/factor of their time (a collective:
// its transfer). PATTERN is a work category (`gemm`, `attention`, ... compare's categories),
// `kernel~TEXT` (kernel names containing TEXT), or an op name (the framework op that launched the
// kernel, exactly: `aten::linear`).
struct WhatIfSpeedup {
  std::string pattern;
  double factor = 1;
};

struct WhatIfQuery {
  std::vector<WhatIfSpeedup> speedups;  // each its own scenario, then all of them as one
  // Blocking calls that no longer wait for the device: by their name (cudaDeviceSynchronize) or
  // the name of a framework op around them (aten::item).
  std::vector<std::string> remove_syncs;
  bool no_host_gaps = false;  // the scenario "every step launched as one graph"
  // The scenarios of the findings (one per finding whose rule has a mechanical fix, WhatIfRules)
  // and all of them as one; `found`: the findings of the same inputs when the caller has them
  // (null: FindFindings with its defaults).
  bool findings = true;
  const FindingsResult* found = nullptr;
  bool as_job = false;       // the inputs are one job whatever DescribeJob finds
  bool align_clocks = true;  // false: each rank's own clock
  // AnalyzeCollectives of the same inputs and layout (align_clocks as above), when the caller has
  // it; null: analysed here for a job of two or more ranks.
  const CollectivesResult* collectives = nullptr;
  bool concurrent = true;  // the scenarios' replays on a thread per core (false: `--threads 1`)
};

struct WhatIfStep {
  int input = 0;                // the first input of the group (a job: its lowest rank's)
  std::optional<int64_t> step;  // N of ProfilerStep#N; none for the whole trace
  int64_t measured_ns = 0;
  int64_t replayed_ns = 0;     // the replay with no change
  int64_t unexplained_ns = 0;  // device start delays beyond the device's median for their kind
};

struct WhatIfScenarioStep {
  int input = 0;
  std::optional<int64_t> step;
  int64_t measured_ns = 0;
  int64_t simulated_ns = 0;  // measured + (scenario's replay - no-change replay)
};

struct WhatIfScenario {
  std::string name;               // "host_launch_gaps cuda:0", "gemm=2", "all findings", ...
  std::string kind;               // "finding", "all" or "user"
  std::string rule;               // the findings rule ("" for a user scenario)
  std::optional<size_t> finding;  // its index in the findings (kind "finding")
  std::string description;        // what was changed, in words
  int64_t measured_ns = 0;        // summed over the steps
  int64_t simulated_ns = 0;
  int64_t delta_ns() const { return simulated_ns - measured_ns; }
  double delta_percent() const;
  size_t changed_events = 0;  // the graph's events the edit touched (0: nothing to change)
  std::vector<WhatIfScenarioStep> steps;
};

struct WhatIfResult {
  std::vector<WhatIfStep> steps;
  std::vector<WhatIfScenario> scenarios;
  std::vector<std::string> warnings;
};

// The findings rules whose fix the simulator applies (host_launch_gaps, launch_bound_kernels,
// synchronization, blocking_copies, below_roof, fp32_matmul, slow_copies, exposed_communication,
// stragglers); the others' findings carry no simulated figures.
const std::vector<std::string>& WhatIfRules();

// Pure over the linked inputs; `job` is DescribeJob's layout of them (critical-path's).
WhatIfResult SimulateWhatIf(const std::vector<const LinkedTrace*>& inputs, const JobLayout& job,
                            const WhatIfQuery& query);

// SimulateWhatIf in two parts. The graphs, each with its no-change replay, come from the inputs,
// the job and the query's as_job, align_clocks and collectives alone, not from the findings: the
// report builds them beside its findings analysis, then runs the scenarios of those findings on
// them. RunWhatIf's query must carry the same as_job, align_clocks and collectives; the graphs
// must not outlive the inputs. SimulateWhatIf is RunWhatIf over BuildWhatIfGraphs.
struct WhatIfGraphs;
std::shared_ptr<const WhatIfGraphs> BuildWhatIfGraphs(const std::vector<const LinkedTrace*>& inputs,
                                                      const JobLayout& job,
                                                      const WhatIfQuery& query);
WhatIfResult RunWhatIf(const std::vector<const LinkedTrace*>& inputs, const WhatIfGraphs& graphs,
                       const WhatIfQuery& query);

// Each simulated finding's simulated_step_ns and simulated_gain_ns from `whatif`'s scenarios
// (run with `found` = `findings`), then the findings ranked by the simulated gain where there is
// one, else the estimated gain (stable: ties keep the rules' order).
void AttachWhatIf(const WhatIfResult& whatif, FindingsResult* findings);

// `findings` of `inputs` with each fix simulated: SimulateWhatIf with found = findings (the
// inputs' DescribeJob layout, `as_job` as findings had it), then AttachWhatIf. `graphs`:
// BuildWhatIfGraphs of the same inputs, layout, as_job and collectives when the caller built them
// already (null: built here).
void SimulateFindings(const std::vector<const LinkedTrace*>& inputs, bool as_job,
                      FindingsResult* findings, const CollectivesResult* collectives = nullptr,
                      const WhatIfGraphs* graphs = nullptr);

// FindFindings, then (with `simulate`) SimulateFindings, the collectives of a job of two or more
// ranks analysed once for both (unless the query carries them): `findings`' and Python's path.
FindingsResult FindSimulatedFindings(const std::vector<const LinkedTrace*>& inputs,
                                     FindingsQuery query, bool simulate);

}  // namespace tensormorph
