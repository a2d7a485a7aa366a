// The native Tensormorph trace format end to end: real traces of every importer family survive
// import -> export (both layouts) -> import with every table field equal; a hand-written WebGPU
// fixture gives hand-counted kernel totals; malformed files fail with FILE:LINE:COL; and the
// `export` command's usage and I/O errors.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "export/exporter.h"
#include "support/files.h"
#include "support/run_tensormorph.h"
#include "support/trace_compare.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

using testing::RunTensormorph;
using testing::SameTrace;

const std::string kData = TM_SHARED_DATA;
const std::string kFixtures = TM_SOURCE_DIR "/tests/data/native/";

std::string TempPath(const std::string& suffix) {
  static int counter = 0;
  return fmt::format("/tmp/tm_native_test_{}_{}{}", getpid(), counter++, suffix);
}

StatusOr<Trace> Load(const std::string& path) {
  ImportOptions options;
  options.threads = 2;
  return LoadTrace(path, options);
}

struct RoundTripCase {
  const char* label;
  std::string path;
  // What the trace must hold for the round trip to mean something.
  size_t min_kernels;
  bool has_flows, has_counters, has_measured_peaks, has_slices;
};

class NativeRoundTrip : public ::testing::TestWithParam<RoundTripCase> {};

TEST_P(NativeRoundTrip, EveryFieldSurvivesBothLayouts) {
  const RoundTripCase& c = GetParam();
  StatusOr<Trace> original = Load(c.path);
  ASSERT_TRUE(original.ok()) << original.status().message();
  ASSERT_GE(original->kernels.size(), c.min_kernels);
  if (c.has_flows) {
    ASSERT_FALSE(original->flows.empty());
  }
  if (c.has_slices) {
    ASSERT_FALSE(original->slices.empty());
  }
  if (c.has_counters) {
    ASSERT_FALSE(original->kernel_counters.empty());
    ASSERT_FALSE(original->kernel_counters[0].metrics.empty());
  }
  if (c.has_measured_peaks) {
    ASSERT_FALSE(original->devices.empty());
    ASSERT_FALSE(original->devices[0].measured_peaks.empty());
  }
  for (const char* layout : {"native", "native-ndjson"}) {
    SCOPED_TRACE(layout);
    const Exporter* exporter = FindExporter(layout);
    ASSERT_NE(exporter, nullptr);
    const std::string first = TempPath(".json"), second = TempPath(".json");
    ASSERT_TRUE(exporter->Export(LinkedTrace(*original), first).ok());
    StatusOr<Trace> reread = Load(first);
    ASSERT_TRUE(reread.ok()) << reread.status().message();
    EXPECT_EQ(reread->path, first);
    EXPECT_TRUE(SameTrace(*original, *reread));
    // Writing what was read gives the same bytes: nothing drifts on a second trip.
    ASSERT_TRUE(exporter->Export(LinkedTrace(*reread), second).ok());
    EXPECT_EQ(ReadFile(first), ReadFile(second));
    std::remove(first.c_str());
    std::remove(second.c_str());
  }
}

