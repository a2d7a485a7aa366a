#include <gtest/gtest.h>

#include <sstream>

#include "export/baseline/baseline_json.h"
#include "tensormorph/export/baseline/baseline_file.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

Baseline MakeBaseline() {
  Baseline b;
  b.created_by = "tensormorph 0.1.0";
  b.inputs = {{"a.json.gz", "kineto", 3}, {"b.json", "kineto", std::nullopt}};
  b.step_numbers = {7, 8, 9};
  ProfileRow k;
  k.name = "gemm \"quoted\" / slash";
  k.backend = Backend::kCuda;
  k.count = 4;
  k.total_ns = 160;
  k.step_totals_ns = {50, 60, 50};
  b.kernels = {k};
  ProfileRow op;
  op.kind = ProfileRowKind::kOp;
  op.name = "aten::mm";
  op.backend = Backend::kCpu;
  op.count = 2;
  op.total_ns = 900;
  op.device_ns = 0;
  op.step_totals_ns = {300, 0, 600};
  b.ops = {op};
  b.kernel_ns = 160;
  b.kernel_count = 4;
  b.op_host_ns = 900;
  b.op_calls = 2;
  b.step_kernel_ns = {50, 60, 50};
  return b;
}

std::string Text(const Baseline& b) {
  std::ostringstream s;
  WriteJson(s, BaselineToJson(b));
  return s.str();
}

TEST(BaselineJson, RoundTripKeepsEveryField) {
  const Baseline b = MakeBaseline();
  const std::string text = Text(b);
  StatusOr<Baseline> back = ParseBaseline(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(Text(back.value()), text);
  EXPECT_EQ(back->kernels[0].name, b.kernels[0].name);
  EXPECT_EQ(back->ops[0].kind, ProfileRowKind::kOp);
  EXPECT_EQ(back->inputs[0].rank, std::optional<int64_t>(3));
  EXPECT_FALSE(back->inputs[1].rank.has_value());
  EXPECT_TRUE(LooksLikeTensormorphDocument(text));
}

TEST(BaselineJson, WithoutStepsTheSamplesAreLeftOut) {
  Baseline b = MakeBaseline();
  b.step_numbers.clear();
  b.step_kernel_ns.clear();
  for (ProfileRow& r : b.kernels) r.step_totals_ns.clear();
  for (ProfileRow& r : b.ops) r.step_totals_ns.clear();
  const std::string text = Text(b);
  EXPECT_EQ(text.find("step_totals_ns"), std::string::npos);
  StatusOr<Baseline> back = ParseBaseline(text);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->steps(), 0u);
}

// The error names the offending value's line and column (1-based) in the document as written.
TEST(BaselineJson, WrongTypeIsReportedAtTheValue) {
  const std::string text =
      "{\"schema\": \"tensormorph.baseline/1\", \"created_by\": \"x\", \"inputs\": [],\n"
      "\"steps\": 0, \"kernels\": [{\"name\": \"k\", \"backend\": \"cuda\",\n"
      "  \"count\": \"many\", \"total_ns\": 5}], \"ops\": [], \"total\": {}}\n";
  StatusOr<Baseline> b = ParseBaseline(text);
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), StatusCode::kUnreadableInput);
  EXPECT_NE(b.status().message().find("/kernels/0/count"), std::string::npos)
      << b.status().message();
  EXPECT_NE(b.status().message().find("\"many\""), std::string::npos);
  EXPECT_EQ(b.status().position().line, 3u);
  EXPECT_EQ(b.status().position().column, 12u);
}

TEST(BaselineJson, MissingFieldIsReportedAtItsObject) {
  const std::string text =
      "{\"schema\": \"tensormorph.baseline/1\", \"created_by\": \"x\", \"inputs\": [],\n"
      "\"steps\": 0, \"kernels\": [], \"ops\": [\n"
      "  {\"name\": \"aten::mm\", \"backend\": \"cpu\", \"calls\": 1, \"host_ns\": 5}],"
      " \"total\": {}}";
  StatusOr<Baseline> b = ParseBaseline(text);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("/ops/0 has no \"device_ns\""), std::string::npos)
      << b.status().message();
  EXPECT_EQ(b.status().position().line, 3u);
  EXPECT_EQ(b.status().position().column, 3u);
}

TEST(BaselineJson, StepSamplesMustMatchTheStepCount) {
  std::string text = Text(MakeBaseline());
  const size_t at = text.find("50,");
  ASSERT_NE(at, std::string::npos);
  text.erase(at, 3);  // the first kernel's samples lose a value
  StatusOr<Baseline> b = ParseBaseline(text);
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("has 2 values, but the baseline has 3 steps"),
            std::string::npos)
      << b.status().message();
}

TEST(BaselineJson, TruncatedAndForeignDocuments) {
  const std::string text = Text(MakeBaseline());
  StatusOr<Baseline> cut = ParseBaseline(text.substr(0, text.size() / 2));
  ASSERT_FALSE(cut.ok());
  EXPECT_NE(cut.status().message().find("ends early"), std::string::npos) << cut.status().message();
  EXPECT_GT(cut.status().position().line, 1u);

  StatusOr<Baseline> future =
      ParseBaseline(R"({"schema": "tensormorph.baseline/2", "created_by": "x", "inputs": []})");
  ASSERT_FALSE(future.ok());
  EXPECT_NE(future.status().message().find("unsupported baseline version"), std::string::npos);
  EXPECT_EQ(future.status().position().column, 12u);

  StatusOr<Baseline> other = ParseBaseline(R"({"schema": "tensormorph.kernels/1", "rows": []})");
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("tensormorph.kernels/1"), std::string::npos);
}

TEST(BaselineDetection, OnlyTensormorphSchemasAreBaselines) {
  EXPECT_TRUE(LooksLikeTensormorphDocument("  {\n \"schema\" : \"tensormorph.baseline/1\""));
  EXPECT_TRUE(LooksLikeTensormorphDocument(R"({"x": 1, "schema": "tensormorph.kernels/1"})"));
  EXPECT_FALSE(LooksLikeTensormorphDocument(R"({"schemaVersion": 1, "traceEvents": []})"));
  EXPECT_FALSE(LooksLikeTensormorphDocument(R"([{"schema": "tensormorph.baseline/1"}])"));
  EXPECT_FALSE(LooksLikeTensormorphDocument("\x1f\x8b\x08"));
  EXPECT_FALSE(LooksLikeTensormorphDocument(R"({"schema":"tensormorph.trace/1","devices":[]})"));
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
