#include "report/html/host_lanes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>

#include "report/html/lanes_test_util.h"
#include "report/html/timeline_lanes.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// One thread: aten::linear [0, 100) holding aten::addmm [10, 60) holding two cudaLaunchKernel
// calls, [20, 25) and [30, 33), which launched gemm at 70 and relu at 80; a kernel at 85 without
// a launch call; a Python frame [120, 130); a second thread with one op.
Trace MakeTrace() {
  Trace t;
  t.path = "synthetic";
  Device d;
  d.backend = Backend::kCuda;
  d.name = "A100";
  t.devices = {d};
  t.tracks = {Track{1, 10, "", "", "main"}, Track{1, 11, "", "", ""}};
  auto slice = [&](const char* name, SliceKind kind, uint32_t track, int64_t start, int64_t dur) {
    Slice s;
    s.name = t.strings.Intern(name);
    s.kind = kind;
    s.track = track;
    s.start_ns = 1000 + start;
    s.duration_ns = dur;
    t.slices.push_back(s);
  };
  slice("aten::linear", SliceKind::kOp, 0, 0, 100);
  slice("aten::addmm", SliceKind::kOp, 0, 10, 50);
  slice("forward (model.py:12)", SliceKind::kPythonFunction, 0, 120, 10);
  slice("aten::copy_", SliceKind::kOp, 1, 40, 5);
  auto launch = [&](const char* kernel, int64_t call_start, int64_t start, uint64_t correlation) {
    if (correlation != 0) {
      ApiCall call;
      call.name = t.strings.Intern("cudaLaunchKernel");
      call.start_ns = 1000 + call_start;
      call.duration_ns = call_start == 20 ? 5 : 3;
      call.link.correlation = correlation;
      call.track = 0;
      t.api_calls.push_back(call);
    }
    Kernel k;
    k.name = t.strings.Intern(kernel);
    k.device = 0;
    k.stream = 7;
    k.start_ns = 1000 + start;
    k.duration_ns = 5;
    k.link.correlation = correlation;
    t.kernels.push_back(k);
  };
  launch("gemm", 20, 70, 7);
  launch("relu", 30, 80, 8);
  launch("copy", 0, 85, 0);
  return t;
}

TEST(HostLanes, OneLanePerThreadNestedByStart) {
  Trace t = MakeTrace();
  const LinkedTrace linked(t);
  Json j = BuildTimelineLanes({&linked}, KernelOccupancySummary{}, LaneOptions{});
  ASSERT_EQ(j["host_lanes"].size(), 2u);
  const Json& main = j["host_lanes"][0];
  EXPECT_EQ(main["thread"], "main");
  EXPECT_EQ(j["host_lanes"][1]["thread"], "thread 11");
  // Times from t0 = the first kernel's start (1070): host boxes before it are negative.
  EXPECT_EQ(DecodedStarts(main), (std::vector<int64_t>{-70, -60, -50, -40, 50}));
  EXPECT_EQ(main["d"], Json::parse("[100, 50, 5, 3, 10]"));
  EXPECT_EQ(main["p"], Json::parse("[0, 1, 1, 2, 0]"));  // linear > addmm > launches; python
  // Each box's label is [name, kind]: indices into names and host_kinds.
  auto label = [&](size_t i) { return j["host_labels"][main["n"][i].get<size_t>()]; };
  auto kind = [&](size_t i) { return j["host_kinds"][label(i)[1].get<size_t>()]; };
  EXPECT_EQ(kind(0), "op");
  EXPECT_EQ(kind(2), "runtime");
  EXPECT_EQ(kind(3), "runtime");
  EXPECT_EQ(main["n"][2], main["n"][3]);  // one label for both calls
  EXPECT_EQ(kind(4), "python");
  EXPECT_EQ(j["names"][label(2)[0].get<size_t>()], "cudaLaunchKernel");
  EXPECT_EQ(main["depth_count"], 3);
  EXPECT_FALSE(main.contains("lod"));  // few boxes, all embedded: drawn raw at any zoom
  // Box ids: lane 0 from 0, lane 1 from lane 0's raw count.
  EXPECT_EQ(j["host_lanes"][1]["box_base"], 5);
  // The kernels name their launch calls (boxes 2 and 3) and their op, addmm (box 1), each as the
  // difference from the last id given; the third kernel has neither.
  EXPECT_EQ(j["lanes"][0]["lb"], Json::parse("[2, 1, null]"));
  EXPECT_EQ(j["lanes"][0]["ob"], Json::parse("[1, 0, null]"));
  EXPECT_EQ(j["host_item_count"], 6);
  EXPECT_EQ(j["raw_complete"], true);
}