INSTANTIATE_TEST_SUITE_P(
    RealTraces, NativeRoundTrip,
    ::testing::Values(
        RoundTripCase{"kineto_alexnet", kData + "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz",
                      79, true, false, false, true},
        RoundTripCase{"kineto_rocm_mi250",
                      kData + "/kineto/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 1, true,
                      false, false, true},
        RoundTripCase{"kineto_nccl_rank0", kData + "/kineto/hta/nccl_2rank_rank0_a100.json.gz", 1,
                      true, false, false, true},
        RoundTripCase{"nsys_h100_2gpu",
                      kData + "/nvidia/nsys_sqlite/nsysai_h100_2gpu_1s_2026.2.sqlite", 1, false,
                      false, false, false},
        RoundTripCase{"ncu_details", kData + "/nvidia/ncu_csv/llmperfopt_k0001_ncu.details.csv", 1,
                      false, true, false, false},
        RoundTripCase{"ncu_raw_metrics", kData + "/nvidia/ncu_csv/llmperfopt_k0001_ncu.metrics.csv",
                      1, false, true, false, false},
        RoundTripCase{"rocprofv3_kernel_trace", kData + "/other/rocprofv3/kernel_trace.csv", 1,
                      false, false, false, false},
        RoundTripCase{"rocprof_compute_mi200", kData + "/other/rocprof_compute/vcopy_MI200", 1,
                      false, false, true, false},
        RoundTripCase{"onnxruntime_cpu",
                      kData + "/other/onnxruntime/onnxruntime_profile_cpu_ort1.30.0_generated.json",
                      1, false, false, false, true},
        // Mangled kernel names (kept beside the demangled ones) and instant events.
        RoundTripCase{"kineto_hipgraph_mangled",
                      kData + "/kineto/tracelens/rocm_sglang_qwen3-8b_decode_hipgraph.json.gz", 1,
                      false, false, false, true},
        RoundTripCase{"rocprof_compute_db",
                      kData + "/other/rocprof_compute_db/rocprof_compute_3.5_mi350_23ed6f36.db", 1,
                      false, true, true, false},
        RoundTripCase{"xplane_tensorflow_nvidia",
                      kData + "/kineto/xplane_nvidia/tf_gpu_multiworker_8gpu.xplane.pb", 1, false,
                      false, false, true},
        RoundTripCase{"webgpu_ort130_console",
                      kData + "/other/webgpu_browser/ort130_jsep_convnet_console.log", 1, false,
                      false, false, true}),
    [](const ::testing::TestParamInfo<RoundTripCase>& info) { return info.param.label; });

// The tables and fields added since the format was first written have real rows in the cases
// above, so that their round trip is tested: mangled names, instants, Nsight Compute's Occupancy
// section and Speed Of Light.
TEST(NativeRoundTripCoverage, NewerFieldsHaveRowsToCarry) {
  StatusOr<Trace> hipgraph =
      Load(kData + "/kineto/tracelens/rocm_sglang_qwen3-8b_decode_hipgraph.json.gz");
  ASSERT_TRUE(hipgraph.ok());
  EXPECT_FALSE(hipgraph->mangled_names.empty());
  StatusOr<Trace> nccl = Load(kData + "/kineto/hta/nccl_2rank_rank0_a100.json.gz");
  ASSERT_TRUE(nccl.ok());
  StatusOr<Trace> alexnet = Load(kData + "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz");
  ASSERT_TRUE(alexnet.ok());
  EXPECT_FALSE(nccl->instants.empty() && alexnet->instants.empty());
  StatusOr<Trace> ncu = Load(kData + "/nvidia/ncu_csv/llmperfopt_k0001_ncu.details.csv");
  ASSERT_TRUE(ncu.ok());
  ASSERT_EQ(ncu->kernel_counters.size(), 1u);
  EXPECT_TRUE(ncu->kernel_counters[0].reported_occupancy);
  EXPECT_TRUE(ncu->kernel_counters[0].sm_throughput_percent);
}

