#include "tensormorph/analysis/report/report_analyses.h"

#include <algorithm>
#include <future>
#include <memory>
#include <utility>

#include "tensormorph/analysis/whatif/whatif.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {
namespace {

// The Ranks section is for one job of two or more ranks; anything else runs neither of its
// analyses.
bool IsMultiRankJob(const JobLayout& job) {
  return job.is_job && job.ranks.size() >= 2;
}

}  // namespace

ReportAnalyses RunReportAnalyses(const std::vector<const LinkedTrace*>& inputs,
                                 const ReportAnalysesQuery& query, const BesideAnalyses& beside) {
  const std::launch policy = query.concurrent ? std::launch::async : std::launch::deferred;
  const std::vector<DeviceSpec>& devices = BuiltInDevices();
  // Nearly every analysis waits for the links, and the what-if graph (the longest chain: the graph,
  // then the findings' replays) for the steps too. Both are made first, on the linking stage's own
  // threads, rather than by whichever task asks first while tasks that need neither take the
  // cores: the chain starts sooner (about a tenth of `report` on the 1 GB A100 trace, 2 cores).
  for (const LinkedTrace* input : inputs) input->Prepare({LinkedPart::kLinks, LinkedPart::kSteps});
  // The ops, the roofline and the occupancy with the queries the findings' rules use: the findings
  // of a single input read them instead of analysing again.
  std::shared_future<OpSummary> ops_task =
      std::async(policy, [&] { return SummarizeOps(inputs, OpQuery{}); }).share();
  std::future<std::optional<OpPredictions>> predictions_task =
      std::async(policy, [&, ops_task]() -> std::optional<OpPredictions> {
        if (!query.predict) return std::nullopt;
        return PredictOps(ops_task.get(), OpQuery{}, inputs, *query.predict);
      });
  std::shared_future<RooflineResult> roofline_task =
      std::async(policy, [&] {
        RooflineQuery roofline_query;
        roofline_query.devices = &devices;
        return AnalyzeRoofline(inputs, roofline_query);
      }).share();
  std::shared_future<KernelOccupancySummary> occupancy_task =
      std::async(policy, [&] {
        return SummarizeKernelOccupancy(inputs, KernelOccupancyQuery{});
      }).share();
  // The caller's work that needs only the traces and the occupancy (the page's timeline lanes).
  std::future<void> beside_task = std::async(policy, [&, occupancy_task] {
    if (beside) beside(occupancy_task.get());
  });
  std::future<std::optional<CompareResult>> compare_task =
      std::async(policy, [&]() -> std::optional<CompareResult> {
        if (!query.compare) return std::nullopt;
        CompareQuery compare_query = *query.compare;
        compare_query.devices = &devices;
        return CompareTraces(inputs, compare_query);
      });
  // The page's memory, with the devices and the default `top` the memory rules read (shared with
  // the findings, then moved into the result: its series has a sample per allocator record).
  MemoryQuery memory_query;
  memory_query.devices = &devices;
  memory_query.series = true;
  std::shared_future<std::shared_ptr<MemoryResult>> memory_task =
      std::async(policy, [&, memory_query] {
        return std::make_shared<MemoryResult>(AnalyzeMemory(inputs, memory_query));
      }).share();
  // The Ranks section's analyses over the same layout the timeline's ranks read (DescribeJob).
  // The collectives are analysed once: the timeline's ranks take their waits from them and the
  // critical path crosses ranks at their last arrivals.
  const JobLayout job = DescribeJob(TracesOf(inputs), query.timeline.as_job);
  std::shared_future<std::optional<CollectivesResult>> collectives_task =
      std::async(policy, [&]() -> std::optional<CollectivesResult> {
        if (!IsMultiRankJob(job)) return std::nullopt;
        return AnalyzeCollectives(inputs, job, CollectiveOptions{});
      }).share();
  // The findings with each fix simulated (whatif.h), ranked as `findings` ranks them; both read
  // the same collectives.
  // The timeline once, at the shorter of the page's and the findings' gap thresholds: the gaps are
  // the only figures the threshold changes, and each side keeps those longer than its own.
  const int64_t findings_min_gap_ns = FindingsQuery{}.min_gap_ns;
  std::shared_future<TimelineResult> timeline_task =
      std::async(policy, [&, collectives_task] {
        const std::optional<CollectivesResult>& collectives = collectives_task.get();
        TimelineOptions options = query.timeline;
        options.min_gap_ns = std::min(options.min_gap_ns, findings_min_gap_ns);
        return AnalyzeTimeline(inputs, options, collectives ? &*collectives : nullptr);
      }).share();
  // The what-if graphs need the collectives but not the findings: built beside them.
  std::shared_future<std::shared_ptr<const WhatIfGraphs>> whatif_task =
      std::async(policy, [&, collectives_task] {
        const std::optional<CollectivesResult>& collectives = collectives_task.get();
        WhatIfQuery whatif_query;
        whatif_query.as_job = query.timeline.as_job;
        whatif_query.collectives = collectives ? &*collectives : nullptr;
        return BuildWhatIfGraphs(inputs, job, whatif_query);
      }).share();
  std::future<FindingsResult> findings_task =
      std::async(policy, [&, collectives_task, timeline_task, whatif_task, ops_task, roofline_task,
                          occupancy_task, memory_task] {
        const std::optional<CollectivesResult>& collectives = collectives_task.get();
        FindingsQuery findings_query;
        findings_query.devices = &devices;
        findings_query.straggler_threshold_percent = query.timeline.straggler_threshold_percent;
        findings_query.queue_limit = query.timeline.queue_limit;
        findings_query.as_job = query.timeline.as_job;
        findings_query.collectives = collectives ? &*collectives : nullptr;
        findings_query.min_gap_ns = findings_min_gap_ns;
        // The findings read the built-in device table; a page timeline given another one is not
        // theirs.
        if (query.timeline.devices == nullptr) findings_query.timeline = &timeline_task.get();
        if (inputs.size() == 1) {
          findings_query.roofline = &roofline_task.get();
          findings_query.ops = &ops_task.get();
          findings_query.occupancy = &occupancy_task.get();
          if (memory_query.top >= findings_query.top_items) {
            findings_query.memory = memory_task.get().get();
          }
        }
        FindingsResult found = FindFindings(inputs, findings_query);
        SimulateFindings(inputs, query.timeline.as_job, &found, findings_query.collectives,
                         whatif_task.get().get());
        return found;
      });
  std::future<std::optional<CriticalPathResult>> path_task =
      std::async(policy, [&, collectives_task]() -> std::optional<CriticalPathResult> {
        const std::optional<CollectivesResult>& collectives = collectives_task.get();
        if (!collectives) return std::nullopt;
        CriticalPathOptions path_options;
        path_options.collectives = &*collectives;
        return AnalyzeCriticalPath(inputs, job, path_options);
      });
  ReportAnalyses out;
  out.query = query;
  out.kernels = SummarizeKernels(inputs, KernelQuery{});
  out.timeline = WithLongerGaps(timeline_task.get(), query.timeline.min_gap_ns);
  out.ops = ops_task.get();
  out.op_predictions = predictions_task.get();
  out.occupancy = occupancy_task.get();
  out.roofline = roofline_task.get();
  out.findings = findings_task.get();
  out.memory = std::move(*memory_task.get());  // the findings, which read it, are done
  out.compare = compare_task.get();
  out.collectives = collectives_task.get();
  out.critical_path = path_task.get();
  beside_task.get();
  return out;
}

}  // namespace tensormorph
