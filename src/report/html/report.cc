#include "report/html/report.h"

#include <future>
#include <utility>

#include "report/html/html_page.h"
#include "report/html/timeline_lanes.h"
#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/job/job.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/memory/memory.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/analysis/ops/ops.h"
#include "tensormorph/analysis/predict/op_predictions.h"
#include "tensormorph/analysis/roofline.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {
namespace {

// The Ranks section is for one job of two or more ranks; anything else runs neither of its
// analyses.
bool IsMultiRankJob(const JobLayout& job) {
  return job.is_job && job.ranks.size() >= 2;
}

}  // namespace

std::string RenderReport(const std::vector<const LinkedTrace*>& inputs, const ReportDiff* diff,
                         const ReportPageOptions& options) {
  ReportData data;
  data.inputs = inputs;
  data.timeline_options = options.timeline;
  const std::launch policy = options.concurrent ? std::launch::async : std::launch::deferred;
  const std::vector<DeviceSpec> devices = BuiltInDevices();
  struct OpsAndPredictions {
    OpSummary summary;
    std::optional<OpPredictions> predictions;  // --predict
  };
  std::future<OpsAndPredictions> ops_task = std::async(policy, [&] {
    OpsAndPredictions out{SummarizeOps(inputs, OpQuery{}), std::nullopt};
    if (options.predict)
      out.predictions = PredictOps(out.summary, OpQuery{}, inputs, *options.predict);
    return out;
  });
  std::future<RooflineResult> roofline_task = std::async(policy, [&] {
    RooflineQuery roofline_query;
    roofline_query.devices = &devices;
    return AnalyzeRoofline(inputs, roofline_query);
  });
  std::shared_future<KernelOccupancySummary> occupancy_task =
      std::async(policy, [&] {
        return SummarizeKernelOccupancy(inputs, KernelOccupancyQuery{});
      }).share();
  // The timeline's lanes need only the occupancy (for their tooltips), so they are built beside
  // the other analyses; each thread reads the occupancy through its own shared_future.
  LaneOptions lane_options;
  lane_options.max_raw_boxes = options.max_raw_boxes;
  lane_options.max_raw_host_boxes = 2 * options.max_raw_boxes;
  std::future<Json> lanes_task = std::async(policy, [&inputs, &lane_options, occupancy_task] {
    return BuildTimelineLanes(inputs, occupancy_task.get(), lane_options);
  });
  std::future<std::optional<CompareResult>> compare_task =
      std::async(policy, [&]() -> std::optional<CompareResult> {
        if (!options.compare) return std::nullopt;
        CompareQuery query = *options.compare;
        query.devices = &devices;
        return CompareTraces(inputs, query);
      });
  std::future<FindingsResult> findings_task = std::async(policy, [&] {
    FindingsQuery query;
    query.devices = &devices;
    query.straggler_threshold_percent = options.timeline.straggler_threshold_percent;
    query.queue_limit = options.timeline.queue_limit;
    return FindFindings(inputs, query);
  });
  // The Ranks section's analyses over the same layout the timeline's ranks read (DescribeJob).
  // The collectives are analysed once: the timeline's ranks take their waits from them and the
  // critical path crosses ranks at their last arrivals.
  const JobLayout job = DescribeJob(TracesOf(inputs), options.timeline.as_job);
  std::shared_future<std::optional<CollectivesResult>> collectives_task =
      std::async(policy, [&]() -> std::optional<CollectivesResult> {
        if (!IsMultiRankJob(job)) return std::nullopt;
        return AnalyzeCollectives(inputs, job, CollectiveOptions{});
      }).share();
  std::future<TimelineResult> timeline_task = std::async(policy, [&, collectives_task] {
    const std::optional<CollectivesResult>& collectives = collectives_task.get();
    return AnalyzeTimeline(inputs, data.timeline_options, collectives ? &*collectives : nullptr);
  });
  std::future<std::optional<CriticalPathResult>> path_task =
      std::async(policy, [&, collectives_task]() -> std::optional<CriticalPathResult> {
        const std::optional<CollectivesResult>& collectives = collectives_task.get();
        if (!collectives) return std::nullopt;
        CriticalPathOptions path_options;
        path_options.collectives = &*collectives;
        return AnalyzeCriticalPath(inputs, job, path_options);
      });
  std::future<MemoryResult> memory_task = std::async(policy, [&] {
    MemoryQuery query;
    query.devices = &devices;
    query.series = true;
    return AnalyzeMemory(inputs, query);
  });
  const KernelSummary kernels = SummarizeKernels(inputs, KernelQuery{});
  const TimelineResult timeline = timeline_task.get();
  const OpsAndPredictions ops = ops_task.get();
  const KernelOccupancySummary& occupancy = occupancy_task.get();
  const RooflineResult roofline = roofline_task.get();
  data.timeline = &timeline;
  data.kernels = &kernels;
  data.ops = &ops.summary;
  data.op_predictions = ops.predictions ? &*ops.predictions : nullptr;
  data.occupancy = &occupancy;
  data.roofline = &roofline;
  data.diff = diff;
  const FindingsResult findings = findings_task.get();
  data.findings = &findings;
  const std::optional<CompareResult> compare = compare_task.get();
  data.compare = compare ? &*compare : nullptr;
  const std::optional<CollectivesResult>& collectives = collectives_task.get();
  const std::optional<CriticalPathResult> critical_path = path_task.get();
  data.collectives = collectives ? &*collectives : nullptr;
  data.critical_path = critical_path ? &*critical_path : nullptr;
  const MemoryResult memory = memory_task.get();
  data.memory = &memory;
  return RenderReportHtml(BuildReportModel(data, lanes_task.get()), options.title);
}

}  // namespace tensormorph
