// The work coverage `predict` reports (docs/predict.md): the share of a trace's kernel time whose
// op has a work estimate from its shapes (link/op_work.h: the FLOP counter and the memory traffic
// of memory-bound ops). Recomputed here from predict's own rows and from `kernels`; the rows' work
// (FLOPs, bytes) is tested against hand-computed formulas in src/link/op_work_test.cc.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/kineto_events.h"
#include "support/tracelens_pairs.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;
using tensormorph::testing::RunJsonCommand;

const std::string kKineto = std::string(TM_SHARED_DATA) + "/kineto/";

// Every shared Kineto trace recorded with shapes and element types whose kernels run under
// framework ops (the TraceLens pairs, ResNet-18 training).
TEST(PredictCoverage, WorkEstimatesCoverTheKernelTimeUnderOps) {
  const std::vector<std::string> traces = {
      "tracelens_pairs/h100_owlv2-large_inference.json.gz",
      "tracelens_pairs/mi300_owlv2-large_inference.json.gz",
      "tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz",
      "tracelens_pairs/mi300_qwen1.5-0.5b_inference.json.gz",
      "tracelens_pairs/h100_timesformer_inference.json.gz",
      "tracelens_pairs/mi300_timesformer_inference.json.gz",
      "tracelens_more/mi300x_resnet18_train_no_mempool.json.gz",
      "tracelens_more/rocm_sglang_qwen3-8b_prefill_extend.json.gz",
      "hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
      "tracelens/rocm_torch_compile_triton.json.gz",
      "hta/triton_example.json.gz",
  };
  std::printf("| trace | kernel time | covered | under ops covered |\n|---|---:|---:|---:|\n");
  for (const std::string& name : traces) {
    const std::string path = kKineto + name;
    const json doc = RunJsonCommand({"predict", "--device", "mi300x", path});
    const json kernels = RunJsonCommand({"kernels", path});
    int64_t measured = 0, counted = 0, no_op = 0;
    std::map<std::string, int64_t> uncovered_under_ops;
    for (const json& row : doc["rows"]) {
      const int64_t m = row["measured_ns"], c = row["counted_ns"];
      measured += m;
      counted += c;
      if (row["origin"] == "no_op") {
        no_op += m;
      } else if (m > c) {
        uncovered_under_ops[row["name"]] += m - c;
      }
    }
    const json& coverage = doc["work_coverage"];
    EXPECT_EQ(measured, kernels["total_ns"].get<int64_t>()) << name;
    EXPECT_EQ(coverage["kernel_ns"], measured) << name;
    EXPECT_EQ(coverage["counted_ns"], counted) << name;
    EXPECT_EQ(coverage["under_no_op_ns"], no_op) << name;
    const double share = static_cast<double>(counted) / static_cast<double>(measured);
    EXPECT_EQ(coverage["communication_ns"], 0) << name;  // none of these has collectives
    const double under_ops = static_cast<double>(counted) / static_cast<double>(measured - no_op);
    EXPECT_DOUBLE_EQ(coverage["share"].get<double>(), share) << name;
    EXPECT_DOUBLE_EQ(coverage["share_under_ops"].get<double>(), under_ops) << name;
    std::printf("| %s | %.3f ms | %.1f %% | %.1f %% |\n", name.c_str(), measured / 1e6, 100 * share,
                100 * under_ops);
    // The target: 95 % of the computation under ops. SGLang's paged-KV attention
    // (mha_batch_prefill) needs each sequence's length, which shapes do not give: the only gap
    // under ops.
    EXPECT_GE(under_ops, 0.95) << name;
    for (const auto& [op, ns] : uncovered_under_ops) {
      if (static_cast<double>(ns) > 0.005 * static_cast<double>(measured)) {
        EXPECT_EQ(op, "sglang_profiler::mha__mha_batch_prefill_167")
            << name << ": " << op << " " << ns << " ns without a work estimate";
      }
    }
  }
}