// The hand-written fixture: a WebGPU app's timestamp queries (resolution 65 536 ns). Totals
// counted by hand from the file: matmul_f32_tiled 393216 + 458752 + 393216 = 1245184 ns over 3
// launches, softmax 131072, gelu 65536, layer_norm 0 (under the clock's resolution); 1441792 in
// all.
TEST(NativeFixture, WebGpuTimestampQueriesGiveHandCountedTotals) {
  for (const char* file : {"webgpu_timestamp_queries.ndjson", "webgpu_timestamp_queries.json"}) {
    SCOPED_TRACE(file);
    testing::RunResult r =
        RunTensormorph({"kernels", kFixtures + file, "--format", "json", "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    const nlohmann::json out = nlohmann::json::parse(r.out);
    EXPECT_EQ(out["total_ns"], 1441792);
    EXPECT_EQ(out["kernel_count"], 6);
    EXPECT_EQ(out["inputs"][0]["format"], "webgpu-app");
    EXPECT_EQ(out["inputs"][0]["backends"], nlohmann::json({"cpu", "webgpu"}));
    ASSERT_EQ(out["rows"].size(), 4u);
    const nlohmann::json& matmul = out["rows"][0];
    EXPECT_EQ(matmul["name"], "matmul_f32_tiled");
    EXPECT_EQ(matmul["backend"], "webgpu");
    EXPECT_EQ(matmul["count"], 3);
    EXPECT_EQ(matmul["total_ns"], 1245184);
    EXPECT_EQ(matmul["min_ns"], 393216);
    EXPECT_EQ(matmul["max_ns"], 458752);
    EXPECT_EQ(out["rows"][1]["name"], "softmax");
    EXPECT_EQ(out["rows"][1]["total_ns"], 131072);
    EXPECT_EQ(out["rows"][2]["name"], "gelu");
    EXPECT_EQ(out["rows"][2]["total_ns"], 65536);
    EXPECT_EQ(out["rows"][3]["name"], "layer_norm");
    EXPECT_EQ(out["rows"][3]["total_ns"], 0);
  }
}

// Both layouts of the fixture, written independently by hand, are the same trace; the model
// fields the file leaves out take their documented defaults.
TEST(NativeFixture, JsonAndNdjsonLayoutsReadTheSame) {
  StatusOr<Trace> ndjson = Load(kFixtures + "webgpu_timestamp_queries.ndjson");
  StatusOr<Trace> json = Load(kFixtures + "webgpu_timestamp_queries.json");
  ASSERT_TRUE(ndjson.ok()) << ndjson.status().message();
  ASSERT_TRUE(json.ok()) << json.status().message();
  EXPECT_TRUE(SameTrace(*ndjson, *json));
  const Trace& t = *ndjson;
  EXPECT_EQ(t.timestamp_resolution_ns, 65536);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].backend, Backend::kWebGpu);
  EXPECT_EQ(t.devices[0].trace_id, 7);
  EXPECT_FALSE(t.devices[0].described);
  EXPECT_EQ(t.kernels[0].grid.x, 64u);
  EXPECT_EQ(t.kernels[0].grid.y, 64u);
  EXPECT_EQ(t.kernels[0].grid.z, 1u);
  EXPECT_EQ(t.kernels[0].stream, -1);
  EXPECT_EQ(t.counts.kernels, 6u);
  EXPECT_EQ(t.counts.annotations, 1u);
  EXPECT_EQ(t.metadata.at("app"), "\"tm-webgpu-demo\"");
  EXPECT_EQ(t.metadata.at("frames"), "1");
  EXPECT_EQ(t.span_start_ns, 600000);
  EXPECT_EQ(t.span_end_ns, 2300000);
  EXPECT_TRUE(t.warnings.empty());
}

struct MalformedCase {
  const char* label;
  const char* suffix;
  std::string content;
  std::string position;  // ":LINE:COL: " after the file name
  std::string message;   // part of the message
};

class NativeMalformed : public ::testing::TestWithParam<MalformedCase> {};

const std::string kHeader = R"({"schema":"tensormorph.trace/1"})"
                            "\n"
                            R"({"type":"device","id":0,"backend":"webgpu"})"
                            "\n";

TEST_P(NativeMalformed, ExitsThreeWithFileLineColumn) {
  const MalformedCase& c = GetParam();
  const std::string path = TempPath(c.suffix);
  std::ofstream(path, std::ios::binary) << c.content;
  testing::RunResult r = RunTensormorph({"kernels", path, "--quiet"});
  std::remove(path.c_str());
  ASSERT_TRUE(r.Clean()) << r.Describe();
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_NE(r.err.find("tensormorph: error: " + path + c.position), std::string::npos)
      << r.Describe();
  EXPECT_NE(r.err.find(c.message), std::string::npos) << r.Describe();
}

