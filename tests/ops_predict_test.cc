// `ops --predict KEY` (analysis/predict/op_predictions.h) on the H100 / MI300X Qwen inference of
// ../shared/data/kineto/tracelens_pairs. Checked against sources that share no code with
// op_predictions.cc: the raw trace's kernel durations (nlohmann-json, exact decimal text), ops'
// own inclusive device time, and the rows of `tensormorph predict --format json`, summed here.
// (The browser test checks `report --predict` against this command's JSON.)

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "support/csv.h"
#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kPairs = std::string(TM_SHARED_DATA) + "/kineto/tracelens_pairs/";
const std::string kH100 = kPairs + "h100_qwen1.5-0.5b_inference.json.gz";
const std::string kMi300 = kPairs + "mi300_qwen1.5-0.5b_inference.json.gz";

json RunJson(std::vector<std::string> args) {
  args.insert(args.begin() + 1, {"--quiet", "--format", "json"});
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  json doc = json::parse(r.out, nullptr, false);
  EXPECT_FALSE(doc.is_discarded()) << r.Describe();
  return doc;
}

// The summed "dur" of the raw trace's kernel events, exact in ns.
int64_t RawKernelNs(const std::string& path) {
  std::string error;
  const json trace = tensormorph::testing::ReadTraceExact(path, &error);
  EXPECT_TRUE(error.empty()) << error;
  int64_t sum = 0;
  for (const json& e : trace["traceEvents"]) {
    if (e.value("cat", "") == "kernel" && e.value("ph", "") == "X") {
      sum += tensormorph::testing::FieldNanos(e["dur"]).value_or(0);
    }
  }
  return sum;
}

TEST(OpsPredict, OutermostCallsAndKernelsUnderNoOpAddUpToTheKernelTime) {
  const json ops = RunJson({"ops", kH100, "--predict", "mi300x"});
  const json predict = RunJson({"predict", kH100, "--device", "mi300x"});
  ASSERT_EQ(ops["predict"]["targets"].size(), 1u);
  EXPECT_EQ(ops["predict"]["targets"][0]["key"], "mi300x");
  EXPECT_EQ(ops["predict"]["sources"][0]["database_key"], "h100-sxm5-80gb");

  // predict's rows by op name, summed here.
  struct Sum {
    uint64_t calls = 0;
    int64_t measured = 0, predicted = 0;
    bool any = false;
  };
  std::map<std::string, Sum> by_name;
  int64_t no_op_ns = 0;
  for (const json& r : predict["rows"]) {
    if (r["origin"] == "no_op") {
      no_op_ns += r["measured_ns"].get<int64_t>();
      continue;
    }
    Sum& s = by_name[r["name"]];
    s.calls += r["calls"].get<uint64_t>();
    s.measured += r["measured_ns"].get<int64_t>();
    if (!r["predictions"][0]["predicted_ns"].is_null()) {
      s.predicted += r["predictions"][0]["predicted_ns"].get<int64_t>();
      s.any = true;
    }
  }

  int64_t outermost_ns = 0;
  size_t predicted_rows = 0, always_outermost = 0, within_rows = 0;
  std::set<std::string> predicted_names;
  for (const json& row : ops["rows"]) {
    const std::string name = row["name"];
    if (row["predictions"].empty()) {
      if (row["origin"] == "op") {
        EXPECT_EQ(by_name.count(name), 0u) << name;  // never outermost
      }
      continue;
    }
    ASSERT_EQ(row["origin"], "op") << name;
    const json& p = row["predictions"][0];
    EXPECT_TRUE(row["predicted_within"].is_null()) << name;
    ASSERT_TRUE(by_name.count(name)) << name;
    const Sum& s = by_name[name];
    EXPECT_EQ(p["calls"].get<uint64_t>(), s.calls) << name;
    EXPECT_EQ(p["measured_ns"].get<int64_t>(), s.measured) << name;
    if (s.any) {
      EXPECT_EQ(p["predicted_ns"].get<int64_t>(), s.predicted) << name;
      ++predicted_rows;
    } else {
      EXPECT_TRUE(p["predicted_ns"].is_null()) << name;
    }
    // An op whose every call is outermost: its outermost calls' time is ops' inclusive time.
    if (p["calls"] == row["calls"]) {
      EXPECT_EQ(p["measured_ns"], row["device_inclusive_ns"]) << name;
      ++always_outermost;
    }
    EXPECT_LE(p["calls"].get<uint64_t>(), row["calls"].get<uint64_t>()) << name;
    outermost_ns += p["measured_ns"].get<int64_t>();
    predicted_names.insert(name);
  }
  // Nested ops name the outermost op that holds their prediction.
  for (const json& row : ops["rows"]) {
    if (row["predicted_within"].is_null()) continue;
    ++within_rows;
    EXPECT_TRUE(predicted_names.count(row["predicted_within"])) << row["name"];
  }
  EXPECT_GE(predicted_rows, 15u);
  EXPECT_GE(always_outermost, 15u);
  EXPECT_GE(within_rows, 3u);  // aten::mm and aten::addmm in aten::linear, aten::copy_ in aten::to
  EXPECT_EQ(outermost_ns + no_op_ns, RawKernelNs(kH100));
}

