// End-to-end: the binary on the ONNX Runtime profile in ../shared/data/other/onnxruntime (ORT
// 1.30.0, CPU provider). Expected numbers come from an nlohmann walk of the file written here
// (ts/dur are integer microseconds), sharing no code with src/.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "support/run_tensormorph.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kSample =
    TM_SHARED_DATA "/other/onnxruntime/onnxruntime_profile_cpu_ort1.30.0_generated.json";
const std::string kKineto = TM_SHARED_DATA "/kineto/hta/trace_diff/control.json.gz";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Totals {
  int64_t count = 0;
  int64_t total_ns = 0;
};

// Node events named <node>_kernel_time, per op_name: count and summed dur (µs -> ns).
std::map<std::string, Totals> CountNodes(const std::string& path) {
  const json events = json::parse(ReadFile(path));
  std::map<std::string, Totals> totals;
  for (const json& e : events) {
    const std::string name = e.at("name");
    if (e.at("cat") != "Node" || !name.ends_with("_kernel_time")) continue;
    Totals& t = totals[e.at("args").at("op_name").get<std::string>()];
    ++t.count;
    t.total_ns += e.at("dur").get<int64_t>() * 1000;
  }
  return totals;
}

json Json(const RunResult& r) {
  return json::parse(r.out, nullptr, false);
}

TEST(OnnxRuntimeImportE2E, KernelsAreNodeTimesPerOp) {
  const std::map<std::string, Totals> expected = CountNodes(kSample);
  ASSERT_EQ(expected.size(), 6u);
  RunResult r = RunTensormorph({"kernels", "--format", "json", "--quiet", kSample});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  ASSERT_FALSE(doc.is_discarded()) << r.Describe();
  EXPECT_EQ(doc["inputs"][0]["format"], "onnxruntime");
  EXPECT_EQ(doc["inputs"][0]["backends"], json::array({"cpu"}));
  EXPECT_NE(doc["inputs"][0]["format_version"].get<std::string>().find("node times"),
            std::string::npos);
  int64_t count = 0, total = 0;
  for (const auto& [name, t] : expected) {
    count += t.count;
    total += t.total_ns;
  }
  EXPECT_EQ(count, 18);
  EXPECT_EQ(doc["kernel_count"], count);
  EXPECT_EQ(doc["total_ns"], total);
  ASSERT_EQ(doc["rows"].size(), expected.size()) << r.out;
  for (const json& row : doc["rows"]) {
    EXPECT_EQ(row["backend"], "cpu");
    auto it = expected.find(row["name"].get<std::string>());
    ASSERT_NE(it, expected.end()) << row["name"];
    EXPECT_EQ(row["count"], it->second.count) << row["name"];
    EXPECT_EQ(row["total_ns"], it->second.total_ns) << row["name"];
  }
}

TEST(OnnxRuntimeImportE2E, OpsCallsPerOpName) {
  const std::map<std::string, Totals> expected = CountNodes(kSample);
  RunResult r = RunTensormorph({"ops", "--format", "json", "--quiet", kSample});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  ASSERT_FALSE(doc.is_discarded()) << r.Describe();
  std::map<std::string, int64_t> calls;
  for (const json& row : doc["rows"]) {
    // Every node-time kernel is linked to its node's op: no "no_launch" / "no_op" rows.
    EXPECT_EQ(row["origin"], "op") << row;
    calls[row["name"].get<std::string>()] += row["calls"].get<int64_t>();
    auto it = expected.find(row["name"].get<std::string>());
    ASSERT_NE(it, expected.end()) << row["name"];
    EXPECT_EQ(row["host_ns"], it->second.total_ns) << row["name"];
    EXPECT_EQ(row["device_ns"], it->second.total_ns) << row["name"];
  }
  ASSERT_EQ(calls.size(), expected.size());
  for (const auto& [name, t] : expected) EXPECT_EQ(calls[name], t.count) << name;
  EXPECT_EQ(doc["attributed_kernels"], 18);
}

TEST(OnnxRuntimeImportE2E, CutOffFileRecoversOrFailsCleanly) {
  const fs::path dir = fs::temp_directory_path() / "tm_ort_e2e_cut";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string text = ReadFile(kSample);
  for (size_t cut : {text.size() / 2, text.size() / 3, text.size() - 2, size_t{1}, size_t{40}}) {
    SCOPED_TRACE(cut);
    const std::string file = (dir / "cut.json").string();
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text.substr(0, cut);
    RunResult r =
        RunTensormorph({"kernels", "--format", "json", "--input-format", "onnxruntime", file});
    ASSERT_TRUE(r.Clean()) << r.Describe();
    if (r.exit_code == 0) {
      const json doc = Json(r);
      ASSERT_FALSE(doc.is_discarded()) << r.Describe();
      EXPECT_NE(r.err.find(file + ":"), std::string::npos) << r.Describe();
      EXPECT_NE(r.err.find("cut off"), std::string::npos) << r.Describe();
    } else {
      EXPECT_EQ(r.exit_code, 3) << r.Describe();
      EXPECT_NE(r.err.find("error: " + file + ":"), std::string::npos) << r.Describe();
    }
  }
  // Cut in the middle: recovered, the events before the cut kept.
  const std::string file = (dir / "half.json").string();
  std::ofstream(file, std::ios::binary) << text.substr(0, text.size() / 2);
  RunResult r = RunTensormorph({"info", "--format", "json", "--quiet", file});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  EXPECT_EQ(doc["inputs"][0]["format"], "onnxruntime");
  EXPECT_GT(doc["inputs"][0]["counts"]["ops"].get<int64_t>(), 0);
  EXPECT_LT(doc["inputs"][0]["counts"]["ops"].get<int64_t>(), 18);
  fs::remove_all(dir);
}

TEST(OnnxRuntimeImportE2E, KinetoStillDetectedAsKineto) {
  RunResult r = RunTensormorph({"info", "--format", "json", "--quiet", kKineto});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  EXPECT_EQ(Json(r)["inputs"][0]["format"], "kineto");
  RunResult ort = RunTensormorph({"info", "--format", "json", "--quiet", kSample});
  ASSERT_EQ(ort.exit_code, 0) << ort.Describe();
  const json doc = Json(ort);
  EXPECT_EQ(doc["inputs"][0]["format"], "onnxruntime");
  EXPECT_EQ(doc["inputs"][0]["counts"]["ops"], 18);
  EXPECT_EQ(doc["inputs"][0]["counts"]["annotations"], 8);
}

}  // namespace
