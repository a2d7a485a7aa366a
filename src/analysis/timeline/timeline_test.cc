// The timeline on a hand-made trace whose every figure is worked out in the comments.
#include "tensormorph/analysis/timeline/timeline.h"

#include <gtest/gtest.h>

#include "analysis/common/device_work.h"
#include "analysis/timeline/launch_latency.h"
#include "analysis/timeline/ranks.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// Launches are linked by correlation id (call i carries i + 1) and the step is a ProfilerStep#41
// annotation, so the linking stage finds what the comments say.
struct Fixture {
  Trace trace;

  uint32_t Call(const char* name, int64_t start, int64_t duration) {
    ApiCall c;
    c.name = trace.strings.Intern(name);
    c.start_ns = start;
    c.duration_ns = duration;
    c.track = 0;
    c.link.correlation = trace.api_calls.size() + 1;
    trace.api_calls.push_back(c);
    return static_cast<uint32_t>(trace.api_calls.size() - 1);
  }
  void AddKernel(const char* name, int64_t start, int64_t duration, uint32_t launch) {
    Kernel k;
    k.name = trace.strings.Intern(name);
    k.start_ns = start;
    k.duration_ns = duration;
    k.device = 0;
    k.stream = 7;
    if (launch != kNoRow) k.link.correlation = trace.api_calls[launch].link.correlation;
    trace.kernels.push_back(k);
  }
  void AddMemcpy(int64_t start, int64_t duration, uint32_t launch) {
    Transfer t;
    t.name = trace.strings.Intern("Memcpy HtoD (Pinned -> Device)");
    t.start_ns = start;
    t.duration_ns = duration;
    t.device = 0;
    t.stream = 9;
    t.link.correlation = trace.api_calls[launch].link.correlation;
    trace.transfers.push_back(t);
  }

  Fixture() {
    Device d;
    d.backend = Backend::kCuda;
    d.index = 0;
    d.name = "Test GPU";
    trace.devices.push_back(d);
    trace.tracks.push_back(Track{});
    trace.rank = 3;
    // Busy [0,300): gemm [0,100) and an all-reduce [50,300) overlapping it by 50.
    AddKernel("gemm", 0, 100, Call("cudaLaunchKernel", -50, 10));
    AddKernel("ncclKernel_AllReduce_RING_LL_Sum_float", 50, 250, Call("cudaLaunchKernel", 20, 5));
    // Gap [300,1000): the host sat in cudaStreamSynchronize until 800, launched relu at 900.
    Call("cudaStreamSynchronize", 200, 600);
    AddKernel("relu", 1000, 10, Call("cudaLaunchKernel", 900, 30));  // launch-bound
    // Gap [1010,2000): the copy was launched at 500, long before: queued.
    AddMemcpy(2000, 100, Call("cudaMemcpyAsync", 500, 5));
    // Gap [2100,3000): no launch call: unknown.
    AddKernel("orphan", 3000, 50, kNoRow);
    // Gap [3050,4000): launched late at 3500 with no wait before: host launch delay.
    AddKernel("late", 4000, 10, Call("cudaLaunchKernel", 3500, 1));
    // Gap [4010,5000): a blocking cudaMemcpy returned at 4800 first: memcpy wait.
    Call("cudaMemcpy", 4000, 800);
    AddKernel("after_copy", 5000, 5, Call("cudaLaunchKernel", 4900, 20));  // launch-bound
    // Step 41 on the host, [-100, 2000): it launched gemm, the all-reduce, relu and the copy.
    Slice step;
    step.name = trace.strings.Intern("ProfilerStep#41");
    step.start_ns = -100;
    step.duration_ns = 2100;
    step.kind = SliceKind::kUserAnnotation;
    trace.slices.push_back(step);
  }

  TimelineResult Analyze(int64_t min_gap_ns = 100) {
    TimelineOptions options;
    options.min_gap_ns = min_gap_ns;
    const LinkedTrace linked(trace);
    return AnalyzeTimeline({&linked}, options);
  }
};