TEST(HostLanes, HostBudgetCutsEveryLaneAtOneTime) {
  Trace t = MakeTrace();
  const LinkedTrace linked(t);
  LaneOptions options;
  options.max_raw_host_boxes = 3;  // starts -70, -60, -50, -40 (main), -30 (copy_), 50
  Json j = BuildTimelineLanes({&linked}, KernelOccupancySummary{}, options);
  EXPECT_EQ(j["raw_complete"], false);
  EXPECT_EQ(j["raw_until_ns"], -40);  // the fourth start
  EXPECT_EQ(j["host_raw_count"], 3);
  EXPECT_EQ(j["raw_box_count"], 0);  // the kernel starts after the cut
  EXPECT_EQ(j["host_lanes"][1]["raw_count"], 0);
  // Items past the cut are in the lane's buckets, per depth, clipped to [0, span].
  const Json& lod = j["host_lanes"][0]["lod"];
  ASSERT_EQ(lod.size(), kHostLodDepths);
  const Json& top = lod[0][0];  // depth 0, finest level: 20 ns span over 8192 -> 1 ns buckets
  EXPECT_EQ(top["bucket_ns"], 1);
  EXPECT_EQ(top["busy"].size(), 21u);
  EXPECT_EQ(top["busy"][0], 255);  // linear covers -70..30
  EXPECT_EQ(top["busy"][20], 255);
  EXPECT_EQ(lod[1][0]["busy"][0], 0);  // addmm ends at -10
  EXPECT_EQ(j["names"][top["dom"][0].get<size_t>() - 1], "aten::linear");
}

// A lane merges its thread's run of slices with its run of calls. An op and an annotation with
// the same start and duration come in the table by name (the annotation first here); the lane puts
// the op first, as it puts an op before the call it makes at the same instant. Tables whose rows
// are in no order give the same lanes.
TEST(HostLanes, LaneOrderWhateverTheTablesOrder) {
  auto make = [](bool reversed) {
    Trace t = MakeTrace();
    for (const char* name : {"a_step", "b_op"}) {
      Slice s;
      s.name = t.strings.Intern(name);
      s.kind = name[0] == 'a' ? SliceKind::kUserAnnotation : SliceKind::kOp;
      s.track = 0;
      s.start_ns = 1000 + 200;
      s.duration_ns = 10;
      t.slices.push_back(s);
    }
    if (reversed) {
      std::reverse(t.slices.begin(), t.slices.end());
      std::reverse(t.api_calls.begin(), t.api_calls.end());
    }
    return t;
  };
  const Trace t = make(false);
  const Trace shuffled = make(true);
  const LinkedTrace linked(t);
  const LinkedTrace linked_shuffled(shuffled);
  const Json j = BuildTimelineLanes({&linked}, KernelOccupancySummary{}, LaneOptions{});
  const Json& main = j["host_lanes"][0];
  EXPECT_EQ(DecodedStarts(main), (std::vector<int64_t>{-70, -60, -50, -40, 50, 130, 130}));
  auto kind = [&](size_t i) {
    return j["host_kinds"][j["host_labels"][main["n"][i].get<size_t>()][1].get<size_t>()];
  };
  EXPECT_EQ(kind(5), "op");
  EXPECT_EQ(kind(6), "annotation");
  EXPECT_EQ(main["p"][6], 1);  // the annotation inside the op
  const Json k = BuildTimelineLanes({&linked_shuffled}, KernelOccupancySummary{}, LaneOptions{});
  EXPECT_EQ(k["host_lanes"], j["host_lanes"]);
  EXPECT_EQ(k["host_labels"], j["host_labels"]);
}

