#include "report/html/timeline_lanes.h"

#include <gtest/gtest.h>

namespace tensormorph {
namespace {

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

std::vector<int64_t> Starts(const Json& lane) {
  std::vector<int64_t> out;
  int64_t t = 0;
  for (const Json& delta : lane["s"]) out.push_back(t += delta.get<int64_t>());
  return out;
}

TEST(TimelineLanes, OneLanePerStreamWithDeltaEncodedBoxes) {
  Trace t = MakeTrace();
  const LinkedTrace linked(t);
  Json j = BuildTimelineLanes({&linked}, KernelOccupancySummary{}, LaneOptions{});
  EXPECT_EQ(j["t0_ns"], 1000);
  EXPECT_EQ(j["span_ns"], 150);
  ASSERT_EQ(j["lanes"].size(), 2u);
  EXPECT_EQ(j["lanes"][0]["stream"], 7);
  EXPECT_EQ(Starts(j["lanes"][0]), (std::vector<int64_t>{0, 20, 100}));
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

}  // namespace
}  // namespace tensormorph
