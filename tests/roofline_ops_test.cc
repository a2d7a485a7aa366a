// `tensormorph roofline` on a Kineto trace without hardware counters: FLOPs and bytes from the
// recorded shapes of framework ops, device time from the kernels those ops launched.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_tensormorph.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

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
  // aten::mm's inclusive device time (checked against an independent walk in ops_oracle_test.cc).
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

Json RunJson(const std::vector<std::string>& args) {
  std::vector<std::string> full = args;
  full.insert(full.end(), {"--format", "json", "--quiet"});
  const auto run = RunTensormorph(full);
  EXPECT_EQ(run.exit_code, 0) << run.Describe();
  return run.exit_code == 0 ? Json::parse(run.out) : Json::object();
}

// `ops` rows carry the roofline of their calls with shapes: aten::mm's percent of roof recomputed
// here from the figures the test above checks (4 * 2^40 FLOPs, 3 GiB, the MI300X's 1307.4 TFLOP/s
// BF16 and 5.3 TB/s) and ops' own device time.
TEST(RooflineFromOpShapes, OpsRowsCarryTheRoofOfTheirCalls) {
  const Json ops = RunJson({"ops", kTrace});
  const Json* mm = Row(ops, "aten::mm");
  ASSERT_NE(mm, nullptr);
  const double seconds = (*mm)["device_inclusive_ns"].get<double>() * 1e-9;
  const double achieved = 4398046511104.0 / seconds;
  const double ceiling = std::min(1307.4e12, 4398046511104.0 / 3221225472.0 * 5.3e12);
  EXPECT_NEAR((*mm)["percent_of_roof"].get<double>(), 100 * achieved / ceiling, 1e-9);
  EXPECT_EQ((*mm)["bound"], "compute");
  EXPECT_EQ((*mm)["bound_source"], "intensity");

  // A device spec halving the BF16 matrix peak doubles the percent; --device-spec needs no
  // --predict in `ops` (it does for --calibration).
  const std::filesystem::path spec =
      std::filesystem::temp_directory_path() / "tm_roofline_ops_half_mi300x.json";
  std::ofstream(spec) << R"({"schema": "tensormorph.device-spec/1", "devices": [
      {"key": "mi300x", "bf16_matrix_flops_per_s": 653.7e12, "source": "test: half"}]})";
  const Json halved = RunJson({"ops", kTrace, "--device-spec", spec.string()});
  std::filesystem::remove(spec);
  const Json* mm_halved = Row(halved, "aten::mm");
  ASSERT_NE(mm_halved, nullptr);
  EXPECT_NEAR((*mm_halved)["percent_of_roof"].get<double>(),
              2 * (*mm)["percent_of_roof"].get<double>(), 1e-9);
  const auto calibration = RunTensormorph({"ops", kTrace, "--calibration", "c.json"});
  EXPECT_EQ(calibration.exit_code, 2) << calibration.Describe();
  EXPECT_NE(calibration.err.find("--calibration is for --predict KEY"), std::string::npos)
      << calibration.err;
}

// Where an ops row counts the same calls as roofline's op-shape row of that name (every call
// outermost), the two agree on percent of roof, bound and its source: on the MI300X TimeSformer
// trace aten::conv2d is latency-bound (below both roofs), on the H100 Qwen trace the lone
// aten::bmm by launch duration, and the matmuls compute- or memory-bound by intensity.
TEST(RooflineFromOpShapes, OpsAndRooflineAgreeOnTheBound) {
  const std::string shared = std::string(TM_SHARED_DATA) + "/kineto/";
  struct Case {
    const char* trace;
    const char* op;
    const char* bound;
    const char* source;
  };
  const Case cases[] = {
      {"tracelens_pairs/mi300_timesformer_inference.json.gz", "aten::conv2d", "latency",
       "below_both_roofs"},
      {"tracelens_pairs/mi300_timesformer_inference.json.gz", "aten::matmul", "memory",
       "intensity"},
      {"tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz", "aten::linear", "compute",
       "intensity"},
      {"tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz", "aten::scaled_dot_product_attention",
       "memory", "intensity"},
  };
  for (const Case& c : cases) {
    const Json ops = RunJson({"ops", shared + c.trace});
    const Json roofline = RunJson({"roofline", shared + c.trace});
    const Json* op = Row(ops, c.op);
    const Json* roof = Row(roofline, c.op);
    ASSERT_NE(op, nullptr) << c.trace << " " << c.op;
    ASSERT_NE(roof, nullptr) << c.trace << " " << c.op;
    ASSERT_EQ((*op)["calls_with_flops"], (*roof)["count"]) << c.op;
    EXPECT_EQ((*op)["bound"], c.bound) << c.op;
    EXPECT_EQ((*op)["bound_source"], c.source) << c.op;
    EXPECT_EQ((*op)["bound"], (*roof)["bound"]) << c.op;
    EXPECT_EQ((*op)["bound_source"], (*roof)["bound_source"]) << c.op;
    EXPECT_DOUBLE_EQ((*op)["percent_of_roof"].get<double>(),
                     (*roof)["percent_of_roof"].get<double>())
        << c.op;
  }
  // The H100 trace's one outermost aten::bmm call: shorter than the 5 µs latency floor.
  const Json qwen =
      RunJson({"ops", shared + "tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz"});
  const Json* bmm = Row(qwen, "aten::bmm");
  ASSERT_NE(bmm, nullptr);
  ASSERT_EQ((*bmm)["calls_with_flops"], 1);
  EXPECT_LT((*bmm)["device_inclusive_ns"].get<int64_t>(), 5000);
  EXPECT_EQ((*bmm)["bound"], "latency");
  EXPECT_EQ((*bmm)["bound_source"], "launch_duration");
}

