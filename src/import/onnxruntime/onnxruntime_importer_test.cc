#include "import/onnxruntime/onnxruntime_importer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "import/chrome/chrome_importer.h"
#include "import/onnxruntime/warm_up.h"

namespace tensormorph::onnxruntime {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

constexpr std::string_view kOrtHead =
    "[\n"
    "{\"cat\" : \"Session\",\"pid\" :1,\"tid\" :1,\"dur\" :767,\"ts\" :7,\"ph\" : \"X\","
    "\"name\" :\"model_loading_uri\",\"args\" : {}},\n"
    "{\"cat\" : \"Node\",\"pid\" :1,\"tid\" :1,\"dur\" :5,\"ts\" :9,\"ph\" : \"X\","
    "\"name\" :\"conv1_kernel_time\",\"args\" : {\"op_name\" : \"Conv\", \"provider\" : "
    "\"CPUExecutionProvider\"}},\n";

TEST(OrtSniff, RecognisesOrtAboveChrome) {
  const OnnxRuntimeImporter ort;
  const chrome::ChromeImporter chrome;
  EXPECT_EQ(ort.Sniff(kOrtHead), 95);
  EXPECT_GT(ort.Sniff(kOrtHead), chrome.Sniff(kOrtHead));
  EXPECT_EQ(ort.Sniff(std::string("\xEF\xBB\xBF  ") + std::string(kOrtHead)), 95);
}

TEST(OrtSniff, LeavesOtherJsonAlone) {
  const OnnxRuntimeImporter ort;
  // Kineto object form, Kineto array form, a generic Chrome trace, non-JSON.
  EXPECT_EQ(ort.Sniff("{\"schemaVersion\": 1, \"traceEvents\": [{\"ph\": \"X\", \"cat\": "
                      "\"cpu_op\", \"name\": \"aten::mm\", \"args\": {\"op_name\": 1}}]}"),
            0);
  EXPECT_EQ(ort.Sniff("[{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\"}]"), 0);
  EXPECT_EQ(ort.Sniff("[{\"ph\": \"X\", \"cat\": \"Node\", \"name\": \"layout\"}]"), 0);
  EXPECT_EQ(ort.Sniff("Kind,Agent_Id\n"), 0);
  EXPECT_EQ(ort.Sniff(""), 0);
}

TEST(OrtProviders, BackendOfEachProvider) {
  EXPECT_EQ(ProviderBackend("CPUExecutionProvider"), Backend::kCpu);
  EXPECT_EQ(ProviderBackend("CUDAExecutionProvider"), Backend::kCuda);
  EXPECT_EQ(ProviderBackend("TensorrtExecutionProvider"), Backend::kCuda);
  EXPECT_EQ(ProviderBackend("ROCMExecutionProvider"), Backend::kRocm);
  EXPECT_EQ(ProviderBackend("MIGraphXExecutionProvider"), Backend::kRocm);
  EXPECT_EQ(ProviderBackend("WebGpuExecutionProvider"), Backend::kWebGpu);
  EXPECT_EQ(ProviderBackend("JsExecutionProvider"), Backend::kWebGpu);
  EXPECT_EQ(ProviderBackend("CoreMLExecutionProvider"), Backend::kMetal);
  EXPECT_EQ(ProviderBackend("DmlExecutionProvider"), Backend::kOther);
  EXPECT_EQ(ProviderBackend("QNNExecutionProvider"), Backend::kOther);
  EXPECT_EQ(ProviderBackend(""), Backend::kOther);
}

TEST(OrtWarmUp, RunsToSkip) {
  EXPECT_EQ(RunsToSkip(0, -1), 0u);
  EXPECT_EQ(RunsToSkip(1, -1), 0u);  // a single run is all there is: kept
  EXPECT_EQ(RunsToSkip(2, -1), 1u);
  EXPECT_EQ(RunsToSkip(5, -1), 1u);
  EXPECT_EQ(RunsToSkip(5, 0), 0u);
  EXPECT_EQ(RunsToSkip(5, 3), 3u);
  EXPECT_EQ(RunsToSkip(2, 7), 2u);
}

TEST(OrtWarmUp, SkippedRunAtBoundaries) {
  const std::vector<RunWindow> runs = {{100, 200}, {300, 400}};
  EXPECT_EQ(SkippedRunAt(runs, 99), -1);
  EXPECT_EQ(SkippedRunAt(runs, 100), 0);
  EXPECT_EQ(SkippedRunAt(runs, 200), 0);
  EXPECT_EQ(SkippedRunAt(runs, 201), -1);
  EXPECT_EQ(SkippedRunAt(runs, 350), 1);
  EXPECT_EQ(SkippedRunAt(runs, 401), -1);
  EXPECT_EQ(SkippedRunAt({}, 5), -1);
}

// The native WebGPU EP appends one Api event per dispatch, named
// "<node name>&<op type>&<program name>", with GPU times moved onto the host clock.
TEST(OrtWebGpu, DispatchesAreKernelsOfTheirNodes) {
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "tm_ort_webgpu_dispatches.json";
  std::ofstream(file) << R"([
{"cat" : "Session","pid" :1,"tid" :1,"dur" :100,"ts" :0,"ph" : "X","name" :"model_run","args" : {}},
{"cat" : "Node","pid" :1,"tid" :1,"dur" :20,"ts" :10,"ph" : "X","name" :"mm0_kernel_time","args" : {"op_name" : "MatMul","provider" : "WebGpuExecutionProvider"}},
{"cat" : "Node","pid" :1,"tid" :1,"dur" :5,"ts" :40,"ph" : "X","name" :"relu_kernel_time","args" : {"op_name" : "Relu","provider" : "CPUExecutionProvider"}},
{"cat" : "Api","pid" :-1,"tid" :-1,"dur" :7,"ts" :31,"ph" : "X","name" :"mm0&MatMul&MatMulProgram","args" : {"shapes" : "inputs[0] = {4,4} "}},
{"cat" : "Api","pid" :-1,"tid" :-1,"dur" :3,"ts" :38,"ph" : "X","name" :"mm0&MatMul&MatMulProgram","args" : {}}
])";
  ImportOptions options;
  const OnnxRuntimeImporter importer;
  StatusOr<Trace> trace = ImportWith(importer, file.string(), options);
  std::filesystem::remove(file);
  ASSERT_TRUE(trace.ok()) << trace.status().message();
  // Two dispatches on the WebGPU device, linked to mm0's op; relu has only its node time.
  ASSERT_EQ(trace->kernels.size(), 3u);
  int webgpu = 0;
  for (const Kernel& k : trace->kernels) {
    const Device& device = trace->devices[k.device];
    if (device.backend != Backend::kWebGpu) {
      EXPECT_EQ(trace->str(k.name), "relu");
      EXPECT_EQ(k.duration_ns, 5000);
      continue;
    }
    ++webgpu;
    EXPECT_EQ(trace->str(k.name), "MatMulProgram");
    EXPECT_EQ(k.link.external_id, 1);  // the first node
  }
  EXPECT_EQ(webgpu, 2);
  EXPECT_EQ(trace->counts.kernels, 3u);
  EXPECT_TRUE(trace->warnings.empty()) << trace->warnings[0];
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::onnxruntime
