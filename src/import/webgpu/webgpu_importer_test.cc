#include "import/webgpu/webgpu_importer.h"

#include <gtest/gtest.h>

#include "import/webgpu/json_decimal.h"
#include "import/webgpu/ort_console_log.h"

namespace tensormorph::webgpu {
namespace {

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
  EXPECT_EQ(d.inputs, R"({"dims": [[1,3,8,8],[4,3,3,3]], "types": ["float32","float16"]})");
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
  EXPECT_EQ(WebGpuImporter().Sniff("[profiling] kernel \"1|Relu\" execution time: 1 ns"), 95);
  EXPECT_EQ(SniffWebGpu(R"({"traceEvents":[]})"), WebGpuInput::kNone);
  EXPECT_EQ(WebGpuImporter().Sniff("plain text"), 0);
}

}  // namespace
}  // namespace tensormorph::webgpu
