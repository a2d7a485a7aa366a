// `tensormorph compare` on the H100 / MI300X pairs of ../shared/data/kineto/tracelens_pairs,
// against TraceLens's own comparison of the Qwen1.5-0.5B pair (reference_qwen/*.csv, its test's
// expected output) and against the traces themselves, read here with nlohmann-json and sharing no
// code with src/.
//
// Known definition differences, asserted as such (docs/compare.md):
//  - TraceLens adds the memsets and memcpys an op launched to its kernel time; our device_ns is
//    kernels only (as `tensormorph kernels`), with the transfers in transfer_ns.
//  - Its GEMM FLOPs add the bias term M*N; its causal attention FLOPs are halved. Ours follow
//    torch.utils.flop_counter: 2*M*N*K, and no discount for the causal mask.
//  - It leaves out kernels with no launch call in the trace (the GPU work of the first ~14 ms,
//    before the host side of the capture began); we keep them as kernels under no op.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "support/csv.h"
#include "support/files.h"
#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kPairs = std::string(TM_SHARED_DATA) + "/kineto/tracelens_pairs/";
const std::string kReference = kPairs + "reference_qwen/";

std::string PairPath(const std::string& device, const std::string& model) {
  return kPairs + device + "_" + model + "_inference.json.gz";
}

json Compare(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"compare", "--format", "json", "--quiet"};
  all.insert(all.end(), args.begin(), args.end());
  RunResult r = RunTensormorph(all);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out);
}

std::vector<std::map<std::string, std::string>> ReadCsv(const std::string& path) {
  return tensormorph::testing::CsvRecords(tensormorph::testing::ReadFile(path));
}

json ReadTrace(const std::string& path) {
  std::string error;
  const std::string text = tensormorph::testing::Gunzip(path, &error);
  EXPECT_TRUE(error.empty()) << path << ": " << error;
  return json::parse(text);
}

// Per op name, the memset and memcpy time whose launch call the op encloses innermost (same
// thread, the smallest op around the call): what TraceLens adds to an op's direct kernel time.
std::map<std::string, double> TransferUsByInnermostOp(const json& trace) {
  std::map<int64_t, const json*> runtime_by_correlation;
  std::vector<const json*> ops;
  for (const json& e : trace["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if (cat == "cuda_runtime" || cat == "cuda_driver" || cat == "hip_runtime") {
      if (e.contains("args") && e["args"].contains("correlation")) {
        runtime_by_correlation[e["args"]["correlation"].get<int64_t>()] = &e;
      }
    } else if (cat == "cpu_op") {
      ops.push_back(&e);
    }
  }
  std::map<std::string, double> out;
  for (const json& e : trace["traceEvents"]) {
    const std::string cat = e.value("cat", "");
    if (cat != "gpu_memset" && cat != "gpu_memcpy") continue;
    auto launch = runtime_by_correlation.find(e["args"]["correlation"].get<int64_t>());
    if (launch == runtime_by_correlation.end()) continue;
    const json& call = *launch->second;
    const json* innermost = nullptr;
    for (const json* op : ops) {
      if ((*op)["tid"] != call["tid"]) continue;
      const double start = (*op)["ts"].get<double>(), end = start + (*op)["dur"].get<double>();
      const double at = call["ts"].get<double>();
      if (start <= at && at <= end &&
          (innermost == nullptr ||
           (*op)["dur"].get<double>() < (*innermost)["dur"].get<double>())) {
        innermost = op;
      }
    }
    if (innermost != nullptr) out[(*innermost)["name"]] += e["dur"].get<double>();
  }
  return out;
}

double Number(const std::string& text) {
  return text.empty() ? 0 : std::stod(text);
}

