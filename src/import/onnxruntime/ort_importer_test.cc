#include "import/onnxruntime/ort_importer.h"

#include <gtest/gtest.h>

#include "import/chrome/chrome_importer.h"

namespace tensormorph::onnxruntime {
namespace {

constexpr std::string_view kOrtHead =
    "[\n"
    "{\"cat\" : \"Session\",\"pid\" :1,\"tid\" :1,\"dur\" :767,\"ts\" :7,\"ph\" : \"X\","
    "\"name\" :\"model_loading_uri\",\"args\" : {}},\n"
    "{\"cat\" : \"Node\",\"pid\" :1,\"tid\" :1,\"dur\" :5,\"ts\" :9,\"ph\" : \"X\","
    "\"name\" :\"conv1_kernel_time\",\"args\" : {\"op_name\" : \"Conv\", \"provider\" : "
    "\"CPUExecutionProvider\"}},\n";

TEST(OrtSniff, RecognisesOrtAboveChrome) {
  const OrtImporter ort;
  const chrome::ChromeImporter chrome;
  EXPECT_EQ(ort.Sniff(kOrtHead), 95);
  EXPECT_GT(ort.Sniff(kOrtHead), chrome.Sniff(kOrtHead));
  EXPECT_EQ(ort.Sniff(std::string("\xEF\xBB\xBF  ") + std::string(kOrtHead)), 95);
}

TEST(OrtSniff, LeavesOtherJsonAlone) {
  const OrtImporter ort;
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

}  // namespace
}  // namespace tensormorph::onnxruntime
