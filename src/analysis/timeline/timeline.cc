#include "tensormorph/analysis/timeline/timeline.h"

#include <algorithm>
#include <future>

#include "analysis/common/device_work.h"
#include "analysis/common/intervals.h"
#include "analysis/timeline/copies.h"
#include "analysis/timeline/gaps.h"
#include "analysis/timeline/launch_latency.h"
#include "analysis/timeline/ranks.h"
#include "analysis/timeline/step_timeline.h"
#include "analysis/timeline/streams.h"
#include "tensormorph/analysis/kernels.h"

namespace tensormorph {
namespace {

int64_t UnionOf(const std::vector<WorkItem>& work, auto keep) {
  std::vector<Interval> kept;
  for (const WorkItem& w : work) {
    if (keep(w)) kept.push_back(w.interval());
  }
  return TotalLength(MergeIntervals(std::move(kept)));
}

std::vector<Interval> MergedOf(const std::vector<WorkItem>& work, auto keep) {
  std::vector<Interval> kept;
  for (const WorkItem& w : work) {
    if (keep(w)) kept.push_back(w.interval());
  }
  return MergeIntervals(std::move(kept));
}

void FillBusyAndKinds(const std::vector<WorkItem>& work, const std::vector<Interval>& merged,
                      DeviceTimeline* d) {
  d->start_ns = merged.front().start_ns;
  d->end_ns = merged.back().end_ns;
  d->span_ns = d->end_ns - d->start_ns;
  d->busy_ns = TotalLength(merged);
  d->utilization_percent = d->span_ns > 0 ? 100.0 * d->busy_ns / d->span_ns : 0.0;
  for (const WorkItem& w : work) {
    d->kernel_count += w.kind == WorkKind::kKernel;
    d->memcpy_count += w.kind == WorkKind::kMemcpy;
    d->memset_count += w.kind == WorkKind::kMemset;
  }
  for (WorkKind kind : {WorkKind::kKernel, WorkKind::kMemcpy, WorkKind::kMemset}) {
    const int64_t t = UnionOf(work, [kind](const WorkItem& w) { return w.kind == kind; });
    (kind == WorkKind::kKernel   ? d->kernel_ns
     : kind == WorkKind::kMemcpy ? d->memcpy_ns
                                 : d->memset_ns) = t;
  }
  std::vector<Interval> kernels;
  for (const WorkItem& w : work) {
    if (w.kind == WorkKind::kKernel) kernels.push_back(w.interval());
  }
  d->concurrency_ns = ConcurrencyProfile(kernels, {d->start_ns, d->end_ns});
}

// Communication / computation / memory and HTA's temporal breakdown. HTA counts every GPU event
// with a stream (kernels, memcpys, memsets) as a "kernel" there, so its kernel time is the span.
void FillClasses(const std::vector<WorkItem>& work, DeviceTimeline* d) {
  auto of_class = [](WorkClass c) { return [c](const WorkItem& w) { return w.work_class == c; }; };
  const std::vector<Interval> comm = MergedOf(work, of_class(WorkClass::kCommunication));
  const std::vector<Interval> comp = MergedOf(work, of_class(WorkClass::kComputation));
  d->communication_ns = TotalLength(comm);
  d->computation_ns = TotalLength(comp);
  d->memory_ns = UnionOf(work, of_class(WorkClass::kMemory));
  d->comm_comp_overlap_ns = IntersectionLength(comm, comp);
  if (d->communication_ns > 0) {
    d->comm_comp_overlap_percent = 100.0 * d->comm_comp_overlap_ns / d->communication_ns;
  }
  d->temporal.kernel_time_ns = d->span_ns;
  d->temporal.idle_ns = d->span_ns - d->busy_ns;
  d->temporal.compute_ns = d->computation_ns;
  d->temporal.non_compute_ns = d->busy_ns - d->computation_ns;
}

void AnalyzeInput(int index, const LinkedTrace& input, const TimelineOptions& options,
                  TimelineResult* result) {
  const Trace& trace = input.trace();
  const std::launch policy = options.concurrent ? std::launch::async : std::launch::deferred;
  // The launch links (for the gaps' causes and launch latency) are made while the passes that
  // need only the trace run.
  std::future<const TraceLinks*> linking = std::async(policy, [&input] { return &input.links(); });
  const HostWaits waits(trace);
  const std::vector<std::vector<WorkItem>> by_device = CollectDeviceWork(trace);
  const TraceLinks& links = *linking.get();
  for (uint32_t slot = 0; slot < by_device.size(); ++slot) {
    const std::vector<WorkItem>& work = by_device[slot];
    if (work.empty()) continue;
    DeviceTimeline d;
    d.input = index;
    d.device = slot < trace.devices.size() ? slot : kNoDevice;
    d.label = DeviceLabel(trace, d.device, /*with_rank=*/true);
    d.rank = trace.rank;
    const std::vector<Interval> merged = MergeIntervals(IntervalsOf(work));
    // The gaps and launch latency write other members of `d` than the busy time and classes do.
    std::future<void> gaps = std::async(policy, [&] {
      FindDeviceGaps(trace, links, waits, work, merged, options.min_gap_ns, &d);
      d.launch = MeasureLaunchLatency(trace, links, work);
    });
    FillBusyAndKinds(work, merged, &d);
    FillClasses(work, &d);
    d.streams = AnalyzeStreams(trace, links, waits, work, options.queue_limit);
    d.copies =
        MeasureCopies(trace, d.device, work, options.devices ? *options.devices : BuiltInDevices());
    gaps.get();
    if (!input.steps().empty()) {
      d.steps =
          StepsOnDevice(input.steps(), input.step_of_kernels(), input.step_of_transfers(), work);
    }
    result->devices.push_back(std::move(d));
  }
}

}  // namespace

TimelineResult AnalyzeTimeline(const std::vector<const LinkedTrace*>& inputs,
                               const TimelineOptions& options,
                               const CollectivesResult* collectives) {
  TimelineResult result;
  for (size_t i = 0; i < inputs.size(); ++i) {
    AnalyzeInput(static_cast<int>(i), *inputs[i], options, &result);
  }
  DescribeRanks(inputs, options, collectives, &result);
  return result;
}

TimelineResult WithLongerGaps(TimelineResult timeline, int64_t min_gap_ns) {
  for (DeviceTimeline& d : timeline.devices) {
    std::erase_if(d.gaps, [min_gap_ns](const Gap& g) { return g.length_ns <= min_gap_ns; });
    d.gap_total_ns = 0;
    d.gap_causes = {};
    for (const Gap& g : d.gaps) {
      CauseTotal& total = d.gap_causes[static_cast<size_t>(g.cause)];
      ++total.count;
      total.total_ns += g.length_ns;
      d.gap_total_ns += g.length_ns;
    }
  }
  return timeline;
}

}  // namespace tensormorph