// TraceLens's µs are sums of durations it takes as differences of float64 µs timestamps (about
// 1.4e12, so within 0.25 ns each); ours are the exact ns of the traces' decimal text. Allowed: half
// a ns per kernel launch summed, plus the last digit of its CSV.
void ExpectMicroseconds(double ours_ns, double theirs_us, double launches,
                        const std::string& what) {
  EXPECT_NEAR(ours_ns / 1000.0, theirs_us, 0.001 + 0.0005 * launches + 1e-9 * theirs_us) << what;
}

// "(16, 559, 1024)" / "(1024,)" / "()" -> [16,559,1024] / [1024] / [].
json TupleDims(std::string text) {
  for (char& c : text) {
    if (c == '(') c = '[';
    if (c == ')') c = ']';
  }
  for (size_t at; (at = text.find(",]")) != std::string::npos;) text.erase(at, 1);
  return json::parse(text);
}

// What our rows and children say of each (op name, dims, dtypes) on each side.
struct OpFigures {
  uint64_t calls = 0;
  int64_t device_ns = 0, self_ns = 0, transfer_ns = 0;
};
using ShapeKey = std::tuple<std::string, std::string, std::string>;  // name, dims, dtypes

std::map<ShapeKey, OpFigures> FiguresBySide(const json& result, size_t side) {
  std::map<ShapeKey, OpFigures> out;
  for (const json& row : result["rows"]) {
    if (row["origin"] != "op") continue;
    auto add = [&](const json& owner, const json& cell) {
      if (cell.is_null()) return;
      OpFigures& f = out[{owner["name"], owner["shapes"].is_null() ? "" : owner["shapes"],
                          owner["dtypes"].is_null() ? "" : owner["dtypes"]}];
      f.calls += cell["calls"].get<uint64_t>();
      f.device_ns += cell["device_ns"].get<int64_t>();
      f.self_ns += cell["self_ns"].get<int64_t>();
      f.transfer_ns += cell["transfer_ns"].get<int64_t>();
    };
    add(row, row["sides"][side]);
    for (const json& child : row["children"]) add(child, child["sides"][side]);
  }
  return out;
}

class CompareTraceLens : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    result_ = new json(Compare({PairPath("h100", "qwen1.5-0.5b"), PairPath("mi300", "qwen1.5-0.5b"),
                                "--label", "h100,mi300"}));
  }
  static void TearDownTestSuite() {
    delete result_;
    result_ = nullptr;
  }
  static json* result_;
};
json* CompareTraceLens::result_ = nullptr;

const char* const kSides[] = {"h100", "mi300"};

// ops_summary.csv: per op name, the kernel time of the kernels it launched itself, and its calls.
TEST_F(CompareTraceLens, DirectKernelTimePerOpIsTraceLens) {
  const json& result = *result_;
  for (size_t side = 0; side < 2; ++side) {
    SCOPED_TRACE(kSides[side]);
    const std::map<std::string, double> transfers_us =
        TransferUsByInnermostOp(ReadTrace(PairPath(kSides[side], "qwen1.5-0.5b")));
    std::map<std::string, OpFigures> by_name;
    for (const auto& [key, f] : FiguresBySide(result, side)) {
      OpFigures& n = by_name[std::get<0>(key)];
      n.calls += f.calls;
      n.self_ns += f.self_ns;
    }
    size_t compared = 0;
    for (const auto& row : ReadCsv(kReference + "ops_summary.csv")) {
      const std::string prefix = std::string(kSides[side]) + "::";
      const std::string direct_ms = row.at(prefix + "total_direct_kernel_time_ms");
      if (direct_ms.empty()) continue;  // TraceLens has the op on the other side only
      const std::string& name = row.at("name");
      ASSERT_TRUE(by_name.count(name)) << name;
      const auto transfer = transfers_us.find(name);
      const double transfer_us = transfer == transfers_us.end() ? 0 : transfer->second;
      ExpectMicroseconds(by_name[name].self_ns + transfer_us * 1000, Number(direct_ms) * 1000,
                         Number(row.at(prefix + "Count")), name);
      ++compared;
    }
    EXPECT_GE(compared, 20u);
  }
}

