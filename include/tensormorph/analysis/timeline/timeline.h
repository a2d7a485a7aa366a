// The device timeline (DESIGN §4 "timeline"): per device, how much of its span it was busy, with
// what, on which streams, how many kernels ran at once, where it sat idle and why, how long the
// host took to get kernels onto it; per step; and across the ranks of one job, which rank is slow.
// Definitions follow nsys analyze (gpu_gaps) and Holistic Trace Analysis (temporal breakdown,
// communication/computation overlap, short kernels); docs/timeline.md states each one.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/devices/device_db.h"
#include "tensormorph/link/linked_trace.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

// The defaults here are the command line's and Python's too (they read a default-constructed one).
struct TimelineOptions {
  int64_t min_gap_ns = 100'000;  // report idle gaps strictly longer than this
  double straggler_threshold_percent = 10;
  // Run independent passes side by side (linking beside the passes over the trace alone, a
  // device's gaps beside its busy time); the result is the same either way.
  bool concurrent = true;
  // Launches a stream holds before the host blocks in the launch call: CUDA's default
  // (CUDA_MAX_LAUNCH_QUEUE_PER_STREAM), the limit HTA's get_time_spent_blocked_on_full_queue
  // takes.
  int64_t queue_limit = 1024;
  // The device table for the copies' link peaks (built-in entries with --device-spec applied).
  const std::vector<DeviceSpec>* devices = nullptr;  // null = BuiltInDevices()
  // Treat several inputs as the ranks of one job even when DescribeJob finds they are not
  // (--as-job).
  bool as_job = false;
};

enum class GapCause : uint8_t {
  kHostLaunchDelay,  // the launch call of the work after the gap started after the gap began
  kSynchronization,  // ... and a synchronize call on that thread ended in the gap before it
  kMemcpyWait,       // ... and a blocking (non-Async) memcpy/memset call did instead
  kQueued,           // the launch call came before the gap began: the GPU waited on a dependency
  kUnknown,          // the work after the gap has no launch call in the trace
  kGraphCapture,     // the launching thread was capturing a CUDA/HIP graph during the gap: its
                  // launches recorded the graph and ran nothing (analysis/timeline/graph_capture.h)
};
constexpr size_t kGapCauseCount = 6;
const char* GapCauseName(GapCause cause);

// `before` and `after` view the input trace's strings (a timeline holds hundreds of thousands of
// gaps, each naming two kernels): they stay valid while that Trace lives, as the LinkedTrace the
// timeline was made from must.
struct Gap {
  int64_t start_ns = 0;
  int64_t length_ns = 0;
  std::string_view before;  // name of the work that ended when the gap began
  std::string_view after;   // name of the work that started when the gap ended
  GapCause cause = GapCause::kUnknown;
  uint32_t launch_call = kNoRow;  // the Trace::api_calls row that gave the cause; kNoRow: none
};

struct CauseTotal {
  uint64_t count = 0;
  int64_t total_ns = 0;
};

struct NameCount {
  std::string name;
  uint64_t count = 0;
  int64_t total_ns = 0;
};

// Nearest-rank percentiles of one figure; all 0 over no values.
struct LatencyPercentiles {
  int64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;
};

// One graph replay (cudaGraphLaunch, hipGraphLaunch): a single launch call for all its kernels,
// so its kernels are not compared with the call one by one.
struct GraphLaunch {
  int64_t call_start_ns = 0;
  int64_t call_ns = 0;    // the launch call's own duration
  uint64_t kernels = 0;   // its kernels on this device
  int64_t kernel_ns = 0;  // their summed durations
  int64_t span_ns = 0;    // first kernel start to last kernel end
  int64_t first_start_ns = 0;
};

