// The rules of `tensormorph findings` (findings.h states the invariants; the README's rule table
// states each rule's trigger, evidence, gain and fix). Each rule reads the figures of one input's
// analyses and appends its findings; FindFindings sets severities and ranks them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/timeline/timeline.h"

namespace tensormorph::findings {

struct InputContext {
  int input = 0;
  const LinkedTrace* linked = nullptr;
  const FindingsQuery* query = nullptr;
  const std::vector<DeviceSpec>* devices = nullptr;
  std::vector<const DeviceTimeline*> timelines;  // this input's devices
  int64_t steps_ns = 0;                          // the summed length of its steps; 0 without steps
  int64_t span_ns = 0;  // its busiest device's span, the basis without steps
  // The caller's analyses of this input (FindingsQuery: only with one input), or null.
  const RooflineResult* roofline = nullptr;
  const OpSummary* ops = nullptr;
  const KernelOccupancySummary* occupancy = nullptr;
  const MemoryResult* memory = nullptr;

  const Trace& trace() const { return linked->trace(); }
};

// The caller's analysis when the context has one, else `analyse()`'s, kept in `own`.
template <typename Result, typename Analyse>
const Result& CallersOr(const Result* callers, std::optional<Result>* own, Analyse analyse) {
  return callers != nullptr ? *callers : own->emplace(analyse());
}

// A finding of `rule` for `ctx`'s input with its gain (FindFindings sets its share of the input's
// basis once every rule has run).
Finding NewFinding(const InputContext& ctx, const char* rule, int64_t gain_ns,
                   const DeviceTimeline* device = nullptr);

// Idle time (idle_rules.cc): host_launch_gaps, synchronization, blocking_copies,
// launch_bound_kernels.
void FindIdleTime(const InputContext& ctx, const DeviceTimeline& device, std::vector<Finding>* out);

// The work itself (work_rules.cc): fp32_matmul, below_roof, low_occupancy. Reads no timeline
// figure (ctx.timelines is empty: it runs beside the timeline); its gain_percent on the span
// basis is the input's until FindFindings rebases it on the device's span.
void FindSlowWork(const InputContext& ctx, std::vector<Finding>* out);

// Communication and copies (transfer_rules.cc): exposed_communication, slow_copies.
void FindSlowTransfers(const InputContext& ctx, const DeviceTimeline& device,
                       std::vector<Finding>* out);

// stragglers, over the inputs as ranks of one job.
// memory_near_capacity, memory_growth and allocation_churn (memory_rules.cc): the input's
// allocator records and device allocation calls.
void FindMemoryPressure(const InputContext& ctx, std::vector<Finding>* out);
// dominant_op (dominant_rule.cc): per device without a below_roof or fp32_matmul finding in
// `found`, the op (else the kernel) with kDominantSharePercent or more of its kernel time.
void FindDominantWork(const InputContext& ctx, const std::vector<Finding>& found,
                      std::vector<Finding>* out);
void FindStragglers(const std::vector<InputContext>& inputs, const TimelineResult& timeline,
                    std::vector<Finding>* out);

}  // namespace tensormorph::findings
