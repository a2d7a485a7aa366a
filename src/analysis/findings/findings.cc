#include "tensormorph/analysis/findings/findings.h"

#include <algorithm>
#include <future>

#include "analysis/findings/rules.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/timeline/timeline.h"

namespace tensormorph {
namespace findings {

Finding NewFinding(const InputContext& ctx, const char* rule, int64_t gain_ns,
                   const DeviceTimeline* device) {
  Finding f;
  f.rule = rule;
  f.estimated_gain_ns = std::max<int64_t>(0, gain_ns);
  f.where.input = ctx.input;
  if (device != nullptr) f.where.device = device->label;
  return f;
}

}  // namespace findings

namespace {

using findings::InputContext;

const char* Severity(const Finding& f) {
  if (f.estimated_gain_ns == 0) return "info";
  if (f.gain_percent >= 10) return "high";
  if (f.gain_percent >= 2) return "medium";
  return "low";
}

GainBasis BasisOf(const InputContext& ctx) {
  const bool steps = ctx.steps_ns > 0 && ctx.steps_ns >= ctx.span_ns;
  return {ctx.input, steps ? "steps" : "span", steps ? ctx.steps_ns : ctx.span_ns};
}

}  // namespace

const std::vector<std::string>& FindingRules() {
  static const std::vector<std::string> rules = {
      "host_launch_gaps",     "synchronization", "blocking_copies", "launch_bound_kernels",
      "below_roof",           "fp32_matmul",     "low_occupancy",   "exposed_communication",
      "stragglers",           "slow_copies",     "dominant_op",     "memory_near_capacity",
      "memory_fragmentation", "memory_growth",   "allocation_churn"};
  return rules;
}

FindingsResult FindFindings(const std::vector<const LinkedTrace*>& inputs,
                            const FindingsQuery& query) {
  const std::vector<DeviceSpec>& devices = query.devices ? *query.devices : BuiltInDevices();
  std::vector<InputContext> contexts(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    InputContext& ctx = contexts[i];
    ctx.input = static_cast<int>(i);
    ctx.linked = inputs[i];
    ctx.query = &query;
    ctx.devices = &devices;
    for (const Step& s : inputs[i]->steps()) ctx.steps_ns += s.end_ns - s.start_ns;
    if (inputs.size() == 1) {
      ctx.roofline = query.roofline;
      ctx.ops = query.ops;
      ctx.occupancy = query.occupancy;
      ctx.memory = query.memory;
    }
  }
  // The work rules read no timeline figure (the basis of gain_percent, known after the timeline,
  // is applied to every finding below): they run beside it on a copy of the context.
  const std::launch policy = query.concurrent ? std::launch::async : std::launch::deferred;
  std::future<std::vector<Finding>> work = std::async(policy, [contexts] {
    std::vector<Finding> found;
    for (const InputContext& ctx : contexts) findings::FindSlowWork(ctx, &found);
    return found;
  });

  TimelineOptions options;
  options.min_gap_ns = query.min_gap_ns;
  options.queue_limit = query.queue_limit;
  options.straggler_threshold_percent = query.straggler_threshold_percent;
  options.as_job = query.as_job;
  options.devices = &devices;
  options.concurrent = query.concurrent;
  const TimelineResult timeline = query.timeline != nullptr
                                      ? WithLongerGaps(*query.timeline, query.min_gap_ns)
                                      : AnalyzeTimeline(inputs, options, query.collectives);
  for (const DeviceTimeline& d : timeline.devices) {
    InputContext& ctx = contexts[static_cast<size_t>(d.input)];
    ctx.timelines.push_back(&d);
    ctx.span_ns = std::max(ctx.span_ns, d.span_ns);
  }

  FindingsResult result;
  for (const InputContext& ctx : contexts) {
    for (const DeviceTimeline* d : ctx.timelines) {
      findings::FindIdleTime(ctx, *d, &result.findings);
      findings::FindSlowTransfers(ctx, *d, &result.findings);
    }
  }
  for (Finding& f : work.get()) result.findings.push_back(std::move(f));
  {
    std::vector<Finding> dominant;
    for (const InputContext& ctx : contexts) {
      findings::FindDominantWork(ctx, result.findings, &dominant);
    }
    for (Finding& f : dominant) result.findings.push_back(std::move(f));
  }
  for (const InputContext& ctx : contexts) findings::FindMemoryPressure(ctx, &result.findings);
  for (const InputContext& ctx : contexts) result.bases.push_back(BasisOf(ctx));
  for (Finding& f : result.findings) {
    const GainBasis& basis = result.bases[static_cast<size_t>(f.where.input)];
    f.gain_basis = basis.basis;
    // Rules that sum device time over concurrent streams (time above a roof) can claim more than
    // the wall-clock basis; no share exceeds all of it.
    f.gain_percent =
        basis.basis_ns > 0
            ? std::min(100.0, 100.0 * static_cast<double>(f.estimated_gain_ns) / basis.basis_ns)
            : 0;
  }
  findings::FindStragglers(contexts, timeline, &result.findings);

  for (Finding& f : result.findings) {
    f.severity = Severity(f);
    // A straggler's excess is the other ranks' wait: time its own findings already claim.
    if (f.rule != "stragglers") result.total_gain_ns += f.estimated_gain_ns;
  }
  std::stable_sort(result.findings.begin(), result.findings.end(),
                   [](const Finding& a, const Finding& b) {
                     if (a.estimated_gain_ns != b.estimated_gain_ns) {
                       return a.estimated_gain_ns > b.estimated_gain_ns;
                     }
                     return a.rule < b.rule;
                   });
  return result;
}

}  // namespace tensormorph
