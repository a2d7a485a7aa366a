// `tensormorph info` on every file of ../shared/data that no oracle test of its own reads (the
// Kineto traces have tests/kineto_oracle_test.cc, the Nsight Systems exports
// tests/nsys_sql_oracle_test.cc): each real file is read with the right format, backend and
// devices, or — for files that hold no dispatches (statistics, summaries, allocation traces,
// counter files without times, a peer tool's result tables, command lines) — refused with a
// message that says what it is. The table below is written from PROVENANCE.md and the files'
// headers; a file added to the data folder without an expectation fails the last test.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

struct Expected {
  std::string format;   // "" when the file is refused
  std::string backend;  // the device backend ("" = no devices)
  size_t devices = 0;
  std::string error;  // part of the error message when refused
};

constexpr const char* kNotATrace = "not a trace format tensormorph reads";
constexpr const char* kNsysStats = "an `nsys stats` report";

// TraceLens's own comparison tables of the Qwen pair (kineto/tracelens_pairs/reference_qwen/):
// results of a peer tool, not traces. Several are empty (no rows only in one side).
Expected ForTraceLensTable(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const bool blank = text.find_first_not_of(" \t\r\n") == std::string::npos;
  return {"", "", 0, blank ? "the file holds only whitespace" : kNotATrace};
}

