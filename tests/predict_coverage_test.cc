// The work coverage `predict` reports (docs/predict.md): the share of a trace's kernel time whose
// op has a work estimate from its shapes (link/op_work.h: the FLOP counter and the memory traffic
// of memory-bound ops). Recomputed here from predict's own rows and from `kernels`; the rows' work
// (FLOPs, bytes) is tested against hand-computed formulas in src/link/op_work_test.cc.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <regex>
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
// framework ops (the TraceLens pairs, ResNet-18 training, SGLang's prefill and, outside its
// replayed graphs, decode).
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
      "tracelens/rocm_sglang_qwen3-8b_decode_hipgraph.json.gz",
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
    // The issue's target: 95 % of the computation under ops. SGLang's paged-KV attention
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

// FBGEMM's sparse-feature, pooled-embedding and quantization ops (the DLRM job's ranks, HTA's
// TorchRec samples): their bytes recomputed from each call's "Input Dims" and "Input type" in the
// raw trace, summed per row of predict (name and shapes), and every kernel under them counted.
// Calls inside another op (the quantizations inside TorchRec's All2All_Pooled_*) are part of that
// op's row and not checked here; src/link/op_work_test.cc has their formulas. Written from FBGEMM's
// operator signatures, independently of src/link/op_work_traffic.cc.
double ElementBytes(const std::string& type) {
  if (type == "float" || type == "int") return 4;
  if (type == "long" || type == "long int") return 8;
  if (type == "unsigned char") return 1;
  ADD_FAILURE() << "element type " << type;
  return 0;
}

double Numel(const json& dims) {
  double n = 1;
  for (const json& d : dims) n *= d.get<double>();
  return n;
}

double TensorBytes(const json& dims, const json& types, size_t i) {
  if (types[i] == "" || types[i] == "Scalar") return 0;  // an absent optional tensor, a scalar
  return Numel(dims[i]) * ElementBytes(types[i]);
}

// The bytes of one call by FBGEMM's signature; nullopt for ops outside this test. The sizes are
// computed only for the ops named here (the others' element types are not ElementBytes').
std::optional<double> FbgemmCallBytes(const std::string& name, const json& dims,
                                      const json& types) {
  auto first = [&] { return TensorBytes(dims, types, 0); };
  auto all = [&] {
    double bytes = 0;
    for (size_t i = 0; i < dims.size(); ++i) bytes += TensorBytes(dims, types, i);
    return bytes;
  };
  // (permute, lengths, indices[, weights]): read all; lengths, indices, weights written.
  if (name == "fbgemm::permute_2D_sparse_data" || name == "fbgemm::permute_sparse_features") {
    return 2 * all() - first();
  }
  if (name == "fbgemm::asynchronous_complete_cumsum") return 2 * first();  // offsets: one more
  if (name == "fbgemm::bounds_check_indices") return all();                // reads only
  // (pooled [B, D], offsets and permutations...): the pooled tensor written permuted.
  if (name == "fbgemm::permute_pooled_embs_auto_grad" ||
      name == "fbgemm::recat_embedding_grad_output_mixed_D_batch" ||
      name.starts_with("torch::autograd::CppNode<fbgemm_gpu::PermutePooledEmbsFunction")) {
    return all() + first();
  }
  if (name == "fbgemm::FloatToHFP8Quantized") return first() + Numel(dims[0]);      // 1 byte each
  if (name == "fbgemm::HFP8QuantizedToFloat") return first() + 4 * Numel(dims[0]);  // to float
  // Row-wise FP8: each row's bytes followed by 8 bytes of scale and padding.
  const bool to_fp8 = name == "fbgemm::FloatToFP8RowwiseQuantized";
  if (!to_fp8 && name != "fbgemm::FP8RowwiseQuantizedToFloat") return std::nullopt;
  const double columns = dims[0].back().get<double>();
  const double rows = Numel(dims[0]) / columns;
  return first() + (to_fp8 ? rows * (columns + 8) : rows * (columns - 8) * 4);
}