// Launch figures over the kernels launched by their own call (graph replays' kernels are left out
// and counted in graph_kernels; each replay is a GraphLaunch):
//  - start delay: kernel start - launch call start (p50_ns .. max_ns, `count` kernels);
//  - overhead: the launch call's own duration;
//  - queue: kernel start - launch call end, clipped at 0 (HTA's queue delay).
struct LaunchLatency {
  uint64_t count = 0;                                      // kernels launched by their own call
  int64_t p50_ns = 0, p90_ns = 0, p99_ns = 0, max_ns = 0;  // start delay
  LatencyPercentiles overhead, queue;
  // HTA's "short kernels": kernel duration < its launch call's duration (own-call kernels only).
  uint64_t launch_bound_count = 0;
  int64_t launch_bound_ns = 0;                // their summed kernel time
  int64_t launch_bound_call_ns = 0;           // their launch calls' summed durations
  std::vector<NameCount> launch_bound;        // by count, most first (top 5)
  uint64_t graph_kernels = 0;                 // kernels of graph replays
  std::vector<GraphLaunch> graph_launches;    // by call start
  LatencyPercentiles graph_call, graph_span;  // over graph_launches: call_ns, span_ns
};

// Launches issued to a stream and not yet started, over time (HTA's queue length): +1 when a
// launch call starts, -1 when its work starts on the stream; a step function with one point per
// change, at equal times the starts before the launches. Counted: the work of every launch call
// but graph launches (one call, many kernels); a synchronous copy is queued until it starts like
// any launch. HTA's launch-call list is a subset of these (it lacks hipModuleLaunchKernel and the
// synchronous copies but hipMemcpyWithStream).
struct QueueLength {
  uint64_t launches = 0;
  double mean = 0;       // HTA's mean: over the series' points, unweighted
  double time_mean = 0;  // weighted by time, first launch to last start
  int64_t max = 0;
  // Time the series sat at queue_limit or above (HTA's duration_at_max_queue_length): the host's
  // next launch call on that stream blocks there.
  int64_t time_at_limit_ns = 0;
};

// One stream of a device: its work's span and union, the idle time between (every gap, whatever
// its length, classified as the device's gaps are), and its launch queue.
struct StreamBusy {
  int64_t stream = -1;
  int64_t busy_ns = 0;
  uint64_t work_count = 0;
  int64_t start_ns = 0, end_ns = 0;  // first start, last end of its work
  int64_t idle_ns = 0;               // span - busy
  std::array<CauseTotal, kGapCauseCount> idle_causes{};
  QueueLength queue;
};

// Copies (and fills) of one kind on one device: their rate against the peak of the link they
// crossed. Peaks: host <-> device copies the device's host link (host_link_bytes_per_s, per
// direction); device-to-device copies half the memory bandwidth (each byte is read and
// written); fills the memory bandwidth (written once). Other copies have no peak here.
struct CopyBandwidth {
  TransferKind kind = TransferKind::kMemcpy;
  CopyDirection direction = CopyDirection::kUnknown;
  MemoryKind src_memory = MemoryKind::kUnknown, dst_memory = MemoryKind::kUnknown;
  uint64_t count = 0;
  uint64_t bytes = 0;
  int64_t duration_ns = 0;                 // summed durations
  std::optional<double> bytes_per_s;       // bytes / duration_ns; none without duration
  std::optional<double> peak_bytes_per_s;  // none: no link figure for this device and kind
  std::optional<double> percent_of_peak;
  std::string peak_source;  // "database: KEY host_link_bytes_per_s", "... memory_bandwidth / 2"
  std::string no_peak_reason;
};

struct StepTimeline {
  int64_t number = 0;  // N of ProfilerStep#N
  int64_t host_ns = 0;
  uint64_t work_count = 0;  // kernels and transfers launched in the step, on this device
  int64_t device_busy_ns = 0;
  int64_t device_start_ns = 0, device_end_ns = 0;  // 0, 0 without work
};

// HTA's get_temporal_breakdown, for this device's work.
struct TemporalBreakdown {
  int64_t kernel_time_ns = 0;  // last end - first start
  int64_t idle_ns = 0;         // kernel_time - union(all work)
  int64_t compute_ns = 0;      // union of computation kernels
  int64_t non_compute_ns = 0;  // union(all work) - compute
};