// The per-shape tables: the subtree kernel time (with its memsets, as TraceLens counts them) and
// the calls of each GEMM, attention and elementwise shape; GEMM FLOPs against theirs less bias.
TEST_F(CompareTraceLens, PerShapeKernelTimeIsTraceLens) {
  const json& result = *result_;
  for (size_t side = 0; side < 2; ++side) {
    SCOPED_TRACE(kSides[side]);
    const std::string prefix = std::string(kSides[side]) + "::";
    const std::map<ShapeKey, OpFigures> ours = FiguresBySide(result, side);
    // TraceLens keys elementwise rows by (name, first two shapes, their dtypes) and GEMMs and
    // attention by their parameters; both sides are summed over the same key, since TraceLens
    // also keeps strides apart.
    auto sum_ours =
        [&](const std::function<bool(const std::string&, const json&, const json&)>& matches) {
          OpFigures sum;
          for (const auto& [key, f] : ours) {
            const auto& [name, dims, dtypes] = key;
            if (dims.empty() || !matches(name, json::parse(dims), json::parse(dtypes))) continue;
            sum.calls += f.calls;
            sum.device_ns += f.device_ns;
            sum.transfer_ns += f.transfer_ns;
          }
          return sum;
        };
    size_t compared = 0;
    for (const std::string table : {"bin_eltwise", "un_eltwise"}) {
      std::map<std::tuple<std::string, std::string, std::string, std::string>,
               std::pair<double, double>>
          theirs;
      for (const auto& row : ReadCsv(kReference + table + "_intersect_mi300.csv")) {
        const bool binary = table == "bin_eltwise";
        auto& t = theirs[{row.at("name"), row.at(binary ? "param: shape_in1" : "param: op_shape"),
                          binary ? row.at("param: shape_in2") : "",
                          row.at(binary ? "param: dtype_in1_in2_out" : "param: dtype_in_out")}];
        t.first += Number(row.at(prefix + "Kernel Time (µs)_sum"));
        t.second += Number(row.at(prefix + "name_count"));
      }
      for (const auto& [key, t] : theirs) {
        // Named copies: clang 14 lambdas cannot capture structured bindings.
        const std::string& name = std::get<0>(key);
        const std::string& shape1 = std::get<1>(key);
        const std::string& shape2 = std::get<2>(key);
        const std::string& dtypes_text = std::get<3>(key);
        // "('c10::BFloat16', 'float', None)": the inputs' dtypes, then the output's.
        std::vector<std::string> types;
        for (size_t at = 0; (at = dtypes_text.find('\'', at)) != std::string::npos;) {
          const size_t end = dtypes_text.find('\'', at + 1);
          types.push_back(dtypes_text.substr(at + 1, end - at - 1));
          at = end + 1;
        }
        const json dims1 = TupleDims(shape1);
        const std::optional<json> dims2 =
            shape2.empty() ? std::nullopt : std::optional<json>(TupleDims(shape2));
        const OpFigures sum =
            sum_ours([&](const std::string& n, const json& dims, const json& dtypes) {
              if (n != name || dims.empty() || dims[0] != dims1 || dtypes.empty() ||
                  dtypes[0] != types.at(0)) {
                return false;
              }
              if (!dims2) return true;
              return dims.size() > 1 && dims[1] == *dims2 && dtypes.size() > 1 &&
                     dtypes[1] == types.at(1);
            });
        ExpectMicroseconds(sum.device_ns + sum.transfer_ns, t.first, t.second, name + " " + shape1);
        EXPECT_EQ(sum.calls, static_cast<uint64_t>(t.second)) << name << " " << shape1;
        ++compared;
      }
    }
    for (const auto& row : ReadCsv(kReference + "GEMM_intersect_mi300.csv")) {
      const json dims = json::parse(row.at("h100::Input Dims_first"));
      const OpFigures sum = sum_ours([&](const std::string& n, const json& d, const json&) {
        return n == row.at("name") && d == dims;
      });
      const double calls = Number(row.at(prefix + "name_count"));
      ExpectMicroseconds(sum.device_ns + sum.transfer_ns,
                         Number(row.at(prefix + "Kernel Time (µs)_sum")), calls, row.at("name"));
      EXPECT_EQ(sum.calls, static_cast<uint64_t>(calls));
      ++compared;
    }
    for (const auto& row : ReadCsv(kReference + "SDPA_fwd_intersect_mi300.csv")) {
      const OpFigures sum = sum_ours(
          [&](const std::string& n, const json&, const json&) { return n == row.at("name"); });
      const double calls = Number(row.at(prefix + "name_count"));
      ExpectMicroseconds(sum.device_ns + sum.transfer_ns,
                         Number(row.at(prefix + "Kernel Time (µs)_sum")), calls, row.at("name"));
      EXPECT_EQ(sum.calls, static_cast<uint64_t>(calls));
      ++compared;
    }
    EXPECT_GE(compared, 22u);
  }
}

