// `tensormorph compare` of two ONNX Runtime profiles of one model: ONNX Runtime Web 1.30's JSEP and
// native WebGPU execution providers running the same tiny convnet in Chromium
// (../shared/data/other/webgpu_browser). They report some nodes' inputs differently (the native
// EP leaves the prepacked Conv weights out of input_type_shape), so only the node name says which
// calls are the same. Checked against the raw profiles, read here with nlohmann-json.

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kDir = std::string(TM_SHARED_DATA) + "/other/webgpu_browser/";
const std::string kJsep = kDir + "ort130_jsep_convnet_console.session-profile.json";
const std::string kNative = kDir + "ort130_native_convnet_sessprof.session-profile.json";

struct RawNode {
  std::string op;
  size_t events = 0, events_with_time = 0, inputs = 0;
  int64_t dur_ns = 0;
};

// Node events (<node>_kernel_time) by node name; ORT's ts/dur are integer µs.
std::map<std::string, RawNode> RawNodes(const std::string& path) {
  const json events = json::parse(tensormorph::testing::ReadFile(path));
  std::map<std::string, RawNode> nodes;
  const std::string suffix = "_kernel_time";
  for (const json& e : events) {
    const std::string name = e.value("name", "");
    if (e.value("cat", "") != "Node" || name.size() <= suffix.size() ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) {
      continue;
    }
    RawNode& node = nodes[name.substr(0, name.size() - suffix.size())];
    node.op = e["args"]["op_name"];
    node.inputs = e["args"]["input_type_shape"].size();
    ++node.events;
    const int64_t dur = e["dur"].get<int64_t>();
    node.events_with_time += dur > 0 ? 1 : 0;
    node.dur_ns += dur * 1000;
  }
  return nodes;
}

json CompareJson(const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"compare",     "--quiet", "--format", "json",
                                   "--skip-runs", "0",       "--by",     "stack"};
  args.insert(args.end(), extra.begin(), extra.end());
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out);
}

TEST(CompareOrtNodes, CallsOfOneNodeMatchWhateverInputsEachProviderReports) {
  const std::map<std::string, RawNode> jsep = RawNodes(kJsep), native = RawNodes(kNative);
  ASSERT_EQ(jsep.size(), 11u);
  // The reason node names are needed: conv1's inputs are listed differently.
  EXPECT_EQ(jsep.at("conv1_token_1").inputs, 3u);
  EXPECT_EQ(native.at("conv1_token_1").inputs, 2u);

  const json doc = CompareJson({kJsep, kNative});
  EXPECT_TRUE(doc["keys_are_nodes"]);
  EXPECT_FALSE(doc["keys_include_stack"]);
  std::map<std::string, uint64_t> jsep_calls;
  std::map<std::string, int64_t> jsep_ns;
  int64_t matched_ns = 0;
  for (const json& row : doc["rows"]) {
    if (row["origin"] != "op") continue;
    const std::string node = row["stack"];
    ASSERT_TRUE(jsep.count(node) && native.count(node)) << node;
    EXPECT_EQ(row["name"], jsep.at(node).op) << node;
    EXPECT_EQ(row["name"], native.at(node).op) << node;
    if (!row["sides"][0].is_null()) {
      jsep_calls[node] += row["sides"][0]["calls"].get<uint64_t>();
      jsep_ns[node] += row["sides"][0]["device_ns"].get<int64_t>();
      if (row["status"] == "matched") matched_ns += row["sides"][0]["device_ns"].get<int64_t>();
    }
    if (row["status"] == "matched") {
      EXPECT_EQ(row["sides"][0]["calls"], row["sides"][1]["calls"]) << node;
      EXPECT_LE(row["sides"][1]["calls"].get<size_t>(), native.at(node).events) << node;
    }
  }
  // On the JSEP side every node call with time is a kernel of its node time (no GPU timing).
  for (const auto& [node, raw] : jsep) {
    EXPECT_EQ(jsep_calls[node], raw.events_with_time) << node;
    EXPECT_EQ(jsep_ns[node], raw.dur_ns) << node;
  }
  const json* conv1 = nullptr;
  for (const json& row : doc["rows"]) {
    if (row["stack"] == "conv1_token_1") conv1 = &row;
  }
  ASSERT_NE(conv1, nullptr);
  EXPECT_EQ((*conv1)["status"], "matched");
  EXPECT_EQ((*conv1)["sides"][0]["calls"], 5);
  EXPECT_EQ((*conv1)["sides"][1]["calls"], 5);
  EXPECT_EQ((*conv1)["sides"][0]["device_ns"], jsep.at("conv1_token_1").dur_ns);
  // Nearly all of the JSEP side's time is in matched rows (56 % when keyed by input shapes).
  EXPECT_GT(matched_ns * 100, doc["sides"][0]["kernel_ns"].get<int64_t>() * 95);
  EXPECT_EQ(matched_ns, doc["sides"][0]["matched_kernel_ns"]);
}

TEST(CompareOrtNodes, AProfileWithoutNodesKeepsTheShapeKeys) {
  const json doc =
      CompareJson({kJsep, std::string(TM_SOURCE_DIR) + "/examples/nccl_2rank_rank0_a100.json.gz"});
  EXPECT_FALSE(doc["keys_are_nodes"]);
}

}  // namespace TM_UNITY_ID
}  // namespace