const std::map<std::string, Expected>& Table() {
  static const std::map<std::string, Expected> kTable = [] {
    std::map<std::string, Expected> table = {
        {"kineto/jax_xplane/jax06_mi300_conv3d.legacy.xplane.pb", {"jax-xplane", "rocm", 2, ""}},
        {"kineto/jax_xplane/jax08_mi300_conv3d.tw003.xplane.pb", {"jax-xplane", "rocm", 8, ""}},
        {"other/onnxruntime/onnxruntime_profile_cpu_ort1.30.0_generated.json",
         {"onnxruntime", "cpu", 1, ""}},
        // rocprof-compute: every table of a workload reads the workload.
        {"other/rocprof_compute/no_roof_MI350/SQ_LEVEL_WAVES.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/no_roof_MI350/pmc_perf_0.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/no_roof_MI350/sysinfo.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/vcopy_MI200/SQ_LEVEL_WAVES.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/vcopy_MI200/pmc_dispatch_info.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/vcopy_MI200/pmc_perf.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/vcopy_MI200/roofline.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/vcopy_MI200/sysinfo.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/vcopy_MI200/timestamps.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/vcopy_MI300X_A1/pmc_perf.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/vcopy_MI300X_A1/sysinfo.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_compute/vcopy_MI300X_A1/timestamps.csv", {"rocprof", "rocm", 1, ""}},
        // rocprof v1 on MI250X (one run: CSV, --stats summary, SQLite, rocminfo dump) and its
        // Chrome trace from an RDNA4 run.
        {"other/rocprof_v1/mi250x_hpctraining/results.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprof_v1/mi250x_hpctraining/results.db", {"rocprof", "rocm", 1, ""}},
        // rocprof v1's --stats summary names the results.csv written beside it.
        {"other/rocprof_v1/mi250x_hpctraining/results.stats.csv",
         {"", "", 0,
          "a rocprof v1 statistics file (--stats: totals per name, no dispatches or times); "
          "read " TM_SHARED_DATA
          "/other/rocprof_v1/mi250x_hpctraining/results.csv beside it instead"}},
        {"other/rocprof_v1/mi250x_hpctraining/results.sysinfo.txt",
         {"", "", 0,
          "rocminfo's text (rocprof v1's sysinfo file: the run's agents, no dispatches); "
          "read " TM_SHARED_DATA
          "/other/rocprof_v1/mi250x_hpctraining/results.csv beside it instead"}},
        {"other/rocprof_v1/r9700_rdna4_llamacpp/results.json", {"rocprof", "rocm", 1, ""}},
        // TPU v6e: four TPUs, their XLA ops as kernels (backend other).
        {"kineto/jax_xplane/xprof_tpu_v6e_4chip_inference_2.xplane.pb",
         {"jax-xplane", "other", 4, ""}},
        // rocprofv3 (current): the traces, and the files that hold no dispatches.
        // rocprof-compute 3.5's SQLite database (MI350).
        {"other/rocprof_compute_db/rocprof_compute_3.5_mi350_23ed6f36.db",
         {"rocprof-compute-db", "rocm", 1, ""}},
        {"other/rocprofv3/counter_collection.csv", {"", "", 0, "read the run's kernel_trace.csv"}},
        {"other/rocprofv3/hip_api_stats.csv", {"", "", 0, "a rocprofv3 statistics file"}},
        {"other/rocprofv3/hip_domain_stats.csv", {"", "", 0, "a rocprofv3 statistics file"}},
        {"other/rocprofv3/hip_trace.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprofv3/kernel_trace.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprofv3/kernel_trace_truncated.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprofv3/memory_allocation_trace.csv",
         {"", "", 0, "a rocprofv3 memory allocation trace"}},
        {"other/rocprofv3/memory_copy_trace.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprofv3/rocpd-to-csv.csv", {"rocprof", "", 0, ""}},  // HIP API calls only
        {"other/rocprofv3/scratch_memory_trace.csv",
         {"", "", 0, "a rocprofv3 scratch memory trace"}},
        {"other/rocprofv3/summary.txt", {"", "", 0, "a rocprofv3 summary (-S)"}},
        // rocprofv3 (ROCm 6.2): kernel_names.csv is a counter collection despite its name.
        {"other/rocprofv3_rocm62/counter_collection.csv",
         {"", "", 0, "read the run's kernel_trace.csv"}},
        {"other/rocprofv3_rocm62/kernel_names.csv", {"", "", 0, "read the run's kernel_trace.csv"}},
        {"other/rocprofv3_rocm62/kernel_trace.csv", {"rocprof", "rocm", 1, ""}},
        {"other/rocprofv3_rocm62/memory_copy_trace.csv", {"rocprof", "rocm", 1, ""}},
        // WebGPU in headless Chromium: ONNX Runtime Web 1.30 / 1.17 / 1.16 and TensorFlow.js.
        {"other/webgpu_browser/adapter_info.json", {"", "", 0, "a WebGPU adapter description"}},
        {"other/webgpu_browser/ort1163_jsep_convnet_console.log", {"ort-web-log", "webgpu", 1, ""}},
        {"other/webgpu_browser/ort1173_jsep_convnet_console.log", {"ort-web-log", "webgpu", 1, ""}},
        {"other/webgpu_browser/ort130_jsep_convnet_console.log", {"ort-web-log", "webgpu", 1, ""}},
        {"other/webgpu_browser/ort130_jsep_convnet_console.profiling-lines.txt",
         {"ort-web-log", "webgpu", 1, ""}},
        {"other/webgpu_browser/ort130_jsep_convnet_console.session-profile.json",
         {"onnxruntime", "webgpu", 1, ""}},
        {"other/webgpu_browser/ort130_jsep_convnet_ondata.json",
         {"ort-web-profiling", "webgpu", 1, ""}},
        {"other/webgpu_browser/ort130_jsep_convnet_ondata.ndjson",
         {"ort-web-profiling", "webgpu", 1, ""}},
        {"other/webgpu_browser/ort130_native_convnet_sessprof.session-profile.json",
         {"onnxruntime", "webgpu", 1, ""}},
        {"other/webgpu_browser/tfjs422_convnet.profiles.json", {"tfjs-profile", "webgpu", 1, ""}},
        {"other/webgpu_browser/tfjs422_convnet.profiles.ndjson", {"tfjs-profile", "webgpu", 1, ""}},
        {"other/webgpu_browser/tfjs422_convnet.time.json", {"", "", 0, "tf.time() results"}},
        {"other/webgpu_browser/tfjs422_debug_ops.console.log", {"tfjs-debug-log", "webgpu", 1, ""}},
        {"other/webgpu_browser/tiny_convnet.onnx", {"", "", 0, "an ONNX model"}},
        // TensorFlow on 8 NVIDIA GPUs: device_vendor is empty, the compute capability says NVIDIA;
        // three of the eight GPUs ran something in this capture.
        {"kineto/xplane_nvidia/tf_gpu_multiworker_8gpu.xplane.pb", {"jax-xplane", "cuda", 3, ""}},
        // Nsight Compute: one launch per export, whatever the page or section.
        {"nvidia/ncu_csv/llmperfopt_error_raw.csv", {"", "", 0, "Nsight Compute (ncu) failed"}},
        {"nvidia/ncu_csv/llmperfopt_k0001_ncu.details.csv", {"ncu-csv", "cuda", 1, ""}},
        {"nvidia/ncu_csv/llmperfopt_k0001_ncu.metrics.csv", {"ncu-csv", "cuda", 1, ""}},
        {"nvidia/ncu_csv/llmperfopt_k0001_ncu.section_Occupancy.csv", {"ncu-csv", "cuda", 1, ""}},
        {"nvidia/ncu_csv/llmperfopt_k0001_ncu.section_SpeedOfLight.csv",
         {"ncu-csv", "cuda", 1, ""}},
        {"nvidia/ncu_csv/llmperfopt_k0001_ncu.section_SpeedOfLight_RooflineChart.csv",
         {"ncu-csv", "cuda", 1, ""}},
        {"nvidia/ncu_csv/llmperfopt_k0004_ncu.details.csv", {"ncu-csv", "cuda", 1, ""}},
        {"nvidia/ncu_csv/llmperfopt_ncu-v2_command.yaml", {"", "", 0, kNotATrace}},
        // `nsys stats` summaries hold no launches; the command lines beside them are not traces.
        {"nvidia/nsys_stats_csv/llmperfopt_clip_cuda_gpu_kern_sum.csv", {"", "", 0, kNsysStats}},
        {"nvidia/nsys_stats_csv/llmperfopt_decode_cuda_gpu_kern_sum.csv", {"", "", 0, kNsysStats}},
        {"nvidia/nsys_stats_csv/llmperfopt_projector_cuda_gpu_kern_sum.csv",
         {"", "", 0, kNsysStats}},
        {"nvidia/nsys_stats_csv/llmperfopt_clip_nsys_cmd.txt", {"", "", 0, kNotATrace}},
        {"nvidia/nsys_stats_csv/llmperfopt_decode_nsys_cmd.txt", {"", "", 0, kNotATrace}},
        {"nvidia/nsys_stats_csv/llmperfopt_projector_nsys_cmd.txt", {"", "", 0, kNotATrace}},
    };
    const fs::path tables = fs::path(TM_SHARED_DATA) / "kineto/tracelens_pairs/reference_qwen";
    for (const auto& entry : fs::directory_iterator(tables)) {
      table[fs::relative(entry.path(), TM_SHARED_DATA).string()] = ForTraceLensTable(entry.path());
    }
    return table;
  }();
  return kTable;
}

