#include "import/webgpu/webgpu_importer.h"

#include <gtest/gtest.h>

#include "import/webgpu/json_decimal.h"
#include "import/webgpu/ort_console_log.h"
#include "import/webgpu/tfjs_debug_log.h"

namespace tensormorph::webgpu {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

TEST(WebGpuOrtConsole, CurrentLineGivesProgramOpAndInputShapes) {
  Dispatch d;
  std::string why;
  ASSERT_TRUE(ParseOrtProfilingLine(
      "x.mjs:1 [profiling] kernel \"7|Conv|/c/Conv|Conv2DMatMul\" input[0]: [1,3,8,8] | float32, "
      "input[1]: [4,3,3,3] | float16, output[0]: [1,4,6,6] | float32, execution time: 1500 ns",
      &d, &why))
      << why;
  EXPECT_EQ(d.kernel, "Conv2DMatMul");
  EXPECT_EQ(d.op, "Conv");
  EXPECT_EQ(d.duration_ns, 1500);
  EXPECT_FALSE(d.start_ns.has_value());
  ASSERT_TRUE(d.inputs);
  EXPECT_EQ(OpInputsText(*d.inputs),
            R"({"dims": [[1,3,8,8],[4,3,3,3]], "types": ["float32","float16"]})");
}

TEST(WebGpuOrtConsole, OlderLinesAndMalformedOnes) {
  Dispatch d;
  std::string why;
  ASSERT_TRUE(ParseOrtProfilingLine(
      "[profiling] kernel \"3|[MatMul] /fc/MatMul\" input[0]: [1,2] | float32, execution time: 9 "
      "ns",
      &d, &why));
  EXPECT_EQ(d.kernel, "MatMul");
  EXPECT_EQ(d.op, "MatMul");
  ASSERT_TRUE(ParseOrtProfilingLine("[profiling] kernel \"4|/sm\" execution time: 0 ns", &d, &why));
  EXPECT_EQ(d.kernel, "/sm");
  EXPECT_EQ(d.duration_ns, 0);
  EXPECT_FALSE(ParseOrtProfilingLine("[profiling] kernel \"4|/sm execution time: 5 ns", &d, &why));
  EXPECT_FALSE(
      ParseOrtProfilingLine("[profiling] kernel \"4|/sm\" execution time: -5 ns", &d, &why));
  EXPECT_FALSE(
      ParseOrtProfilingLine("[profiling] kernel \"4|/sm\" execution time: 5 ms", &d, &why));
}

TEST(WebGpuJson, DecimalsConvertExactlyNotThroughDouble) {
  JsonError error;
  // 0.0630635 ms is 63,063.5 ns: an exact half, rounded away from zero to 63,064. Through a
  // double, 0.0630635 * 1e6 is 63063.49999999999 and would round to 63,063.
  std::optional<nlohmann::json> doc = ParseJsonKeepingDecimals(
      R"({"a": 0.0630635, "b": 2, "c": 1e-3, "d": {"error": "x"}})", &error);
  ASSERT_TRUE(doc.has_value()) << error.message;
  EXPECT_EQ(ScaledNumber((*doc)["a"], 6), 63064);
  EXPECT_EQ(ScaledNumber((*doc)["b"], 6), 2000000);
  EXPECT_EQ(ScaledNumber((*doc)["c"], 6), 1000);
  EXPECT_FALSE(ScaledNumber((*doc)["d"], 6).has_value());
  EXPECT_FALSE(ParseJsonKeepingDecimals("{\"a\": 1,\n \"b\" 2}", &error).has_value());
  EXPECT_EQ(error.byte_offset, 14u);  // the end of the token after "b"
}

TEST(WebGpuImporter, SniffsTheThreeInputs) {
  EXPECT_EQ(SniffWebGpu("noise\n[profiling] kernel \"1|Relu\" execution time: 1 ns"),
            WebGpuInput::kOrtConsoleLog);
  EXPECT_EQ(SniffWebGpu(R"([{"kernelType":"Relu","programName":"Relu","startTime":0}])"),
            WebGpuInput::kOrtProfilingData);
  EXPECT_EQ(SniffWebGpu(R"({"kernelType":"Relu","programName":"Relu","startTime":0})"),
            WebGpuInput::kOrtProfilingData);
  EXPECT_EQ(SniffWebGpu(R"({"newBytes":0,"kernels":[],"kernelNames":[]})"),
            WebGpuInput::kTfjsProfile);
  // A saved console that starts with a profiling line looks like JSON to a JSON sniffer (which
  // answers 10 for "[" without trace keys); this importer must outbid it.
  EXPECT_EQ(SniffWebGpu("[profiling] kernel \"1|Relu\" execution time: 1 ns"),
            WebGpuInput::kOrtConsoleLog);
  EXPECT_EQ(WebGpuImporter().Sniff("[profiling] kernel \"1|Relu\" execution time: 1 ns"), 97);
  EXPECT_EQ(SniffWebGpu(R"({"traceEvents":[]})"), WebGpuInput::kNone);
  EXPECT_EQ(WebGpuImporter().Sniff("plain text"), 0);
}

TEST(WebGpuOrtConsole, StartTimeOfCurrentLines) {
  Dispatch d;
  std::string why;
  ASSERT_TRUE(ParseOrtProfilingLine(
      "[profiling] kernel \"9|Conv|c1|Transpose\" input[0]: [8,3] | float32, output[0]: [3,8] | "
      "float32, start time: 45683416 ns, execution time: 74781 ns",
      &d, &why))
      << why;
  EXPECT_EQ(d.start_ns, 45683416);
  EXPECT_EQ(d.duration_ns, 74781);
  ASSERT_TRUE(d.inputs);
  EXPECT_EQ(OpInputsText(*d.inputs), R"({"dims": [[8,3]], "types": ["float32"]})");
  EXPECT_FALSE(ParseOrtProfilingLine(
      "[profiling] kernel \"9|Conv\" start time: x ns, execution time: 5 ns", &d, &why));
  EXPECT_NE(why.find("start time 'x'"), std::string::npos) << why;
}

// Two lines with start times and one without: the timeline falls back to end to end.
TEST(WebGpuOrtConsole, MixedStartTimesGiveSyntheticTimeline) {
  DispatchList list = ReadOrtConsoleLog(
      "[profiling] kernel \"1|Relu\" start time: 100 ns, execution time: 5 ns\n"
      "[profiling] kernel \"2|Relu\" start time: 200 ns, execution time: 5 ns\n"
      "[profiling] kernel \"3|Relu\" execution time: 5 ns\n"
      "[\n{\"cat\" : \"Session\",\"ph\" : \"X\"},\n]\npage output\n");
  EXPECT_TRUE(list.synthetic_starts);
  EXPECT_EQ(list.dispatches.size(), 3u);
  EXPECT_EQ(list.other, 4u);
  EXPECT_EQ(list.metadata["session_profile_events"], "1");
  ASSERT_EQ(list.warnings.size(), 2u);
  EXPECT_NE(list.warnings[0].find("only 2 of 3"), std::string::npos) << list.warnings[0];
  EXPECT_NE(list.warnings[1].find("other output: 1 (the first, line 7: \"page output\")"),
            std::string::npos)
      << list.warnings[1];
}

TEST(WebGpuTfjsDebug, KernelLinesWithAndWithoutFormatDirectives) {
  const std::string raw =
      "%cConv2D                   \t%c45.203474ms\t%c4D 1,32,32,8     \t%c8192\t%cx: 4D 1,32,32,3 "
      "filter: 4D 3,3,3,8 \t%ce: 45.203474 font-weight:bold color:red";
  const std::string saved =
      "Softmax   \tWebGPU timer error\t2D 1,10 \t10\tlogits: 2D 1,10 s: 0D \t";
  EXPECT_TRUE(IsTfjsDebugLine(raw));
  EXPECT_TRUE(IsTfjsDebugLine(saved));
  EXPECT_FALSE(IsTfjsDebugLine("a\tb\tc\td\te\tf"));
  DispatchList list = ReadTfjsDebugLog(raw + "\nother\n" + saved + "\n");
  ASSERT_EQ(list.dispatches.size(), 2u);
  EXPECT_EQ(list.dispatches[0].kernel, "Conv2D");
  EXPECT_EQ(list.dispatches[0].duration_ns, 45203474);
  ASSERT_TRUE(list.dispatches[0].inputs);
  EXPECT_EQ(OpInputsText(*list.dispatches[0].inputs), R"({"dims": [[1,32,32,3],[3,3,3,8]]})");
  EXPECT_EQ(list.dispatches[1].kernel, "Softmax");
  EXPECT_FALSE(list.dispatches[1].duration_ns.has_value());
  ASSERT_TRUE(list.dispatches[1].inputs);
  EXPECT_EQ(OpInputsText(*list.dispatches[1].inputs), R"({"dims": [[1,10],[]]})");
  EXPECT_EQ(list.other, 1u);
}

TEST(WebGpuImporter, SniffsBrowserOutput) {
  // A console whose first line is page output in brackets is not JSON.
  EXPECT_EQ(SniffWebGpu("[harness] run 0\n[profiling] kernel \"1|Relu\" execution time: 1 ns\n"),
            WebGpuInput::kOrtConsoleLog);
  EXPECT_EQ(SniffWebGpu("[\n{\"cat\" : \"Node\"},\n]\n[profiling] kernel \"1|Relu\" execution "
                        "time: 1 ns\n"),
            WebGpuInput::kOrtConsoleLog);
  EXPECT_EQ(SniffWebGpu(R"([{"newBytes":0,"kernels":[{"kernelTimeMs":1}]}])"),
            WebGpuInput::kTfjsProfile);
  EXPECT_EQ(SniffWebGpu(R"([{"kernelMs":1,"wallMs":2}])"), WebGpuInput::kTfjsTime);
  EXPECT_EQ(SniffWebGpu(R"({"a":{"info":{"isFallbackAdapter":true}}})"), WebGpuInput::kAdapterInfo);
  EXPECT_EQ(SniffWebGpu(std::string("\x08\x08\x12\x15webgpu-profiling-test", 25)),
            WebGpuInput::kOnnxModel);
  EXPECT_EQ(SniffWebGpu("[true, 1]"), WebGpuInput::kNone);
  EXPECT_EQ(WebGpuImporter().Sniff(R"([{"kernelMs":1,"wallMs":2}])"), 95);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::webgpu
