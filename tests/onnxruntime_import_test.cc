// End-to-end: the binary on the ONNX Runtime profile in ../shared/data/other/onnxruntime (ORT
// 1.30.0, CPU provider). Expected numbers come from an nlohmann walk of the file written here
// (ts/dur are integer microseconds), sharing no code with src/.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kSample =
    TM_SHARED_DATA "/other/onnxruntime/onnxruntime_profile_cpu_ort1.30.0_generated.json";
const std::string kKineto = TM_SHARED_DATA "/kineto/hta/trace_diff/control.json.gz";

struct Totals {
  int64_t count = 0;
  int64_t total_ns = 0;
};

struct ExpectedNodes {
  std::map<std::string, Totals> by_op;    // op_name
  std::map<std::string, Totals> by_node;  // event name without "_kernel_time"
  int64_t count = 0, total_ns = 0;
};

// Node events named <node>_kernel_time (dur µs -> ns), leaving out those that start inside the
// first `skip` model_run events in ts order.
ExpectedNodes CountNodes(const std::string& path, size_t skip) {
  const json events = json::parse(ReadFile(path));
  std::vector<std::pair<int64_t, int64_t>> runs;
  for (const json& e : events) {
    if (e.at("cat") == "Session" && e.at("name") == "model_run") {
      runs.emplace_back(e.at("ts").get<int64_t>(),
                        e.at("ts").get<int64_t>() + e.at("dur").get<int64_t>());
    }
  }
  std::sort(runs.begin(), runs.end());
  runs.resize(std::min(skip, runs.size()));
  ExpectedNodes out;
  for (const json& e : events) {
    const std::string name = e.at("name");
    if (e.at("cat") != "Node" || !name.ends_with("_kernel_time")) continue;
    const int64_t ts = e.at("ts");
    bool warm_up = false;
    for (auto [start, end] : runs) warm_up = warm_up || (ts >= start && ts <= end);
    if (warm_up) continue;
    const int64_t ns = e.at("dur").get<int64_t>() * 1000;
    for (Totals* t : {&out.by_op[e.at("args").at("op_name").get<std::string>()],
                      &out.by_node[name.substr(0, name.size() - 12)]}) {
      ++t->count;
      t->total_ns += ns;
    }
    ++out.count;
    out.total_ns += ns;
  }
  return out;
}

json Json(const RunResult& r) {
  return json::parse(r.out, nullptr, false);
}

// Kernels are node times named by node; by default the first of the 3 runs is left out.
TEST(OnnxRuntimeImportE2E, KernelsAreNodeTimesPerNode) {
  for (auto [skip_option, skip] : std::vector<std::pair<std::string, size_t>>{
           {"", 1}, {"0", 0}, {"2", 2}, {"3", 3}, {"9", 3}}) {
    SCOPED_TRACE(skip_option);
    const ExpectedNodes expected = CountNodes(kSample, skip);
    std::vector<std::string> args = {"kernels", "--format", "json", "--quiet", kSample};
    if (!skip_option.empty()) args.insert(args.end(), {"--skip-runs", skip_option});
    RunResult r = RunTensormorph(args);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    const json doc = Json(r);
    ASSERT_FALSE(doc.is_discarded()) << r.Describe();
    EXPECT_EQ(doc["inputs"][0]["format"], "onnxruntime");
    EXPECT_NE(doc["inputs"][0]["format_version"].get<std::string>().find("node times"),
              std::string::npos);
    EXPECT_EQ(expected.count, 18 - 6 * static_cast<int64_t>(skip));  // 6 nodes per run
    EXPECT_EQ(doc["kernel_count"], expected.count);
    EXPECT_EQ(doc["total_ns"], expected.total_ns);
    ASSERT_EQ(doc["rows"].size(), expected.by_node.size()) << r.out;
    for (const json& row : doc["rows"]) {
      EXPECT_EQ(row["backend"], "cpu");
      auto it = expected.by_node.find(row["name"].get<std::string>());
      ASSERT_NE(it, expected.by_node.end()) << row["name"];
      EXPECT_EQ(row["count"], it->second.count) << row["name"];
      EXPECT_EQ(row["total_ns"], it->second.total_ns) << row["name"];
    }
    // The left-out runs are summarised on stderr, by default with how to keep them.
    if (skip == 0) {
      EXPECT_EQ(r.err.find("warm-up"), std::string::npos) << r.err;
    } else {
      EXPECT_NE(
          r.err.find(fmt::format("{} of 3 model runs left out as warm-up: model_run#0", skip)),
          std::string::npos)
          << r.err;
      EXPECT_EQ(r.err.find("--skip-runs 0 keeps them") != std::string::npos, skip_option.empty())
          << r.err;
    }
  }
}

TEST(OnnxRuntimeImportE2E, WarmUpRunSummaryInMetadata) {
  const ExpectedNodes all = CountNodes(kSample, 0), later = CountNodes(kSample, 1);
  RunResult r = RunTensormorph({"info", "--format", "json", "--quiet", kSample});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  const json warm_up = json::parse(doc["inputs"][0]["metadata"]["warm_up_runs"].get<std::string>());
  ASSERT_EQ(warm_up.size(), 1u) << warm_up;
  EXPECT_EQ(warm_up[0]["run"], "model_run#0");
  EXPECT_EQ(warm_up[0]["nodes"], 6);
  EXPECT_EQ(warm_up[0]["node_ns"], all.total_ns - later.total_ns);
}

TEST(OnnxRuntimeImportE2E, OpsCallsPerOpName) {
  const ExpectedNodes expected = CountNodes(kSample, 1);
  RunResult r = RunTensormorph({"ops", "--format", "json", "--quiet", kSample});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = Json(r);
  ASSERT_FALSE(doc.is_discarded()) << r.Describe();
  std::map<std::string, int64_t> calls;
  for (const json& row : doc["rows"]) {
    // Every node-time kernel is linked to its node's op: no "no_launch" / "no_op" rows.
    EXPECT_EQ(row["origin"], "op") << row;
    calls[row["name"].get<std::string>()] += row["calls"].get<int64_t>();
    auto it = expected.by_op.find(row["name"].get<std::string>());
    ASSERT_NE(it, expected.by_op.end()) << row["name"];
    EXPECT_EQ(row["host_ns"], it->second.total_ns) << row["name"];
    EXPECT_EQ(row["device_ns"], it->second.total_ns) << row["name"];
  }
  ASSERT_EQ(calls.size(), expected.by_op.size());
  for (const auto& [name, t] : expected.by_op) EXPECT_EQ(calls[name], t.count) << name;
  EXPECT_EQ(doc["attributed_kernels"], 12);
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

}  // namespace TM_UNITY_ID
}  // namespace