// Kineto records aten::cat's tensors as one "TensorList" without their element type; the cat
// kernel PyTorch launches for it names the element size (CatArrayBatchedCopy<OpaqueType<N>, ...>).
// Recomputed from the raw trace, each call linked to its kernel by External id and correlation
// (the tool links by time on the launching thread): every list read once and written once, N
// bytes per element, summed per row of predict (name, shapes and types).
TEST(PredictCoverage, CatBytesTakeTheElementSizeItsKernelNames) {
  for (const std::string name : {"tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz",
                                 "tracelens_pairs/mi300_qwen1.5-0.5b_inference.json.gz"}) {
    const std::string path = kKineto + name;
    std::string error;
    const json trace = tensormorph::testing::ReadTraceExact(path, &error);
    ASSERT_TRUE(error.empty()) << error;
    std::map<int64_t, int64_t> correlation_of_external;  // launch calls
    std::map<int64_t, std::string> kernel_of_correlation;
    for (const json& e : trace["traceEvents"]) {
      if (e.value("ph", "") != "X" || !e.contains("args")) continue;
      const json& args = e["args"];
      if (e.value("cat", "") == "cuda_runtime" && args.contains("External id") &&
          args.contains("correlation")) {
        correlation_of_external[args["External id"]] = args["correlation"];
      } else if (e.value("cat", "") == "kernel" && args.contains("correlation")) {
        kernel_of_correlation[args["correlation"]] = e["name"];
      }
    }
    std::map<std::string, double> bytes_of_shapes;  // by "Input Dims" as predict prints them
    for (const json& e : trace["traceEvents"]) {
      if (e.value("cat", "") != "cpu_op" || e.value("name", "") != "aten::cat") continue;
      const auto correlation = correlation_of_external.find(e["args"]["External id"]);
      ASSERT_NE(correlation, correlation_of_external.end()) << e.dump();
      const auto launched = kernel_of_correlation.find(correlation->second);
      ASSERT_NE(launched, kernel_of_correlation.end()) << e.dump();
      const std::string& kernel = launched->second;
      const size_t at = kernel.find("OpaqueType<");
      ASSERT_NE(at, std::string::npos) << kernel;
      const double element = std::stod(kernel.substr(at + 11));
      double elements = 0;
      for (const json& dims : e["args"]["Input Dims"][0]) {
        double n = 1;
        for (const json& d : dims) n *= d.get<double>();
        elements += n;
      }
      bytes_of_shapes[e["args"]["Input Dims"].dump()] += 2 * elements * element;
    }
    ASSERT_FALSE(bytes_of_shapes.empty()) << name;
    const json doc = RunJsonCommand({"predict", "--device", "mi300x", path});
    size_t rows = 0;
    for (const json& row : doc["rows"]) {
      if (row["name"] != "aten::cat") continue;
      ++rows;
      EXPECT_DOUBLE_EQ(row["bytes"].get<double>(), bytes_of_shapes.at(row["shapes"]))
          << name << " " << row["shapes"];
      EXPECT_EQ(row["counted_ns"], row["measured_ns"]) << name << " " << row["shapes"];
    }
    EXPECT_EQ(rows, bytes_of_shapes.size()) << name;
  }
}

// DDP's allreduce runs inside autograd's AccumulateGrad hooks: its NCCL kernels are communication
// by their names, set apart from the computation the shapes should cover. On rank 0 of the DLRM
// job every NCCL kernel runs under an op, so communication_ns is all of them, summed here from
// the raw trace.
TEST(PredictCoverage, CommunicationKernelsUnderOpsAreSetApart) {
  const std::string path =
      kKineto + "param_dlrm_8rank/worker0_step_12.1694128201545.pt.trace.json.gz";
  std::string error;
  const json trace = tensormorph::testing::ReadTraceExact(path, &error);
  ASSERT_TRUE(error.empty()) << error;
  int64_t nccl_ns = 0;
  for (const json& e : trace["traceEvents"]) {
    if (e.value("cat", "") != "kernel" || e.value("ph", "") != "X") continue;
    const std::string name = e["name"];
    if (name.find("nccl") != std::string::npos) {
      nccl_ns += tensormorph::testing::FieldNanos(e["dur"]).value_or(0);
    }
  }
  ASSERT_GT(nccl_ns, 0);
  const json doc = RunJsonCommand({"predict", "--device", "mi300x", path});
  const json& coverage = doc["work_coverage"];
  EXPECT_EQ(coverage["under_no_op_ns"], 0);
  EXPECT_EQ(coverage["communication_ns"], nccl_ns);
  const double under_ops = coverage["counted_ns"].get<double>() /
                           (coverage["kernel_ns"].get<double>() - static_cast<double>(nccl_ns));
  EXPECT_DOUBLE_EQ(coverage["share_under_ops"].get<double>(), under_ops);
}

}  // namespace TM_UNITY_ID
}  // namespace
