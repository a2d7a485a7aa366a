// End-to-end: the binary on the hand-written WebGPU profile fixtures in tests/data/webgpu (written
// from the formats in shared/reference/other-backends.md §4.2/§4.3; see the README there).
// Expected numbers are counted by hand from the fixtures, as the comments show.

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kData = TM_SOURCE_DIR "/tests/data/webgpu/";

json Json(const RunResult& r) {
  return json::parse(r.out, nullptr, false);
}

using Totals = std::map<std::string, std::pair<int64_t, int64_t>>;  // name -> (count, total ns)

Totals KernelRows(const json& doc) {
  Totals rows;
  for (const json& row : doc["rows"]) {
    EXPECT_EQ(row["backend"], "webgpu");
    rows[row["name"].get<std::string>()] = {row["count"].get<int64_t>(),
                                            row["total_ns"].get<int64_t>()};
  }
  return rows;
}

json RunJson(const std::vector<std::string>& args) {
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  json doc = Json(r);
  EXPECT_FALSE(doc.is_discarded()) << r.Describe();
  return doc;
}

// ort_web_console.log: 9 lines. Dispatches (kernel = programName, else kernelType, else name):
//   Conv2DMatMul 412,345 + 300,000; Relu 20,480; MatMul 55,555 ("[MatMul] /fc/MatMul" form);
//   /softmax/Softmax 1,234 (earliest form). Total 789,614 ns over 5 kernels.
// Other lines: the header, "Session created ...", "some other console line" = 3; the
// "execution time: abc ns" line is malformed: 1 skipped. 5 nonzero durations: not quantized.
TEST(WebGpuImportE2E, OrtConsoleLogKernelsOpsAndSyntheticTimeline) {
  const std::string log = kData + "ort_web_console.log";
  json doc = RunJson({"kernels", "--format", "json", "--quiet", log});
  EXPECT_EQ(doc["inputs"][0]["format"], "ort-web-log");
  EXPECT_EQ(doc["inputs"][0]["backends"], json::array({"cpu", "webgpu"}));
  EXPECT_EQ(doc["kernel_count"], 5);
  EXPECT_EQ(doc["total_ns"], 789614);
  const Totals expected = {{"Conv2DMatMul", {2, 712345}},
                           {"Relu", {1, 20480}},
                           {"MatMul", {1, 55555}},
                           {"/softmax/Softmax", {1, 1234}}};
  EXPECT_EQ(KernelRows(doc), expected);

  doc = RunJson({"info", "--format", "json", "--quiet", log});
  const json& input = doc["inputs"][0];
  EXPECT_EQ(input["devices"][0]["name"], "WebGPU");
  EXPECT_EQ(input["devices"][0]["backend"], "webgpu");
  EXPECT_EQ(input["counts"]["other"], 3);
  EXPECT_EQ(input["counts"]["skipped"], 1);
  EXPECT_EQ(input["counts"]["ops"], 5);
  EXPECT_EQ(input["timestamp_resolution_ns"], 0);
  EXPECT_EQ(input["span"]["end_ns"], 789614);  // laid end to end from 0
  EXPECT_EQ(input["metadata"]["timeline"], "\"synthetic\"");
  const std::string warnings = input["warnings"].dump();
  EXPECT_NE(warnings.find("laid end to end"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("line 9 column 1"), std::string::npos) << warnings;

  // Ops by ONNX op type, each with its dispatches: Conv 2 calls 712,345 ns of device time.
  doc = RunJson({"ops", "--format", "json", "--quiet", log});
  EXPECT_EQ(doc["attributed_kernels"], 5);
  bool conv = false;
  for (const json& row : doc["rows"]) {
    if (row["name"] != "Conv") continue;
    conv = true;
    EXPECT_EQ(row["calls"], 2);
    EXPECT_EQ(row["device_ns"], 712345);
  }
  EXPECT_TRUE(conv) << doc.dump();
}

// ort_web_ondata.ndjson: 10 objects + 1 line cut short (skipped). Durations in units of 65,536:
// Conv2DMatMul 3 + 4 = 7 (458,752 ns); Relu 1 + 0 = 1 (65,536, 2 calls); Pool2D 2 (131,072);
// Gemm 2 + 2 = 4 (262,144); Add 1 + 1 = 2 (131,072); Softmax 1 (65,536). Total 17 x 65,536 =
// 1,114,112 ns. 9 nonzero durations, all starts multiples: quantized to 65,536 ns.
TEST(WebGpuImportE2E, OrtOndataNdjsonIsDetectedAsDawnQuantized) {
  const std::string file = kData + "ort_web_ondata.ndjson";
  json doc = RunJson({"kernels", "--format", "json", "--quiet", file});
  EXPECT_EQ(doc["inputs"][0]["format"], "ort-web-profiling");
  EXPECT_EQ(doc["kernel_count"], 10);
  EXPECT_EQ(doc["total_ns"], 1114112);
  const Totals expected = {{"Conv2DMatMul", {2, 458752}}, {"Relu", {2, 65536}},
                           {"Pool2D", {1, 131072}},       {"Gemm", {2, 262144}},
                           {"Add", {2, 131072}},          {"Softmax", {1, 65536}}};
  EXPECT_EQ(KernelRows(doc), expected);

  doc = RunJson({"info", "--format", "json", "--quiet", file});
  EXPECT_EQ(doc["inputs"][0]["timestamp_resolution_ns"], 65536);
  EXPECT_EQ(doc["inputs"][0]["counts"]["skipped"], 1);
  RunResult table = RunTensormorph({"info", "--quiet", file});
  EXPECT_NE(table.out.find("multiples of 65536 ns"), std::string::npos) << table.Describe();
}

// ort_web_ondata.json: 7 dispatches, durations MatMul 3 x 200,000, Add 3 x 100,000, Softmax
// 100,000: total 1,000,000 ns. All multiples of 100,000 but only 7 nonzero values (< 8): not
// called quantized.
TEST(WebGpuImportE2E, OrtOndataArrayWithTooFewSamplesIsNotQuantized) {
  const std::string file = kData + "ort_web_ondata.json";
  json doc = RunJson({"kernels", "--format", "json", "--quiet", file});
  EXPECT_EQ(doc["kernel_count"], 7);
  EXPECT_EQ(doc["total_ns"], 1000000);
  const Totals expected = {{"MatMul", {3, 600000}}, {"Add", {3, 300000}}, {"Softmax", {1, 100000}}};
  EXPECT_EQ(KernelRows(doc), expected);
  doc = RunJson({"info", "--format", "json", "--quiet", file});
  EXPECT_EQ(doc["inputs"][0]["timestamp_resolution_ns"], 0);
}

// tfjs_profile.json: kernelTimeMs 0.123456789 -> 123,457 ns (123,456.789 rounded), 0.0205 ->
// 20,500, 0.1 -> 100,000, {error} -> untimed, 2 -> 2,000,000. _FusedMatMul 2 calls 223,457;
// Relu 2 calls 2,020,500; Softmax untimed (an op and a counted kernel, no kernel time).
// Total 2,243,957 ns over 4 timed kernels; 5 kernels counted.
TEST(WebGpuImportE2E, TfjsProfileExactMillisecondsAndUntimedKernel) {
  const std::string file = kData + "tfjs_profile.json";
  json doc = RunJson({"kernels", "--format", "json", "--quiet", file});
  EXPECT_EQ(doc["inputs"][0]["format"], "tfjs-profile");
  EXPECT_EQ(doc["kernel_count"], 4);
  EXPECT_EQ(doc["total_ns"], 2243957);
  const Totals expected = {{"_FusedMatMul", {2, 223457}}, {"Relu", {2, 2020500}}};
  EXPECT_EQ(KernelRows(doc), expected);

  doc = RunJson({"info", "--format", "json", "--quiet", file});
  const json& input = doc["inputs"][0];
  EXPECT_EQ(input["counts"]["kernels"], 5);
  EXPECT_EQ(input["counts"]["ops"], 5);
  const std::string warnings = input["warnings"].dump();
  EXPECT_NE(warnings.find("1 of 5 kernels have no time"), std::string::npos) << warnings;
  EXPECT_NE(warnings.find("WebGPU timestamp query was disabled."), std::string::npos);
}

// tfjs_profile_malformed.json line 4: `  {"name": "Softmax", "kernelTimeMs": 0.25 "inputShapes"...`
// the comma after 0.25 is missing; the parser reports the end of the unexpected "inputShapes"
// token, which spans columns 44-56 (1-based, counted by hand).
TEST(WebGpuImportE2E, MalformedJsonGivesFileLineColumn) {
  RunResult r = RunTensormorph({"kernels", "--quiet", kData + "tfjs_profile_malformed.json"});
  ASSERT_TRUE(r.Clean()) << r.Describe();
  EXPECT_EQ(r.exit_code, 3) << r.Describe();
  EXPECT_NE(r.err.find("tfjs_profile_malformed.json:4:56: not valid JSON"), std::string::npos)
      << r.err;
}

}  // namespace TM_UNITY_ID
}  // namespace
