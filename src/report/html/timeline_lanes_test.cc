#include "report/html/timeline_lanes.h"

#include <gtest/gtest.h>

#include "report/html/lanes_test_util.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

// One device, two streams; stream 7 has kernels at 0-10, 20-60 and 100-101, stream 8 one at 50-150.
Trace MakeTrace() {
  Trace t;
  t.path = "synthetic";
  Device d;
  d.backend = Backend::kCuda;
  d.index = 0;
  d.name = "A100";
  t.devices = {d};
  auto add = [&](const char* name, int64_t stream, int64_t start, int64_t dur) {
    Kernel k;
    k.name = t.strings.Intern(name);
    k.device = 0;
    k.stream = stream;
    k.start_ns = 1000 + start;
    k.duration_ns = dur;
    k.block = {128, 1, 1};
    t.kernels.push_back(k);
  };
  add("gemm", 7, 0, 10);
  add("relu", 7, 20, 40);
  add("gemm", 7, 100, 1);
  add("nccl", 8, 50, 100);
  return t;
}

TEST(TimelineLanes, OneLanePerStreamWithDeltaEncodedBoxes) {
  Trace t = MakeTrace();
  const LinkedTrace linked(t);
  Json j = BuildTimelineLanes({&linked}, KernelOccupancySummary{}, LaneOptions{});
  EXPECT_EQ(j["t0_ns"], 1000);
  EXPECT_EQ(j["span_ns"], 150);
  ASSERT_EQ(j["lanes"].size(), 2u);
  EXPECT_EQ(j["lanes"][0]["stream"], 7);
  EXPECT_EQ(DecodedStarts(j["lanes"][0]), (std::vector<int64_t>{0, 20, 100}));
  EXPECT_EQ(j["lanes"][0]["d"], Json::parse("[10, 40, 1]"));
  EXPECT_EQ(j["raw_complete"], true);
  // Variants are deduplicated: gemm with the same shape is one variant, named through `names`.
  const Json& v = j["lanes"][0]["v"];
  EXPECT_EQ(v[0], v[2]);
  EXPECT_EQ(j["names"][j["variants"][v[0].get<size_t>()][0].get<size_t>()], "gemm");
}

TEST(TimelineLanes, BucketsHoldBusyFractionAndDominantKernel) {
  Trace t = MakeTrace();
  const LinkedTrace linked(t);
  LaneOptions options;
  options.finest_buckets = 3;  // 150 ns span -> 50 ns buckets: [0,50) [50,100) [100,150]
  Json j = BuildTimelineLanes({&linked}, KernelOccupancySummary{}, options);
  const Json& level = j["lanes"][0]["lod"][0];
  EXPECT_EQ(level["bucket_ns"], 50);
  // Stream 7: 10 + 30 ns busy in bucket 0 (40/50 -> 204/255), 10 ns in bucket 1, 1 ns in bucket 2.
  EXPECT_EQ(level["busy"], Json::parse("[204, 51, 6, 0]"));
  const size_t relu = j["lanes"][0]["v"][1].get<size_t>();
  EXPECT_EQ(level["dom"][0], relu + 1);  // relu has 30 ns of bucket 0, gemm 10
  EXPECT_EQ(level["dom"][3], 0);         // empty
}

TEST(TimelineLanes, RawBoxesStopAtOneTimeForEveryLane) {
  Trace t = MakeTrace();
  const LinkedTrace linked(t);
  LaneOptions options;
  options.max_raw_boxes = 2;  // the two earliest starts: 0 and 20
  Json j = BuildTimelineLanes({&linked}, KernelOccupancySummary{}, options);
  EXPECT_EQ(j["raw_complete"], false);
  EXPECT_EQ(j["raw_box_count"], 2);
  EXPECT_EQ(j["raw_until_ns"], 50);  // the third start: kernels before it are all embedded
  EXPECT_EQ(j["lanes"][0]["raw_count"], 2);
  EXPECT_EQ(j["lanes"][1]["raw_count"], 0);
  EXPECT_EQ(j["lanes"][1]["kernel_count"], 1);          // the buckets still count it
  EXPECT_EQ(j["lanes"][1]["lod"][0]["bucket_ns"], 1);   // 150 ns over 8192 buckets: 1 ns each
  EXPECT_EQ(j["lanes"][1]["lod"][0]["busy"][50], 255);  // nccl covers 50..150
}

// Copies share their stream's lane with its kernels, by start, as variants of kind memcpy/memset;
// the first device work (here a copy) is t0.
TEST(TimelineLanes, CopiesAreBoxesOnTheirStreamsLane) {
  Trace t = MakeTrace();
  Transfer copy;
  copy.name = t.strings.Intern("Memcpy HtoD (Pageable -> Device)");
  copy.device = 0;
  copy.stream = 7;
  copy.start_ns = 990;
  copy.duration_ns = 5;
  t.transfers.push_back(copy);
  Transfer set = copy;
  set.kind = TransferKind::kMemset;
  set.name = t.strings.Intern("Memset (Device)");
  set.start_ns = 1015;
  t.transfers.push_back(set);
  const LinkedTrace linked(t);
  Json j = BuildTimelineLanes({&linked}, KernelOccupancySummary{}, LaneOptions{});
  EXPECT_EQ(j["t0_ns"], 990);
  EXPECT_EQ(j["kernel_count"], 4);
  EXPECT_EQ(j["copy_count"], 2);
  const Json& lane = j["lanes"][0];
  EXPECT_EQ(DecodedStarts(lane), (std::vector<int64_t>{0, 10, 25, 30, 110}));
  EXPECT_EQ(lane["kernel_count"], 3);
  EXPECT_EQ(lane["copy_count"], 2);
  auto kind = [&](size_t i) { return j["variants"][lane["v"][i].get<size_t>()][7]; };
  EXPECT_EQ(kind(0), "memcpy");
  EXPECT_EQ(kind(1), "kernel");
  EXPECT_EQ(kind(2), "memset");
  EXPECT_EQ(j["variants"][lane["v"][0].get<size_t>()][5], nullptr);  // no occupancy for a copy
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