TEST(OpsPredict, ByInputTheTargetsOwnDeviceGetsItsMeasuredTime) {
  const json ops = RunJson({"ops", kH100, kMi300, "--by-input", "--predict", "mi300x"});
  size_t same_device = 0, predicted = 0;
  for (const json& row : ops["rows"]) {
    if (row["predictions"].empty()) continue;
    const json& p = row["predictions"][0];
    if (row["input"] == 1) {
      EXPECT_EQ(p["model"], "same_device") << row["name"];
      EXPECT_EQ(p["predicted_ns"], p["measured_ns"]) << row["name"];
      ++same_device;
    } else if (!p["predicted_ns"].is_null()) {
      EXPECT_NE(p["model"], "same_device") << row["name"];
      ++predicted;
    }
  }
  EXPECT_GE(same_device, 15u);
  EXPECT_GE(predicted, 15u);
  EXPECT_EQ(ops["predict"]["sources"][1]["database_key"], "mi300x");
}

TEST(OpsPredict, CsvHasTheSameFiguresPerTarget) {
  const json ops = RunJson({"ops", kH100, "--predict", "mi300x,h200-sxm-141gb"});
  RunResult csv = RunTensormorph(
      {"ops", "--quiet", "--format", "csv", kH100, "--predict", "mi300x,h200-sxm-141gb"});
  ASSERT_EQ(csv.exit_code, 0) << csv.Describe();
  const auto table = tensormorph::testing::ParseCsv(csv.out);
  ASSERT_EQ(table.size(), ops["rows"].size() + 1);
  const std::vector<std::string>& header = table[0];
  auto column = [&](const std::string& name) {
    for (size_t i = 0; i < header.size(); ++i) {
      if (header[i] == name) return i;
    }
    ADD_FAILURE() << "no column " << name;
    return size_t{0};
  };
  const size_t predicted = column("mi300x:predicted_ns");
  const size_t model = column("h200-sxm-141gb:model");
  for (size_t i = 0; i < ops["rows"].size(); ++i) {
    const json& row = ops["rows"][i];
    const std::vector<std::string>& cells = table[i + 1];
    if (row["predictions"].empty()) {
      EXPECT_EQ(cells[predicted], "") << row["name"];
      continue;
    }
    const json& p = row["predictions"][0];
    EXPECT_EQ(cells[predicted],
              p["predicted_ns"].is_null() ? "" : std::to_string(p["predicted_ns"].get<int64_t>()));
    EXPECT_EQ(cells[model], row["predictions"][1]["model"].get<std::string>()) << row["name"];
  }
}

TEST(OpsPredict, UsageErrorsSayWhatToDo) {
  for (const char* by : {"--by-instance", "--by-stack"}) {
    RunResult r = RunTensormorph({"ops", kH100, by, "--predict", "mi300x"});
    EXPECT_EQ(r.exit_code, 2) << r.Describe();
    EXPECT_NE(r.err.find("rows by instance or by module path are not predicted"), std::string::npos)
        << r.err;
  }
  for (const char* command : {"ops", "report"}) {
    std::vector<std::string> args = {command, kH100, "--predict", "mi301x"};
    if (std::string(command) == "report") args.insert(args.end(), {"-o", "/dev/null"});
    RunResult unknown = RunTensormorph(args);
    EXPECT_EQ(unknown.exit_code, 2) << unknown.Describe();
    EXPECT_NE(unknown.err.find("--predict: no device \"mi301x\""), std::string::npos)
        << unknown.err;
    args = {command, kH100, "--calibration", "c.json"};
    if (std::string(command) == "report") args.insert(args.end(), {"-o", "/dev/null"});
    RunResult alone = RunTensormorph(args);
    EXPECT_EQ(alone.exit_code, 2) << alone.Describe();
    EXPECT_NE(alone.err.find(" for --predict KEY"), std::string::npos) << alone.err;
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