// The cut for a budget of b items is the b-th smallest start (from 0) over every lane, as a sort
// of all starts gives it: three threads of calls and ops with many equal starts, negative times,
// two inputs, every budget.
TEST(HostLanes, CutForBudgetIsTheBudgetthStartOfAllLanes) {
  std::vector<Trace> traces(2);
  std::vector<int64_t> starts;
  uint32_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 1103515245u + 12345u;
    return (seed >> 16) & 0x7fff;
  };
  for (size_t input = 0; input < traces.size(); ++input) {
    Trace& t = traces[input];
    t.path = "synthetic";
    t.tracks = {Track{1, 10, "", "", ""}, Track{1, 11, "", "", ""}, Track{1, 12, "", "", ""}};
    for (int i = 0; i < 150; ++i) {
      const int64_t start = static_cast<int64_t>(next() % 40) * 5 - 60;  // ties on purpose
      const auto track = static_cast<uint32_t>(next() % 3);
      if (next() % 2 == 0) {
        ApiCall call;
        call.name = t.strings.Intern("cudaLaunchKernel");
        call.start_ns = start;
        call.duration_ns = 1 + next() % 4;
        call.track = track;
        t.api_calls.push_back(call);
      } else {
        Slice s;
        s.name = t.strings.Intern("aten::add");
        s.kind = SliceKind::kOp;
        s.track = track;
        s.start_ns = start;
        s.duration_ns = 1 + next() % 30;
        t.slices.push_back(s);
      }
      starts.push_back(start);
    }
  }
  const LinkedTrace a(traces[0]), b(traces[1]);
  const HostLanes lanes({&a, &b});
  ASSERT_EQ(lanes.item_count(), starts.size());
  std::sort(starts.begin(), starts.end());
  for (size_t budget = 0; budget < starts.size(); ++budget) {
    EXPECT_EQ(lanes.CutForBudget(budget), starts[budget]) << budget;
  }
  EXPECT_EQ(lanes.CutForBudget(starts.size()), std::numeric_limits<int64_t>::max());
}

// The buckets leave Python frames out: an op under a frame is on the top bucket row.
TEST(HostLanes, BucketsLeavePythonFramesOut) {
  Trace t;
  t.path = "synthetic";
  Device d;
  d.backend = Backend::kCuda;
  t.devices = {d};
  t.tracks = {Track{1, 10, "", "", "main"}};
  auto slice = [&](const char* name, SliceKind kind, int64_t start, int64_t dur) {
    Slice s;
    s.name = t.strings.Intern(name);
    s.kind = kind;
    s.start_ns = start;
    s.duration_ns = dur;
    t.slices.push_back(s);
  };
  slice("forward (model.py:3)", SliceKind::kPythonFunction, 0, 40);
  slice("aten::mm", SliceKind::kOp, 0, 10);
  Kernel k;
  k.name = t.strings.Intern("gemm");
  k.start_ns = 0;
  k.duration_ns = 40;
  t.kernels.push_back(k);
  const LinkedTrace linked(t);
  LaneOptions options;
  options.max_raw_host_boxes = 1;  // a cut, so the lane has buckets
  options.finest_buckets = 4;      // 40 ns span: 10 ns buckets
  Json j = BuildTimelineLanes({&linked}, KernelOccupancySummary{}, options);
  const Json& top = j["host_lanes"][0]["lod"][0][0];
  EXPECT_EQ(top["busy"], Json::parse("[255, 0, 0, 0, 0]"));  // aten::mm only, not the frame
  EXPECT_EQ(j["names"][top["dom"][0].get<size_t>() - 1], "aten::mm");
  EXPECT_EQ(j["host_lanes"][0]["depth_count"], 2);  // the boxes themselves nest as they are
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