struct DeviceTimeline {
  int input = 0;
  uint32_t device = kNoDevice;  // index into that input's Trace::devices (kNoDevice: unnamed)
  std::string label;
  std::optional<int64_t> rank;
  int64_t start_ns = 0, end_ns = 0;  // first start and last end of the device's work
  int64_t span_ns = 0, busy_ns = 0;
  double utilization_percent = 0;  // busy / span, 0..100
  uint64_t kernel_count = 0, memcpy_count = 0, memset_count = 0;
  int64_t kernel_ns = 0, memcpy_ns = 0, memset_ns = 0;  // union per kind
  std::vector<StreamBusy> streams;                      // by stream id
  std::vector<CopyBandwidth> copies;    // by kind, direction, source and destination memory
  std::vector<int64_t> concurrency_ns;  // [k]: time within the span with exactly k kernels running
  int64_t communication_ns = 0, computation_ns = 0, memory_ns = 0;  // union per class
  int64_t comm_comp_overlap_ns = 0;  // time with communication and computation both running
  std::optional<double> comm_comp_overlap_percent;  // overlap / communication; none without comm
  TemporalBreakdown temporal;
  std::vector<Gap> gaps;  // by start
  int64_t gap_total_ns = 0;
  std::array<CauseTotal, kGapCauseCount> gap_causes{};
  LaunchLatency launch;
  std::vector<StepTimeline> steps;
};

// One rank of a job (or, when the inputs are not one job, one input): its step times as figures,
// and what it made the others wait in collectives (analysis/job/collectives.h). A straggler is a
// rank the others waited for: its wait caused exceeds the threshold percent of the straggler
// basis (TimelineResult::straggler_basis_ns). Only ranks of a job can be stragglers.
struct RankSteps {
  int input = 0;
  std::optional<int64_t> rank;
  size_t step_count = 0;
  std::optional<int64_t> median_step_ns;  // median host step duration; none without steps
  int64_t wait_suffered_ns = 0;           // in collectives, waiting for the last rank to arrive
  int64_t wait_caused_ns = 0;  // the others' wait in the collectives this rank arrived last at
  size_t times_last = 0;       // collectives it arrived last at
  // Why it was late, where it was last: "computation", "communication" or "idle" (the largest
  // excess over the other ranks before those collectives); "" when never last.
  std::string late_cause;
  bool straggler = false;
  // What the others' wait is a share of: their profiled time (each other rank's steps' summed
  // length, its device span without steps), and that share, 0..100 as long as the waits lie in
  // the profiled time; none outside a job.
  int64_t profiled_ns = 0;  // this rank's own
  int64_t others_profiled_ns = 0;
  std::optional<double> wait_caused_percent;
};

struct TimelineResult {
  std::vector<DeviceTimeline> devices;         // by input, then device
  std::vector<RankSteps> ranks;                // one per rank of a job, or per input (several)
  std::optional<int64_t> median_rank_step_ns;  // median of the ranks' medians
  bool is_job = false;        // the inputs are one job's ranks (DescribeJob, or --as-job)
  bool complete_job = false;  // every rank of it is given: only then are stragglers named
  std::string job_verdict;    // DescribeJob's sentence on what the inputs are
  // What a rank's wait caused is measured against: the median over ranks of their median step,
  // else (no steps) of their device span.
  std::optional<int64_t> straggler_basis_ns;
};

struct CollectivesResult;  // tensormorph/analysis/job/collectives.h

// One DeviceTimeline per device of each input, in input order; with several inputs, their ranks.
// The ranks' waits come from the job's collectives: `collectives` when the caller has analysed
// them already (AnalyzeCollectives over these inputs with default options, as the report does for
// its Ranks section), else the timeline analyses them itself.
TimelineResult AnalyzeTimeline(const std::vector<const LinkedTrace*>& inputs,
                               const TimelineOptions& options,
                               const CollectivesResult* collectives = nullptr);

// `timeline` as AnalyzeTimeline would have returned it with `min_gap_ns` in place of the shorter
// threshold it was analysed with: the gaps no longer than `min_gap_ns` left out and the gap totals
// and causes summed again. No other figure depends on the threshold, so one analysis at the
// shorter threshold serves both (the report's page and its findings).
TimelineResult WithLongerGaps(TimelineResult timeline, int64_t min_gap_ns);

}  // namespace tensormorph
