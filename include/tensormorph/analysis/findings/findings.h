// What to fix first (`tensormorph findings`, README "Findings"): deterministic rules over the
// figures of timeline, roofline and occupancy, each finding with the time it would give back.
//
// Invariants:
//  - every number a finding shows is the figure its analysis prints (timeline's gaps, causes,
//    launch and copy figures; roofline's rows; occupancy's rows), never a recomputation of it;
//  - gains never count a nanosecond twice. Idle time: each of timeline's gaps belongs to one rule
//    by its cause (host_launch_gaps, synchronization, blocking_copies), and launch_bound_kernels
//    claims at most the idle time left outside those gaps, so the idle rules' gains add up to at
//    most the device's idle time. Busy time: each kernel or copy row is claimed by one rule
//    (fp32_matmul before below_roof; pageable copies by blocking_copies, not slow_copies).
//  - findings are ranked by gain, largest first; rules that claim no time (low_occupancy) last.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tensormorph/analysis/memory/memory.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/analysis/ops/ops.h"
#include "tensormorph/analysis/roofline.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/devices/device_db.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct FindingsQuery {
  int64_t min_gap_ns = 10'000;  // idle gaps longer than this are the gap rules' evidence
  // below_roof: the share of the roof a well-tuned op reaches; the gain is the time above it.
  double attainable_roof_percent = 70;
  // slow_copies: copies below this share of their link's peak.
  double slow_copy_percent = 25;
  // low_occupancy: rows with at least this share of the input's kernel time, occupancy below
  // low_occupancy_percent.
  double occupancy_time_percent = 5;
  double low_occupancy_percent = 50;
  size_t top_items = 5;                              // evidence items per finding
  const std::vector<DeviceSpec>* devices = nullptr;  // null = BuiltInDevices()
  // The timeline's (stragglers and launch queues are its figures).
  int64_t queue_limit = TimelineOptions{}.queue_limit;
  double straggler_threshold_percent = TimelineOptions{}.straggler_threshold_percent;
  bool as_job = false;  // several inputs are one job's ranks whatever DescribeJob finds
  // AnalyzeCollectives of the same inputs and job layout with default options, when the caller
  // has it (whatif, the report); null: the timeline analyses them.
  const CollectivesResult* collectives = nullptr;
  // AnalyzeTimeline of the same inputs and collectives with this query's queue limit, straggler
  // threshold, as_job and devices and a min_gap_ns no longer than this query's, when the caller
  // has it (the report): its gaps longer than min_gap_ns are the gap rules' (WithLongerGaps);
  // null: the findings analyse the timeline themselves.
  const TimelineResult* timeline = nullptr;
  // The work rules' analyses of a single input, when the caller has them (the report): its
  // AnalyzeRoofline and SummarizeOps with this query's devices and their other options at their
  // defaults, its SummarizeKernelOccupancy with the default query. Read only when there is one
  // input (the analyses combine the rows of several); null: the rules run their own.
  const RooflineResult* roofline = nullptr;
  const OpSummary* ops = nullptr;
  const KernelOccupancySummary* occupancy = nullptr;
  // The memory rules' analysis of a single input, likewise: its AnalyzeMemory with this query's
  // devices and a `top` no smaller than top_items (the rules list the first top_items rows of its
  // ranked tables); null: the rules run their own.
  const MemoryResult* memory = nullptr;
  // The work rules (roofline, occupancy) run on a second thread beside the timeline; false runs
  // everything on the caller's thread (`--threads 1`).
  bool concurrent = true;
};

using EvidenceValue = std::variant<int64_t, double, std::string>;
struct Evidence {
  std::string key;
  EvidenceValue value;
};

// One of the top items behind a finding (a gap, an op, a kernel, a copy kind).
struct FindingItem {
  std::string name;
  std::vector<Evidence> figures;
};

struct FindingWhere {
  int input = 0;
  std::string device;  // DeviceLabel (occupancy rows: the architecture)
  std::optional<int64_t> stream;
  std::string op, kernel;
};

// Work a fix makes faster (below_roof, fp32_matmul, slow_copies): every row the finding claims,
// not only its top items; `whatif` applies them to the trace's graph.
struct WorkSpeedup {
  std::string name;  // the op (kind "op": the outermost framework op of that name around the
                     // kernels), the kernel ("kernel"), or the copy kind's label ("copy")
  std::string kind;
  uint32_t device = 0;  // Trace::devices index of the finding's input
  double factor = 1;    // the work takes 1/factor of its measured time
};

struct Finding {
  std::string rule;      // host_launch_gaps, synchronization, blocking_copies, ...
  std::string severity;  // high (gain >= 10 % of the basis), medium (>= 2 %), low, info (no gain)
  std::string title;
  int64_t estimated_gain_ns = 0;
  // The gain as a share of its input's basis (FindingsResult::bases), at most 100; a straggler's
  // of the other ranks' profiled time (RankSteps::wait_caused_percent).
  double gain_percent = 0;
  std::string gain_basis;  // "steps", "span" or, for stragglers, "other ranks"
  FindingWhere where;
  std::vector<Evidence> evidence;
  std::vector<FindingItem> top;
  std::string fix;
  std::vector<WorkSpeedup> speedups;
  // The fix simulated on the trace's own dependencies (whatif.h: AttachWhatIf): the steps'
  // summed length after it, and what it gives back; absent where the rule's fix is not simulated.
  std::optional<int64_t> simulated_step_ns, simulated_gain_ns;
};

// What one input's gain_percent values are shares of, stated once: the longer of its steps' summed
// length ("steps") and its busiest device's span ("span"). The gains are device time (idle gaps,
// exposed communication, time above a roof), which can outlast the host's steps when the device
// runs behind the host; the longer of the two keeps every share within 100 %.
struct GainBasis {
  int input = 0;
  std::string basis;  // "steps" or "span"
  int64_t basis_ns = 0;
};

struct FindingsResult {
  std::vector<GainBasis> bases;  // one per input
  // Summed over the findings but stragglers (a straggler's excess is the others' wait, time its
  // own findings claim already).
  int64_t total_gain_ns = 0;
  std::vector<Finding> findings;  // by gain, largest first
};

// The rules' names, in the README's order.
const std::vector<std::string>& FindingRules();

FindingsResult FindFindings(const std::vector<const LinkedTrace*>& inputs,
                            const FindingsQuery& query);

}  // namespace tensormorph