TEST_F(CompareTraceLens, FlopsAreTraceLensLessBiasAndCausalDiscount) {
  const json& result = *result_;
  std::multiset<double> per_call;  // our GEMM and attention rows' FLOPs per call
  for (const json& row : result["rows"]) {
    if (row["status"] != "matched" || row["origin"] != "op") continue;
    const json& a = row["sides"][0];
    const json& b = row["sides"][1];
    if (row["category"] == "gemm" || row["category"] == "attention") {
      ASSERT_FALSE(a["flops"].is_null()) << row["key"];
      // The same shapes on both sides: the same work.
      EXPECT_EQ(a["flops"], b["flops"]) << row["key"];
      EXPECT_EQ(a["bytes"], b["bytes"]) << row["key"];
      per_call.insert(a["flops"].get<double>() / a["calls_with_flops"].get<double>());
    }
  }
  for (const auto& row : ReadCsv(kReference + "GEMM_intersect_mi300.csv")) {
    const double m = Number(row.at("param: M")), n = Number(row.at("param: N"));
    const double expected =
        Number(row.at("h100::GFLOPS_first")) * 1e9 - (row.at("param: bias") == "True" ? m * n : 0);
    EXPECT_TRUE(std::any_of(per_call.begin(), per_call.end(),
                            [&](double f) { return std::abs(f - expected) <= 1e-9 * expected; }))
        << row.at("name") << " M=" << m << " N=" << n << ": " << expected;
  }
  for (const auto& row : ReadCsv(kReference + "SDPA_fwd_intersect_mi300.csv")) {
    ASSERT_EQ(row.at("param: causal"), "True");
    const double expected = 2 * Number(row.at("h100::GFLOPS_first")) * 1e9;
    EXPECT_TRUE(std::any_of(per_call.begin(), per_call.end(), [&](double f) {
      return std::abs(f - expected) <= 1e-9 * expected;
    })) << expected;
  }
}