INSTANTIATE_TEST_SUITE_P(
    Files, NativeMalformed,
    ::testing::Values(
        MalformedCase{"syntax_error_on_line_3", ".ndjson",
                      kHeader + R"({"type":"kernel","name":"a","device":0,})" + "\n",
                      ":3:", "not valid JSON"},
        MalformedCase{
            "time_as_string", ".ndjson",
            kHeader + R"({"type":"kernel","name":"a","device":0,"start_ns":"12","duration_ns":5})" +
                "\n",
            ":3:51: ", "kernel.start_ns must be an integer number of nanoseconds"},
        MalformedCase{
            "fractional_time", ".ndjson",
            kHeader + R"({"type":"kernel","name":"a","device":0,"start_ns":1.5,"duration_ns":5})" +
                "\n",
            ":3:51: ", "not 1.5"},
        MalformedCase{
            "unknown_device", ".ndjson",
            kHeader + R"({"type":"kernel","name":"a","device":3,"start_ns":1,"duration_ns":5})" +
                "\n",
            ":3:38: ", "kernel.device 3 is not the id of a device record"},
        MalformedCase{
            "negative_duration", ".ndjson",
            kHeader + R"({"type":"kernel","name":"a","device":0,"start_ns":1,"duration_ns":-5})" +
                "\n",
            ":3:67: ", "kernel.duration_ns must not be negative"},
        MalformedCase{
            "end_before_start", ".ndjson",
            kHeader + R"({"type":"kernel","name":"a","device":0,"start_ns":9,"end_ns":5})" + "\n",
            ":3:62: ", "kernel.end_ns 5 is before its start_ns 9"},
        MalformedCase{"newer_schema", ".ndjson",
                      R"({"schema":"tensormorph.trace/2"})"
                      "\n",
                      ":1:11: ", "tensormorph.trace/2 is newer than this build reads"},
        MalformedCase{"record_without_type", ".ndjson",
                      kHeader + R"({"name":"a","device":0,"start_ns":1,"duration_ns":5})" + "\n",
                      ":3:1: ", "a record needs a \"type\""},
        MalformedCase{
            "kernel_without_device", ".ndjson",
            kHeader + R"({"type":"kernel","name":"a","start_ns":1,"duration_ns":5})" + "\n",
            ":3:1: ", "a kernel needs a \"device\""},
        MalformedCase{
            "counters_of_missing_kernel", ".ndjson",
            kHeader + R"({"type":"kernel_counters","kernel":0,"dram_bytes":5})" + "\n",
            ":3:36: ", "kernel_counters.kernel 0 is not the position of a kernel record before it"},
        MalformedCase{"duplicate_device_id", ".ndjson",
                      kHeader + R"({"type":"device","id":0,"backend":"cuda"})" + "\n",
                      ":3:23: ", "device id 0 is used by two device records"},
        MalformedCase{"unknown_backend", ".ndjson",
                      R"({"schema":"tensormorph.trace/1"})"
                      "\n"
                      R"({"type":"device","id":0,"backend":"vulkan"})"
                      "\n",
                      ":2:35: ", "device.backend must be one of cpu, cuda"},
        MalformedCase{"json_layout_wrong_type", ".json",
                      "{\"schema\": \"tensormorph.trace/1\",\n \"devices\": [{\"id\": 0, "
                      "\"backend\": \"cuda\"}],\n \"kernels\": [\n  {\"name\": \"k\", \"device\": "
                      "0, \"start_ns\": 1, \"duration_ns\": true}\n ]\n}\n",
                      ":4:60: ", "kernel.duration_ns must be an integer"},
        MalformedCase{"json_layout_cut_off", ".json",
                      "{\"schema\": \"tensormorph.trace/1\",\n \"devices\": [{\"id\": 0, "
                      "\"backend\": \"cuda\"}],\n \"kernels\": [\n  {\"name\": \"k\", \"dev",
                      ":4:", "not valid JSON"},
        MalformedCase{"kernel_without_name", ".json",
                      "{\"schema\": \"tensormorph.trace/1\"}\n{\"type\":\"kernel\"}\n",
                      ":2:1: ", "a kernel needs a \"name\""}),
    [](const ::testing::TestParamInfo<MalformedCase>& info) { return info.param.label; });

