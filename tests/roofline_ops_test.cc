// `tensormorph roofline` on a Kineto trace without hardware counters: FLOPs and bytes from the
// recorded shapes of framework ops, device time from the kernels those ops launched.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "support/run_tensormorph.h"

namespace tensormorph {
namespace {

using testing::RunTensormorph;
using Json = nlohmann::json;

const std::string kTrace =
    std::string(TM_SHARED_DATA) + "/kineto/tracelens/rocm_torch_compile_triton.json.gz";

const Json* Row(const Json& doc, const std::string& name) {
  for (const Json& row : doc["rows"]) {
    if (row["name"] == name) return &row;
  }
  return nullptr;
}

TEST(RooflineFromOpShapes, MatmulsOfTheTorchCompileTrace) {
  const auto run = RunTensormorph({"roofline", kTrace, "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json doc = Json::parse(run.out);
  const Json* mm = Row(doc, "aten::mm");
  ASSERT_NE(mm, nullptr);
  // The trace's seven aten::mm calls (bf16), from their "Input Dims" (the third operand is the
  // out= tensor torch.compile passes, not an input):
  //   4 x [32768,2048]@[2048,2048], 2 x [32768,2048]@[2048,8192], 1 x [32768,8192]@[8192,2048]
  // FLOPs: 2*M*N*K each = 4*2^38 + 2*2^40 + 2^40 = 4 * 2^40.
  EXPECT_EQ((*mm)["count"], 7);
  EXPECT_EQ((*mm)["precision"], "bf16");
  EXPECT_EQ((*mm)["source"], "op shapes");
  EXPECT_DOUBLE_EQ((*mm)["flops"].get<double>(), 4398046511104.0);
  // Bytes, 2 per element, A + B + output: 4 x 276,824,064 + 2 x 704,643,072 + 704,643,072.
  EXPECT_DOUBLE_EQ((*mm)["dram_bytes"].get<double>(), 3221225472.0);
  EXPECT_DOUBLE_EQ((*mm)["arithmetic_intensity"].get<double>(), 4398046511104.0 / 3221225472.0);
  // MI300X in the device database: 1307.4 TFLOP/s dense BF16 matrix, 5.3 TB/s (docs/devices.md).
  EXPECT_EQ((*mm)["peak_source"], "database: mi300x");
  EXPECT_DOUBLE_EQ((*mm)["peak_flops_per_s"].get<double>(), 1307.4e12);
  EXPECT_EQ((*mm)["bound"], "compute");

  // The device time is that of the kernels the calls launched: the same figure `ops` reports as
  // aten::mm's inclusive device time (checked against an independent walk in ops_test.cc).
  const auto ops = RunTensormorph({"ops", kTrace, "--format", "json"});
  ASSERT_EQ(ops.exit_code, 0) << ops.err;
  const Json ops_doc = Json::parse(ops.out);
  const Json* mm_op = Row(ops_doc, "aten::mm");
  ASSERT_NE(mm_op, nullptr);
  EXPECT_EQ((*mm)["total_ns"], (*mm_op)["device_inclusive_ns"]);
  EXPECT_GT((*mm)["total_ns"].get<int64_t>(), 0);
  const double rate = 4398046511104.0 / ((*mm)["total_ns"].get<double>() * 1e-9);
  EXPECT_NEAR((*mm)["achieved_flops_per_s"].get<double>(), rate, rate * 1e-12);
}

TEST(RooflineFromOpShapes, KernelsOutsideCountedOpsAreReportedNotDropped) {
  const auto run = RunTensormorph({"roofline", kTrace, "--format", "json"});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const Json doc = Json::parse(run.out);
  uint64_t skipped = 0;
  for (const Json& s : doc["skipped"]) skipped += s["count"].get<uint64_t>();
  // 12 kernels: 7 under aten::mm, 1 under the flash attention call, 4 elsewhere (Triton).
  EXPECT_EQ(doc["kernel_count"], 12);
  EXPECT_EQ(skipped, 4u);
}

}  // namespace
}  // namespace tensormorph
