// Kernels that overlap on one stream (import/common/trace_checks.h): on an H100 (compute
// capability 9.0, programmatic dependent launch) the warning says that is expected; on an A100 it
// says the clock or the stream ids are suspect. Copies of two shared Kineto traces with one kernel
// moved to start 1.5 µs before its stream predecessor ends; the overlaps are counted here by an
// independent sweep over the edited JSON.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

// Writes a copy of the trace whose `pick`-th kernel (in stream and time order) starts 1.5 µs
// before the previous kernel on its stream ends; returns the path and the overlaps in the copy.
std::pair<fs::path, int> ShiftedCopy(const std::string& trace_path, const std::string& name,
                                     size_t pick) {
  std::string error;
  json doc = json::parse(tensormorph::testing::Gunzip(trace_path, &error));
  EXPECT_TRUE(error.empty()) << error;
  using Key = std::tuple<int64_t, int64_t, double>;  // device, stream, ts
  std::vector<std::pair<Key, json*>> kernels;
  for (json& e : doc["traceEvents"]) {
    if (e.value("cat", "") != "kernel" || e.value("ph", "") != "X") continue;
    kernels.push_back({{e["args"]["device"].get<int64_t>(), e["args"]["stream"].get<int64_t>(),
                        e["ts"].get<double>()},
                       &e});
  }
  std::sort(kernels.begin(), kernels.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  // The pick-th kernel that has a predecessor on its stream.
  size_t seen = 0;
  for (size_t i = 1; i < kernels.size(); ++i) {
    if (std::get<0>(kernels[i].first) != std::get<0>(kernels[i - 1].first) ||
        std::get<1>(kernels[i].first) != std::get<1>(kernels[i - 1].first)) {
      continue;
    }
    if (seen++ != pick) continue;
    const json& before = *kernels[i - 1].second;
    const double end = before["ts"].get<double>() + before["dur"].get<double>();
    (*kernels[i].second)["ts"] = std::round((end - 1.5) * 1000) / 1000;
    break;
  }
  // Overlaps in the copy: per device and stream in time order, a start before the latest end, in
  // integer ns (Kineto's µs have three decimals; these magnitudes hold them exactly in a double).
  auto ns = [](const json& micros) { return std::llround(micros.get<double>() * 1000); };
  std::map<std::pair<int64_t, int64_t>, std::vector<std::pair<int64_t, int64_t>>> streams;
  for (const auto& [key, e] : kernels) {
    const int64_t ts = ns((*e)["ts"]);
    streams[{std::get<0>(key), std::get<1>(key)}].push_back({ts, ts + ns((*e)["dur"])});
  }
  int overlaps = 0;
  for (auto& [stream, rows] : streams) {
    std::sort(rows.begin(), rows.end());
    int64_t end = INT64_MIN;
    for (const auto& [s, e] : rows) {
      if (s < end) ++overlaps;
      end = std::max(end, e);
    }
  }
  const fs::path out = fs::temp_directory_path() / ("tm_stream_overlap_" + name + ".json");
  std::ofstream(out) << doc.dump();
  return {out, overlaps};
}

std::string Warnings(const fs::path& trace) {
  RunResult r = RunTensormorph({"kernels", "--top", "1", trace.string()});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return r.err;
}

TEST(StreamOverlap, OnComputeCapability9ItIsProgrammaticDependentLaunch) {
  const auto [path, overlaps] = ShiftedCopy(
      std::string(TM_SHARED_DATA) + "/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz",
      "h100", 100);
  ASSERT_GE(overlaps, 1);
  const std::string err = Warnings(path);
  EXPECT_NE(err.find(std::to_string(overlaps) + " kernels start before the previous kernel"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("programmatic dependent launch"), std::string::npos) << err;
  EXPECT_EQ(err.find("suspect"), std::string::npos) << err;
  fs::remove(path);
}

TEST(StreamOverlap, BeforeComputeCapability9TheClockIsSuspect) {
  const auto [path, overlaps] = ShiftedCopy(
      std::string(TM_SHARED_DATA) + "/kineto/hta/nccl_2rank_rank0_a100.json.gz", "a100", 100);
  ASSERT_GE(overlaps, 1);
  const std::string err = Warnings(path);
  EXPECT_NE(err.find(std::to_string(overlaps) + " kernels start before the previous kernel"),
            std::string::npos)
      << err;
  EXPECT_NE(err.find("the clock or the stream ids of this trace are suspect"), std::string::npos)
      << err;
  EXPECT_EQ(err.find("programmatic dependent launch"), std::string::npos) << err;
  fs::remove(path);
}

}  // namespace TM_UNITY_ID
}  // namespace