TEST(NativeExportCommand, WritesNdjsonThatReadsBack) {
  const std::string out = TempPath(".ndjson");
  testing::RunResult r = RunTensormorph({"export", kFixtures + "webgpu_timestamp_queries.json",
                                         "--to", "native-ndjson", "-o", out, "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const std::string text = ReadFile(out);
  EXPECT_TRUE(text.starts_with("{\"schema\":\"tensormorph.trace/1\"")) << text.substr(0, 200);
  // Header, one device, one track, six kernels, one slice: one record per line.
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 10);
  StatusOr<Trace> reread = Load(out);
  StatusOr<Trace> original = Load(kFixtures + "webgpu_timestamp_queries.json");
  ASSERT_TRUE(reread.ok() && original.ok());
  EXPECT_TRUE(SameTrace(*original, *reread));
  std::remove(out.c_str());
}

TEST(NativeExportCommand, DashWritesToStdout) {
  testing::RunResult r = RunTensormorph(
      {"export", kFixtures + "webgpu_timestamp_queries.ndjson", "--to", "native", "-o", "-", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["schema"], "tensormorph.trace/1");
  EXPECT_EQ(doc["kernels"].size(), 6u);
  EXPECT_EQ(doc["timestamp_resolution_ns"], 65536);
}

TEST(NativeExportCommand, UsageAndIoErrors) {
  const std::string fixture = kFixtures + "webgpu_timestamp_queries.ndjson";
  testing::RunResult no_to = RunTensormorph({"export", fixture, "-o", "/tmp/x.json"});
  EXPECT_EQ(no_to.exit_code, 2) << no_to.Describe();
  EXPECT_NE(no_to.err.find("--to"), std::string::npos) << no_to.Describe();

  testing::RunResult no_output = RunTensormorph({"export", fixture, "--to", "native"});
  EXPECT_EQ(no_output.exit_code, 2) << no_output.Describe();

  testing::RunResult unknown =
      RunTensormorph({"export", fixture, "--to", "parquet", "-o", "/tmp/x"});
  EXPECT_EQ(unknown.exit_code, 2) << unknown.Describe();
  EXPECT_NE(unknown.err.find("unknown export format 'parquet'"), std::string::npos);
  EXPECT_NE(unknown.err.find("native, native-ndjson"), std::string::npos) << unknown.err;

  testing::RunResult two =
      RunTensormorph({"export", fixture, fixture, "--to", "native", "-o", "/tmp/x.json"});
  EXPECT_EQ(two.exit_code, 2) << two.Describe();

  testing::RunResult missing =
      RunTensormorph({"export", "/nonexistent/trace.json", "--to", "native", "-o", "/tmp/x"});
  EXPECT_EQ(missing.exit_code, 3) << missing.Describe();

  const std::string unwritable = "/nonexistent-dir/out.json";
  testing::RunResult io = RunTensormorph({"export", fixture, "--to", "native", "-o", unwritable});
  EXPECT_EQ(io.exit_code, 3) << io.Describe();
  EXPECT_NE(io.err.find("cannot write " + unwritable), std::string::npos) << io.Describe();

  testing::RunResult full =
      RunTensormorph({"export", fixture, "--to", "native", "-o", "/dev/full"});
  EXPECT_EQ(full.exit_code, 3) << full.Describe();
  EXPECT_NE(full.err.find("cannot write /dev/full"), std::string::npos) << full.Describe();
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