// Every pair: on each side the rows add up to its kernel time, which is `tensormorph kernels`'s;
// the categories add up too; the H100 is faster on attention and GEMM of every model.
TEST(ComparePairs, RowsAndCategoriesAddUpToKernelTime) {
  for (const char* model : {"qwen1.5-0.5b", "timesformer", "owlv2-large"}) {
    SCOPED_TRACE(model);
    const std::vector<std::string> paths = {PairPath("h100", model), PairPath("mi300", model)};
    for (const char* by : {"shape", "op", "category"}) {
      const json result = Compare({paths[0], paths[1], "--by", by});
      ASSERT_EQ(result["schema"], "tensormorph.compare/1");
      for (size_t side = 0; side < 2; ++side) {
        int64_t rows_ns = 0, categories_ns = 0, matched_ns = 0;
        for (const json& row : result["rows"]) {
          const json& cell = row["sides"][side];
          if (cell.is_null()) continue;
          rows_ns += cell["device_ns"].get<int64_t>();
          if (row["status"] == "matched") matched_ns += cell["device_ns"].get<int64_t>();
        }
        for (const json& category : result["categories"]) {
          categories_ns += category["sides"][side]["device_ns"].get<int64_t>();
        }
        const json& totals = result["sides"][side];
        EXPECT_EQ(rows_ns, totals["kernel_ns"]) << by;
        EXPECT_EQ(categories_ns, totals["kernel_ns"]) << by;
        EXPECT_EQ(matched_ns, totals["matched_kernel_ns"]) << by;
        // The kernel durations of the trace, summed here from its events.
        int64_t trace_ns = 0;
        if (std::string(by) == "shape") {
          const json trace = ReadTrace(paths[side]);
          for (const json& e : trace["traceEvents"]) {
            if (e.value("cat", "") == "kernel") {
              trace_ns += std::llround(e["dur"].get<double>() * 1000);
            }
          }
          EXPECT_EQ(trace_ns, totals["kernel_ns"]);
        }
      }
    }
  }
}

// Two different models (Qwen on the H100, TimeSformer on the MI300X) share no op with the same
// shapes: the table is drawn, but no verdict ("gemm 4.77x slower" of unrelated work), and a
// warning says why. The same model on both GPUs still gets its verdict.
TEST(ComparePairs, DifferentWorkloadsGetNoVerdict) {
  const std::vector<std::string> unrelated = {PairPath("h100", "qwen1.5-0.5b"),
                                              PairPath("mi300", "timesformer")};
  RunResult r = RunTensormorph({"compare", "--format", "json", unrelated[0], unrelated[1]});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json doc = json::parse(r.out);
  for (const json& side : doc["sides"]) {
    // The test's own reading: the share of each side's kernel time in matched rows.
    int64_t matched = 0;
    for (const json& row : doc["rows"]) {
      const json& cell = row["sides"][side["input"].get<size_t>()];
      if (row["status"] == "matched" && !cell.is_null())
        matched += cell["device_ns"].get<int64_t>();
    }
    EXPECT_LT(2 * matched, side["kernel_ns"].get<int64_t>());
  }
  EXPECT_EQ(doc["verdict"], "");
  ASSERT_EQ(doc["warnings"].size(), 1u) << doc["warnings"];
  EXPECT_NE(doc["warnings"][0].get<std::string>().find("do not look like the same workload"),
            std::string::npos);
  EXPECT_NE(r.err.find("warning: "), std::string::npos) << r.err;
  RunResult table = RunTensormorph({"compare", "--quiet", unrelated[0], unrelated[1]});
  EXPECT_EQ(table.out.find(" slower"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("No verdict: "), std::string::npos) << table.out;

  const json same = Compare({PairPath("h100", "qwen1.5-0.5b"), PairPath("mi300", "qwen1.5-0.5b")});
  EXPECT_NE(same["verdict"], "");
  EXPECT_TRUE(same["warnings"].empty());
}

TEST(ComparePairs, RefusesOneTraceAndTooManyLabels) {
  const std::string path = PairPath("h100", "qwen1.5-0.5b");
  RunResult one = RunTensormorph({"compare", path});
  EXPECT_EQ(one.exit_code, 2) << one.Describe();
  EXPECT_NE(one.err.find("compare needs at least two traces"), std::string::npos) << one.err;
  RunResult labels = RunTensormorph({"compare", path, path, "--label", "a,b,c"});
  EXPECT_EQ(labels.exit_code, 2) << labels.Describe();
  EXPECT_NE(labels.err.find("3 labels for 2 traces"), std::string::npos) << labels.err;
}

}  // namespace TM_UNITY_ID
}  // namespace