TEST(PredictCoverage, FbgemmOpsMoveTheBytesTheirShapesGive) {
  for (const std::string name :
       {"param_dlrm_8rank/worker0_step_12.1694128201545.pt.trace.json.gz",
        "hta/multirank_sampled/sampled_rank-0.json.gz", "hta/trace_diff/control.json.gz"}) {
    const std::string path = kKineto + name;
    std::string error;
    const json trace = tensormorph::testing::ReadTraceExact(path, &error);
    ASSERT_TRUE(error.empty()) << error;
    // By row: autograd's evaluate_function rows (no shapes of their own) by name only.
    std::map<std::string, double> bytes_of_row;
    for (const json& e : trace["traceEvents"]) {
      if (e.value("cat", "") != "cpu_op" || !e["args"].contains("Input Dims")) continue;
      const std::string op = e["name"];
      const json& args = e["args"];
      const std::optional<double> bytes =
          FbgemmCallBytes(op, args["Input Dims"], args["Input type"]);
      if (!bytes) continue;
      const std::string row = op.starts_with("torch::autograd::")
                                  ? "autograd::engine::evaluate_function: " + op
                                  : op + " " + args["Input Dims"].dump();
      bytes_of_row[row] += *bytes;
    }
    ASSERT_GE(bytes_of_row.size(), 5u) << name;
    const json doc = RunJsonCommand({"predict", "--device", "mi300x", path});
    size_t rows = 0;
    for (const json& row : doc["rows"]) {
      const std::string n = row["name"];
      const std::string key =
          row["shapes"].is_null() ? n : n + " " + row["shapes"].get<std::string>();
      const auto expected = bytes_of_row.find(key);
      if (expected == bytes_of_row.end()) continue;
      ++rows;
      ASSERT_TRUE(row["bytes"].is_number()) << name << " " << key;
      EXPECT_DOUBLE_EQ(row["bytes"].get<double>(), expected->second) << name << " " << key;
      EXPECT_EQ(row["counted_ns"], row["measured_ns"]) << name << " " << key;
    }
    EXPECT_GE(rows, 5u) << name;
  }
}

// SGLang's decode copies its batch into the graph's buffers before each replay:
// _foreach_copy_(self, src) over lists Kineto records without their element type, and
// aten::arange with its values. Recomputed from the raw trace: each copy's kernel (found by
// External id and correlation) names the destination's and the source's types
// (CopyFunctor<To, From, ...>, or UnaryOpFunctor<T, ...> for one type); the source is read and
// the destination written. arange(start, end, dtype) writes end - start values of the dtype's
// c10::ScalarType (4: int64).
TEST(PredictCoverage, SglangDecodeListCopiesAndRangesMoveWhatTheirKernelsName) {
  const std::string path = kKineto + "tracelens/rocm_sglang_qwen3-8b_decode_hipgraph.json.gz";
  std::string error;
  const json trace = tensormorph::testing::ReadTraceExact(path, &error);
  ASSERT_TRUE(error.empty()) << error;
  std::map<int64_t, int64_t> correlation_of_external;
  std::map<int64_t, std::string> kernel_of_correlation;
  for (const json& e : trace["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if (!e.contains("args") || !e["args"].contains("correlation")) continue;
    const int64_t correlation = e["args"]["correlation"];
    if (cat == "cuda_runtime" && e["args"].contains("External id")) {
      correlation_of_external[e["args"]["External id"]] = correlation;
    } else if (cat == "kernel") {
      kernel_of_correlation[correlation] = e["name"];
    }
  }
  auto size_of = [](const std::string& type) {
    if (type == "int") return 4.0;
    if (type == "long") return 8.0;
    ADD_FAILURE() << "kernel element type " << type;
    return 0.0;
  };
  std::map<std::string, double> bytes_of_row;
  for (const json& e : trace["traceEvents"]) {
    if (e.value("cat", "") != "cpu_op") continue;
    const std::string op = e["name"];
    const json& args = e["args"];
    const json& dims = args["Input Dims"];
    const std::string row = op + " " + dims.dump();
    if (op == "aten::_foreach_copy_") {
      const std::string kernel =
          kernel_of_correlation[correlation_of_external[args["External id"]]];
      std::smatch m;
      double to = 0, from = 0;
      if (std::regex_search(kernel, m, std::regex(R"(CopyFunctor<(\w+), (\w+),)"))) {
        to = size_of(m[1]);
        from = size_of(m[2]);
      } else if (std::regex_search(kernel, m, std::regex(R"(UnaryOpFunctor<(\w+),)"))) {
        to = from = size_of(m[1]);
      } else {
        ADD_FAILURE() << "kernel of " << op << ": " << kernel;
      }
      double elements = 0;
      for (const json& tensor : dims[1]) elements += Numel(tensor);
      bytes_of_row[row] += elements * (from + to);
    } else if (op == "aten::arange" && dims.size() == 6) {
      const json& values = args["Concrete Inputs"];
      ASSERT_EQ(values[2], "4");  // int64
      bytes_of_row[row] +=
          (std::stod(values[1].get<std::string>()) - std::stod(values[0].get<std::string>())) * 8;
    }
  }
  ASSERT_EQ(bytes_of_row.size(), 3u);  // two copies (1 and 4 tensors), one range
  const json doc = RunJsonCommand({"predict", "--device", "h100-sxm5-80gb", path});
  size_t rows = 0;
  for (const json& row : doc["rows"]) {
    if (row["shapes"].is_null()) continue;
    const std::string key = row["name"].get<std::string>() + " " + row["shapes"].get<std::string>();
    const auto expected = bytes_of_row.find(key);
    if (expected == bytes_of_row.end()) continue;
    ++rows;
    ASSERT_TRUE(row["bytes"].is_number()) << key;
    EXPECT_DOUBLE_EQ(row["bytes"].get<double>(), expected->second) << key;
    EXPECT_EQ(row["counted_ns"], row["measured_ns"]) << key;
  }
  EXPECT_EQ(rows, 3u);
}

}  // namespace TM_UNITY_ID
}  // namespace
