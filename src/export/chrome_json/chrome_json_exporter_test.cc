// A synthetic trace with every row kind and hostile names goes out as Chrome JSON and comes back
// through our Kineto importer with the same rows and numbers; nlohmann checks the file is JSON.
#include "export/chrome_json/chrome_json_exporter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "import/common/op_inputs_json.h"
#include "model/trace_order.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

constexpr int64_t kEpochNs = 1'700'000'000'123'456'789;  // 19 digits: a double would round it
const std::string kHostileName = "k\"er\\nel\n\t\x01 caf\xC3\xA9 \xFF end";
const std::string kOpInputs =
    R"({"dims": [[2, 3], [3, 4]], "types": ["float", "float"], "concrete": ["", ""]})";
const std::string kRepairedName = "k\"er\\nel\n\t\x01 caf\xC3\xA9 \xEF\xBF\xBD end";

Trace MakeTrace() {
  Trace trace;
  trace.format = "synthetic";
  Device gpu;
  gpu.backend = Backend::kCuda;
  gpu.vendor = "NVIDIA";
  gpu.name = "NVIDIA H100 80GB HBM3";
  gpu.index = 0;
  gpu.compute_major = 9;
  gpu.sm_count = 132;
  gpu.warp_size = 32;
  gpu.max_threads_per_sm = 2048;
  gpu.total_memory_bytes = int64_t{80} << 30;
  gpu.described = true;
  trace.devices.push_back(gpu);
  trace.tracks.push_back({100, 101, "", "", "main \"thread\""});
  trace.tracks.push_back({0, 0, "Spans", "PyTorch Profiler", ""});
  ApiCall launch;
  launch.start_ns = kEpochNs;
  launch.duration_ns = 5001;
  launch.link = {7, 3};
  launch.name = trace.strings.Intern("cudaLaunchKernel");
  launch.track = 0;
  trace.api_calls.push_back(launch);
  Kernel k;
  k.start_ns = kEpochNs + 10'001;
  k.duration_ns = 1234;
  k.link = {7, 3};
  k.name = trace.strings.Intern(kHostileName);
  k.device = 0;
  k.stream = 7;
  k.grid = {2, 3, 4};
  k.block = {128, 1, 1};
  k.registers_per_thread = 32;
  k.shared_memory_bytes = 1024;
  k.achieved_occupancy_percent = 50;
  trace.kernels.push_back(k);
  Transfer copy;
  copy.start_ns = kEpochNs + 20'000;
  copy.duration_ns = 999;
  copy.bytes = 4096;
  copy.name = trace.strings.Intern("Memcpy HtoD (Pageable -> Device)");
  copy.device = 0;
  copy.stream = 9;
  trace.transfers.push_back(copy);
  Transfer set = copy;
  set.kind = TransferKind::kMemset;
  set.name = trace.strings.Intern("Memset (Device)");
  set.start_ns += 5000;
  trace.transfers.push_back(set);
  Slice op;
  op.start_ns = kEpochNs - 1;
  op.duration_ns = 20'000;
  op.external_id = 3;
  op.name = trace.strings.Intern("aten::mm");
  op.inputs = trace.op_inputs.Add(OpInputsFromObjectText(kOpInputs));
  op.track = 0;
  trace.slices.push_back(op);
  Slice step = op;
  step.kind = SliceKind::kUserAnnotation;
  step.name = trace.strings.Intern("ProfilerStep#1");
  step.inputs = 0;
  step.external_id = -1;
  step.start_ns -= 100;
  step.duration_ns += 200;
  trace.slices.push_back(step);
  Slice no_dims = step;  // inputs JSON without any member: no args, and no crash
  no_dims.kind = SliceKind::kOp;
  no_dims.name = trace.strings.Intern("aten::empty");
  no_dims.inputs = trace.op_inputs.Add(OpInputsFromObjectText("{}"));
  no_dims.start_ns += 50;
  no_dims.duration_ns = 10;
  trace.slices.push_back(no_dims);
  Slice frame = step;
  frame.kind = SliceKind::kPythonFunction;
  frame.name = trace.strings.Intern("train.py(12): step");
  frame.track = 1;
  trace.slices.push_back(frame);
  trace.metadata["cupti_version"] = "12";
  SortTraceTables(&trace);
  KernelCounters counters;  // after sorting: counters refer to final kernel indexes
  counters.kernel = 0;
  counters.metrics.push_back({trace.strings.Intern("Memory"),
                              trace.strings.Intern("dram__bytes.sum"), trace.strings.Intern("byte"),
                              4096.5});
  counters.metrics.push_back({trace.strings.Intern("Memory"), trace.strings.Intern("ratio"),
                              trace.strings.Intern(""), std::nan("")});
  trace.kernel_counters.push_back(counters);
  ComputeTraceSpan(&trace);
  return trace;
}