TEST(TimelineDevice, BusySpanKindsAndClasses) {
  Fixture f;
  const TimelineResult r = f.Analyze();
  ASSERT_EQ(r.devices.size(), 1u);
  const DeviceTimeline& d = r.devices[0];
  EXPECT_EQ(d.label, "rank 3 cuda:0 Test GPU");
  EXPECT_EQ(d.start_ns, 0);
  EXPECT_EQ(d.end_ns, 5005);
  EXPECT_EQ(d.busy_ns, 300 + 10 + 100 + 50 + 10 + 5);
  EXPECT_DOUBLE_EQ(d.utilization_percent, 100.0 * 475 / 5005);
  EXPECT_EQ(d.kernel_count, 6u);
  EXPECT_EQ(d.memcpy_count, 1u);
  EXPECT_EQ(d.kernel_ns, 375);
  EXPECT_EQ(d.memcpy_ns, 100);
  ASSERT_EQ(d.streams.size(), 2u);
  EXPECT_EQ(d.streams[0].stream, 7);
  EXPECT_EQ(d.streams[0].busy_ns, 375);
  EXPECT_EQ(d.streams[1].busy_ns, 100);
  // Kernels only: two at once during [50,100); the memcpy's time counts as zero kernels.
  EXPECT_EQ(d.concurrency_ns, (std::vector<int64_t>{5005 - 375, 325, 50}));
  EXPECT_EQ(d.communication_ns, 250);
  EXPECT_EQ(d.computation_ns, 100 + 10 + 50 + 10 + 5);
  EXPECT_EQ(d.memory_ns, 100);
  EXPECT_EQ(d.comm_comp_overlap_ns, 50);
  ASSERT_TRUE(d.comm_comp_overlap_percent.has_value());
  EXPECT_DOUBLE_EQ(*d.comm_comp_overlap_percent, 20.0);
  EXPECT_EQ(d.temporal.kernel_time_ns, 5005);
  EXPECT_EQ(d.temporal.idle_ns, 5005 - 475);
  EXPECT_EQ(d.temporal.compute_ns, 175);
  EXPECT_EQ(d.temporal.non_compute_ns, 475 - 175);
}

TEST(TimelineGaps, CausesFollowTheLaunchCall) {
  Fixture f;
  const DeviceTimeline d = f.Analyze().devices.at(0);
  ASSERT_EQ(d.gaps.size(), 5u);
  const GapCause want[] = {GapCause::kSynchronization, GapCause::kQueued, GapCause::kUnknown,
                           GapCause::kHostLaunchDelay, GapCause::kMemcpyWait};
  for (size_t i = 0; i < 5; ++i) EXPECT_EQ(d.gaps[i].cause, want[i]) << "gap " << i;
  EXPECT_EQ(d.gaps[0].start_ns, 300);
  EXPECT_EQ(d.gaps[0].length_ns, 700);
  EXPECT_EQ(d.gaps[0].before, "ncclKernel_AllReduce_RING_LL_Sum_float");
  EXPECT_EQ(d.gaps[0].after, "relu");
  EXPECT_EQ(d.gaps[1].after, "Memcpy HtoD (Pinned -> Device)");
  EXPECT_EQ(d.gap_total_ns, 700 + 990 + 900 + 950 + 990);
  EXPECT_EQ(d.gap_causes[static_cast<size_t>(GapCause::kQueued)].total_ns, 990);
  // A threshold of 950 keeps only the gaps strictly longer than it.
  EXPECT_EQ(f.Analyze(950).devices.at(0).gaps.size(), 2u);
}

TEST(TimelineLaunch, NearestRankAndLaunchBound) {
  Fixture f;
  const LaunchLatency l = f.Analyze().devices.at(0).launch;
  // Latencies 50, 30, 100, 500, 100 -> sorted 30 50 100 100 500.
  EXPECT_EQ(l.count, 5u);
  EXPECT_EQ(l.p50_ns, 100);
  EXPECT_EQ(l.p90_ns, 500);
  EXPECT_EQ(l.p99_ns, 500);
  EXPECT_EQ(l.max_ns, 500);
  EXPECT_EQ(l.launch_bound_count, 2u);
  EXPECT_EQ(l.launch_bound_ns, 15);
  ASSERT_EQ(l.launch_bound.size(), 2u);
  EXPECT_EQ(l.launch_bound[0].name, "relu");  // ties on count: more time first
  EXPECT_EQ(NearestRankPercentile({}, 50), 0);
  EXPECT_EQ(NearestRankPercentile({1, 2, 3, 4}, 0), 1);
  EXPECT_EQ(NearestRankPercentile({1, 2, 3, 4}, 25), 1);
  EXPECT_EQ(NearestRankPercentile({1, 2, 3, 4}, 26), 2);
}