class EverySampleInfo : public ::testing::TestWithParam<std::string> {};

TEST_P(EverySampleInfo, FormatBackendAndDevices) {
  const Expected& e = Table().at(GetParam());
  const std::string path = std::string(TM_SHARED_DATA) + "/" + GetParam();
  const RunResult r = RunTensormorph({"info", "--format", "json", "--quiet", path});
  ASSERT_TRUE(r.Clean()) << r.Describe();
  if (e.format.empty()) {
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_NE(r.err.find(e.error), std::string::npos) << r.Describe();
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json input = json::parse(r.out)["inputs"][0];
  EXPECT_EQ(input["format"], e.format);
  ASSERT_EQ(input["devices"].size(), e.devices) << input["devices"];
  for (const json& device : input["devices"]) EXPECT_EQ(device["backend"], e.backend) << device;
}

std::vector<std::string> Files() {
  std::vector<std::string> out;
  for (const auto& [file, expected] : Table()) out.push_back(file);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Data, EverySampleInfo, ::testing::ValuesIn(Files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// Every file of the data folder has an expectation: here, or in the oracle test of its format.
bool HasOracleTestOfItsOwn(const std::string& relative) {
  auto ends_with = [&](std::string_view suffix) { return relative.ends_with(suffix); };
  if (relative.starts_with("kineto/") && ends_with(".json.gz")) return true;  // kineto_oracle
  if (relative.starts_with("nvidia/nsys_sqlite/") && ends_with(".sqlite")) return true;
  return relative.starts_with("licenses/") || relative == "PROVENANCE.md";
}

TEST(EverySampleInfoTable, CoversEveryFile) {
  size_t files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(TM_SHARED_DATA)) {
    if (!entry.is_regular_file()) continue;
    ++files;
    const std::string relative = fs::relative(entry.path(), TM_SHARED_DATA).string();
    EXPECT_TRUE(Table().count(relative) || HasOracleTestOfItsOwn(relative))
        << relative << " has no expectation";
  }
  EXPECT_GE(files, 129u) << "the data folder shrank: " << TM_SHARED_DATA;
}

}  // namespace TM_UNITY_ID
}  // namespace