TEST(ChromeJsonExport, WritesValidJsonWithOneThreadPerStream) {
  const Trace trace = MakeTrace();
  const std::string path = testing::TempDir() + "/chrome_json_synthetic.json";
  ASSERT_TRUE(FindExporter("chrome-json")->Export(LinkedTrace(trace), path).ok());
  std::ifstream in(path);
  const nlohmann::json root = nlohmann::json::parse(in);  // throws (fails) on invalid JSON
  EXPECT_EQ(root["displayTimeUnit"], "ns");
  ASSERT_EQ(root["deviceProperties"].size(), 1u);
  EXPECT_EQ(root["deviceProperties"][0]["numSms"], 132);
  std::set<std::pair<int64_t, int64_t>> stream_threads;
  std::map<std::string, int> by_category;
  for (const auto& event : root["traceEvents"]) {
    if (event["ph"] == "M" && event["name"] == "thread_name" &&
        event["args"]["name"].get<std::string>().starts_with("stream ")) {
      stream_threads.emplace(event["pid"].get<int64_t>(), event["tid"].get<int64_t>());
    }
    if (event["ph"] == "X") ++by_category[event["cat"].get<std::string>()];
    if (event["ph"] == "X" && event["cat"] == "kernel") {
      EXPECT_EQ(event["name"], kRepairedName);
      EXPECT_EQ(event["args"]["grid"], nlohmann::json::array({2, 3, 4}));
      EXPECT_EQ(event["args"]["metrics"]["dram__bytes.sum [byte]"], 4096.5);
      EXPECT_TRUE(event["args"]["metrics"]["ratio"].is_null());
    }
  }
  EXPECT_EQ(stream_threads, (std::set<std::pair<int64_t, int64_t>>{{0, 7}, {0, 9}}));
  EXPECT_EQ(by_category, (std::map<std::string, int>{{"kernel", 1},
                                                     {"gpu_memcpy", 1},
                                                     {"gpu_memset", 1},
                                                     {"cuda_runtime", 1},
                                                     {"cpu_op", 2},
                                                     {"user_annotation", 1},
                                                     {"python_function", 1}}));
}

