// A trace recorded while the program captured its CUDA/HIP graphs (issue 39): between
// cudaStreamBeginCapture and cudaStreamEndCapture the host's launches record the graph and run
// nothing, so the device idles for the whole capture. `info` says the trace is one of capture,
// `timeline` gives that idle time the cause graph_capture, and `findings` does not advise capturing
// graphs for it. No shared trace was recorded during capture (vLLM's start-up is the usual one),
// so the trace is written here as Kineto records those calls; the control is the same trace
// without the two capture calls. Expected times are the events' own, in ns.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

json Runtime(const std::string& name, int64_t ts, int64_t dur, int correlation) {
  return {{"ph", "X"},    {"cat", "cuda_runtime"},
          {"name", name}, {"pid", 1},
          {"tid", 1},     {"ts", ts},
          {"dur", dur},   {"args", {{"correlation", correlation}}}};
}

json Kernel(int64_t ts, int64_t dur, int correlation) {
  return {{"ph", "X"},
          {"cat", "kernel"},
          {"name", "gemm_kernel"},
          {"pid", 0},
          {"tid", 7},
          {"ts", ts},
          {"dur", dur},
          {"args", {{"correlation", correlation}, {"device", 0}, {"stream", 7}}}};
}

// One kernel (20-50 us), then a capture on the launching thread (60 us to the end of
// cudaStreamEndCapture at 3010 us) whose launch runs nothing, the graph's instantiation, and its
// replay at 4000 us running one kernel at 4030 us: the device idles from 50 to 4030 us. Then a
// plain launch the host makes late (at 6000 us; the device idles from 4130 to 6010 us).
std::string WriteTrace(bool with_capture) {
  json events = {Runtime("cudaLaunchKernel", 10, 5, 1),
                 Kernel(20, 30, 1),
                 Runtime("cudaLaunchKernel", 70, 5, 2),
                 Runtime("cudaGraphInstantiateWithFlags", 3010, 900, 4),
                 Runtime("cudaGraphLaunch", 4000, 20, 3),
                 Kernel(4030, 100, 3),
                 Runtime("cudaLaunchKernel", 6000, 5, 7),
                 Kernel(6010, 10, 7)};
  if (with_capture) {
    events.push_back(Runtime("cudaStreamBeginCapture", 60, 2, 5));
    events.push_back(Runtime("cudaStreamEndCapture", 3000, 10, 6));
  }
  const json trace = {{"schemaVersion", 1},
                      {"deviceProperties",
                       {{{"id", 0},
                         {"name", "NVIDIA A100-SXM4-80GB"},
                         {"computeMajor", 8},
                         {"computeMinor", 0},
                         {"numSms", 108}}}},
                      {"traceEvents", events}};
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("tm_capture_" + std::to_string(::getpid()) + (with_capture ? "_c" : "_n") + ".json");
  std::ofstream(path) << trace.dump();
  return path.string();
}

json RunJson(const std::string& command, const std::string& path) {
  RunResult r = RunTensormorph({command, "--format", "json", "--quiet", path});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out);
}

const json* FindingOf(const json& doc, const std::string& rule) {
  for (const json& f : doc["findings"]) {
    if (f["rule"] == rule) return &f;
  }
  return nullptr;
}

TEST(GraphCapture, IdleTimeOfACaptureIsTheCapturesNotALateHosts) {
  constexpr int64_t kGapNs = (4030 - 50) * 1000;
  constexpr int64_t kLateNs = (6010 - 4130) * 1000;
  const std::string capture = WriteTrace(true);
  const std::string control = WriteTrace(false);

  const json info = RunJson("info", capture)["inputs"][0];
  EXPECT_EQ(info["graph_capture"]["windows"], 1);
  EXPECT_EQ(info["graph_capture"]["total_ns"], (3010 - 60) * 1000);
  EXPECT_EQ(RunJson("info", control)["inputs"][0]["graph_capture"]["windows"], 0);
  RunResult table = RunTensormorph({"info", capture});
  EXPECT_NE(table.out.find("1 CUDA/HIP graph capture"), std::string::npos) << table.out;

  const json causes = RunJson("timeline", capture)["devices"][0]["gaps"]["by_cause"];
  EXPECT_EQ(causes["graph_capture"]["total_ns"], kGapNs) << causes;
  EXPECT_EQ(causes["host_launch_delay"]["total_ns"], kLateNs) << causes;
  const json control_causes = RunJson("timeline", control)["devices"][0]["gaps"]["by_cause"];
  EXPECT_EQ(control_causes["host_launch_delay"]["total_ns"], kGapNs + kLateNs) << control_causes;
  EXPECT_EQ(control_causes["graph_capture"]["total_ns"], 0) << control_causes;

  // The capture's idle time is no launch gap; the late launch after it is, with a fix that knows
  // the program already captures graphs.
  const json findings = RunJson("findings", capture);
  const json* outside = FindingOf(findings, "host_launch_gaps");
  ASSERT_NE(outside, nullptr);
  EXPECT_EQ((*outside)["estimated_gain_ns"], kLateNs);
  EXPECT_NE((*outside)["fix"].get<std::string>().find("profile the graph replays"),
            std::string::npos);
  const json control_findings = RunJson("findings", control);
  const json* late = FindingOf(control_findings, "host_launch_gaps");
  ASSERT_NE(late, nullptr);
  EXPECT_EQ((*late)["estimated_gain_ns"], kGapNs + kLateNs);
  EXPECT_NE((*late)["fix"].get<std::string>().find("capture the step in a CUDA/HIP graph"),
            std::string::npos);
  std::filesystem::remove(capture);
  std::filesystem::remove(control);
}

}  // namespace TM_UNITY_ID
}  // namespace