TEST(TimelineLaunch, OverheadQueueAndGraphReplaysApart) {
  Fixture f;
  // A graph replay after the rest: one cudaGraphLaunch [6000,6040) for kernels [6100,6120) and
  // [6150,6180). Shorter than the call, but not launch-bound: they share one launch.
  const uint32_t graph = f.Call("cudaGraphLaunch", 6000, 40);
  f.AddKernel("graph_a", 6100, 20, graph);
  f.AddKernel("graph_b", 6150, 30, graph);
  const LaunchLatency l = f.Analyze().devices.at(0).launch;
  EXPECT_EQ(l.count, 5u);  // the kernels launched by their own call, as before
  EXPECT_EQ(l.p50_ns, 100);
  EXPECT_EQ(l.launch_bound_count, 2u);
  // Call durations 10, 5, 30, 1, 20 -> sorted 1 5 10 20 30.
  EXPECT_EQ(l.overhead.p50_ns, 10);
  EXPECT_EQ(l.overhead.p90_ns, 30);
  EXPECT_EQ(l.overhead.max_ns, 30);
  // Start - call end: 0-(-40) = 40, 50-25 = 25, 1000-930 = 70, 4000-3501 = 499, 5000-4920 = 80.
  EXPECT_EQ(l.queue.p50_ns, 70);
  EXPECT_EQ(l.queue.p90_ns, 499);
  EXPECT_EQ(l.queue.max_ns, 499);
  EXPECT_EQ(l.graph_kernels, 2u);
  ASSERT_EQ(l.graph_launches.size(), 1u);
  const GraphLaunch& g = l.graph_launches[0];
  EXPECT_EQ(g.call_start_ns, 6000);
  EXPECT_EQ(g.call_ns, 40);
  EXPECT_EQ(g.kernels, 2u);
  EXPECT_EQ(g.kernel_ns, 50);
  EXPECT_EQ(g.first_start_ns, 6100);
  EXPECT_EQ(g.span_ns, 80);
  EXPECT_EQ(l.graph_span.p50_ns, 80);
  EXPECT_EQ(l.graph_call.max_ns, 40);
}

TEST(TimelineSteps, WorkOfTheStep) {
  Fixture f;
  const std::vector<StepTimeline> steps = f.Analyze().devices.at(0).steps;
  ASSERT_EQ(steps.size(), 1u);
  EXPECT_EQ(steps[0].number, 41);
  EXPECT_EQ(steps[0].host_ns, 2100);
  EXPECT_EQ(steps[0].work_count, 4u);
  EXPECT_EQ(steps[0].device_busy_ns, 300 + 10 + 100);
  EXPECT_EQ(steps[0].device_start_ns, 0);
  EXPECT_EQ(steps[0].device_end_ns, 2100);
}

TEST(TimelineDevice, NoDeviceWorkGivesNoRows) {
  Trace empty;
  const LinkedTrace linked(empty);
  const TimelineResult r = AnalyzeTimeline({&linked}, {});
  EXPECT_TRUE(r.devices.empty());
  EXPECT_TRUE(r.ranks.empty());
}

TEST(TimelineClasses, KernelNames) {
  EXPECT_EQ(ClassifyKernelName("ncclDevKernel_AllGather_RING_LL"), WorkClass::kCommunication);
  EXPECT_EQ(ClassifyKernelName("void NCCL_thing"), WorkClass::kCommunication);
  EXPECT_EQ(ClassifyKernelName("Memcpy DtoD (Device -> Device)"), WorkClass::kMemory);
  EXPECT_EQ(ClassifyKernelName("dma_request"), WorkClass::kMemory);
  EXPECT_EQ(ClassifyKernelName("void at::native::vectorized_elementwise_kernel"),
            WorkClass::kComputation);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