TEST(ChromeJsonExport, OurImporterReadsBackTheSameRows) {
  const Trace original = MakeTrace();
  const std::string path = testing::TempDir() + "/chrome_json_round_trip.json";
  ASSERT_TRUE(FindExporter("chrome-json")->Export(LinkedTrace(original), path).ok());
  StatusOr<Trace> loaded = LoadTrace(path, ImportOptions{});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  const Trace& back = *loaded;
  EXPECT_EQ(back.format, "kineto");
  ASSERT_EQ(back.devices.size(), 1u);
  EXPECT_EQ(back.devices[0].backend, Backend::kCuda);
  EXPECT_EQ(back.devices[0].name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(back.devices[0].sm_count, 132);
  EXPECT_EQ(back.devices[0].total_memory_bytes, int64_t{80} << 30);

  ASSERT_EQ(back.kernels.size(), 1u);
  const Kernel& k = back.kernels[0];
  EXPECT_EQ(back.str(k.name), kRepairedName);
  EXPECT_EQ(k.start_ns, kEpochNs + 10'001);  // exact to the nanosecond at epoch magnitude
  EXPECT_EQ(k.duration_ns, 1234);
  EXPECT_EQ(k.stream, 7);
  EXPECT_EQ(k.link.correlation, 7u);
  EXPECT_EQ(k.link.external_id, 3);
  EXPECT_EQ(k.grid.z, 4u);
  EXPECT_EQ(k.block.x, 128u);
  EXPECT_EQ(k.registers_per_thread, 32);
  EXPECT_EQ(k.shared_memory_bytes, 1024u);
  EXPECT_EQ(k.achieved_occupancy_percent, 50);

  ASSERT_EQ(back.transfers.size(), 2u);
  EXPECT_EQ(back.transfers[0].kind, TransferKind::kMemcpy);
  EXPECT_EQ(back.transfers[0].bytes, 4096u);
  EXPECT_EQ(back.transfers[1].kind, TransferKind::kMemset);
  EXPECT_EQ(back.transfers[1].start_ns, kEpochNs + 25'000);

  ASSERT_EQ(back.api_calls.size(), 1u);
  EXPECT_EQ(back.api_calls[0].start_ns, kEpochNs);
  EXPECT_EQ(back.api_calls[0].duration_ns, 5001);
  ASSERT_EQ(back.slices.size(), 4u);
  for (const Slice& s : back.slices) {
    const std::string_view name = back.str(s.name);
    if (name == "aten::mm") {
      EXPECT_EQ(s.kind, SliceKind::kOp);
      EXPECT_EQ(s.start_ns, kEpochNs - 1);
      ASSERT_NE(back.inputs_of(s), nullptr);
      EXPECT_EQ(OpInputsText(*back.inputs_of(s)), kOpInputs);
      EXPECT_EQ(back.inputs_of(s)->args.at(1).dims, (std::vector<int64_t>{3, 4}));
    } else if (name == "aten::empty") {
      EXPECT_EQ(s.inputs, 0u);
    } else if (name == "train.py(12): step") {
      EXPECT_EQ(s.kind, SliceKind::kPythonFunction);
      EXPECT_EQ(back.tracks[s.track].pid_name, "Spans");
      EXPECT_EQ(back.tracks[s.track].tid_name, "PyTorch Profiler");
    } else {
      EXPECT_EQ(name, "ProfilerStep#1");
      EXPECT_EQ(s.kind, SliceKind::kUserAnnotation);
    }
  }
  bool named = false;
  for (const Track& t : back.tracks) named = named || t.thread_name == "main \"thread\"";
  EXPECT_TRUE(named);
  EXPECT_EQ(back.metadata.at("cupti_version"), "12");

  // The kernel still finds its launch and its op; the rebuilt ac2g flow pairs are there.
  const TraceLinks links = LinkTrace(back);
  ASSERT_EQ(links.kernels.size(), 1u);
  ASSERT_NE(links.kernels[0].launch, kNoRow);
  EXPECT_EQ(links.kernels[0].origin, WorkOrigin::kOp);
  EXPECT_EQ(back.flows.size(), 2u);
}

TEST(ChromeJsonExport, EmptyTraceIsValidJsonAndReadsBack) {
  Trace empty;
  const std::string path = testing::TempDir() + "/chrome_json_empty.json";
  ASSERT_TRUE(FindExporter("chrome-json")->Export(LinkedTrace(empty), path).ok());
  std::ifstream in(path);
  EXPECT_TRUE(nlohmann::json::parse(in)["traceEvents"].empty());
  StatusOr<Trace> loaded = LoadTrace(path, ImportOptions{});
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  EXPECT_TRUE(loaded->kernels.empty());
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