// The table's latency footnote says why each shown latency row is latency-bound, from the row's
// own bound_source: an op estimated from shapes was never measured by Nsight Compute. The H100
// Qwen trace has an op-shape row called latency for its launch duration; the Nsight Compute
// export one for its measured Speed Of Light.
TEST(RooflineFromOpShapes, LatencyFootnoteFollowsTheRowsBoundSource) {
  const std::string qwen =
      TM_SHARED_DATA "/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz";
  const std::string ncu = TM_SHARED_DATA "/nvidia/ncu_csv/llmperfopt_k0001_ncu.details.csv";
  for (const std::string& file : {qwen, ncu}) {
    SCOPED_TRACE(file);
    const auto json_run = RunTensormorph({"roofline", file, "--format", "json", "--quiet"});
    ASSERT_EQ(json_run.exit_code, 0) << json_run.Describe();
    std::vector<std::string> sources;
    const Json doc = Json::parse(json_run.out);
    for (const Json& row : doc["rows"]) {
      if (row["bound"] == "latency") sources.push_back(row["bound_source"]);
    }
    ASSERT_FALSE(sources.empty()) << "the sample has no latency row any more";
    const auto text = RunTensormorph({"roofline", file, "--quiet"});
    ASSERT_EQ(text.exit_code, 0) << text.Describe();
    const bool measured = std::count(sources.begin(), sources.end(), "speed_of_light") > 0;
    EXPECT_EQ(text.out.find("Nsight Compute measured") != std::string::npos, measured) << text.out;
    const bool short_launches = std::count(sources.begin(), sources.end(), "launch_duration") > 0;
    EXPECT_EQ(text.out.find("latency: launches average under 5 us") != std::string::npos,
              short_launches)
        << text.out;
  }
}

// FP8 and FP4 GEMMs take the roof of their own precision (issue 40). No shared trace records a
// scaled GEMM, so this one is written here as PyTorch records torch._scaled_mm (shapes, dtypes,
// out_dtype 15 = bf16); the expected numbers are computed from the shapes and the vendors' dense
// peaks: H100 SXM FP8 1,979 TFLOPS, B200 FP4 9 PFLOPS.
std::string ScaledMmTrace(const std::string& device, int major, int minor, int sms,
                          const std::string& dtype, int64_t k_stored) {
  const std::string scale = dtype == "c10::Float4_e2m1fn_x2" ? "c10::Float8_e8m0fnu" : "float";
  Json trace = {
      {"schemaVersion", 1},
      {"deviceProperties",
       {{{"id", 0},
         {"name", device},
         {"computeMajor", major},
         {"computeMinor", minor},
         {"numSms", sms}}}},
      {"traceEvents",
       {{{"ph", "X"},
         {"cat", "cpu_op"},
         {"name", "aten::_scaled_mm"},
         {"pid", 1},
         {"tid", 1},
         {"ts", 100},
         {"dur", 50},
         {"args",
          {{"External id", 1},
           {"Input Dims",
            {{4096, k_stored},
             {k_stored, 8192},
             Json::array(),
             Json::array(),
             Json::array(),
             Json::array(),
             Json::array(),
             Json::array()}},
           {"Input type", {dtype, dtype, scale, scale, "", "", "Scalar", "Scalar"}},
           {"Concrete Inputs", {"", "", "", "", "", "", "15", "False"}}}}},
        {{"ph", "X"},
         {"cat", "cuda_runtime"},
         {"name", "cudaLaunchKernel"},
         {"pid", 1},
         {"tid", 1},
         {"ts", 110},
         {"dur", 5},
         {"args", {{"External id", 1}, {"correlation", 10}}}},
        {{"ph", "X"},
         {"cat", "kernel"},
         {"name", "gemm_kernel"},
         {"pid", 0},
         {"tid", 7},
         {"ts", 120},
         {"dur", 1000},
         {"args", {{"External id", 1}, {"correlation", 10}, {"device", 0}, {"stream", 7}}}}}}};
  const std::filesystem::path path =
      std::filesystem::temp_directory_path() /
      ("tm_scaled_mm_" + std::to_string(::getpid()) + "_" + std::to_string(sms) + ".json");
  std::ofstream(path) << trace.dump();
  return path.string();
}

TEST(RooflineFromOpShapes, ScaledGemmsUseTheRoofOfTheirPrecision) {
  struct Case {
    std::string device;
    int major, minor, sms;
    std::string dtype;
    int64_t k_stored, k;
    const char* precision;
    double peak;
  };
  const Case cases[] = {
      {"NVIDIA H100 80GB HBM3", 9, 0, 132, "c10::Float8_e4m3fn", 8192, 8192, "fp8", 1979e12},
      {"NVIDIA B200", 10, 0, 148, "c10::Float4_e2m1fn_x2", 4096, 8192, "fp4", 9e15},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.device);
    const std::string path = ScaledMmTrace(c.device, c.major, c.minor, c.sms, c.dtype, c.k_stored);
    auto r = RunTensormorph({"roofline", "--format", "json", "--quiet", path});
    std::filesystem::remove(path);
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    const Json doc = Json::parse(r.out);
    const Json* row = Row(doc, "aten::_scaled_mm");
    ASSERT_NE(row, nullptr) << doc.dump();
    EXPECT_EQ((*row)["precision"], c.precision);
    const double flops = 2.0 * 4096 * 8192 * c.k;
    EXPECT_DOUBLE_EQ((*row)["flops"].get<double>(), flops);
    EXPECT_DOUBLE_EQ((*row)["peak_flops_per_s"].get<double>(), c.peak);
    EXPECT_NEAR((*row)["percent_of_roof"].get<double>(), 100 * flops / 1e-3 / c.peak, 1e-9);
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
