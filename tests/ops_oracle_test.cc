// End-to-end checks of `tensormorph ops` against an independent walk of the same trace files.
//
// The walk (tests/support/kineto_events.h: zlib + nlohmann-json, exact µs text → ns) applies the
// attribution rule as documented, with a plain search instead of the product's parent links:
//   * a kernel's launch is the cuda_runtime / cuda_driver event with the same correlation id;
//   * its op is the cpu_op on the launch's (pid, tid) whose [ts, ts + dur] holds the launch's ts,
//     the latest-starting one when several do (the innermost); without one, the innermost
//     user_annotation other than ProfilerStep#N;
//   * a kernel is a graph kernel when its launch's name contains "GraphLaunch".
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::FieldNanos;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

struct HostRange {
  json pid, tid;
  int64_t start_ns = 0, end_ns = 0;
  std::string name;
};

struct OpExpectation {
  uint64_t calls = 0;
  int64_t host_ns = 0;
  uint64_t kernels = 0;
  int64_t device_ns = 0;
  uint64_t graph_kernels = 0;
};

struct Attribution {
  std::map<std::string, OpExpectation> by_name;  // ops and annotations that launched kernels
  uint64_t kernels = 0, attributed = 0, graph = 0, no_op = 0, no_launch = 0;
};

fs::path Shared(const std::string& rel) {
  return fs::path(TM_SHARED_DATA) / rel;
}

using RangesByThread = std::map<std::string, std::vector<HostRange>>;

std::string ThreadKey(const json& pid, const json& tid) {
  return pid.dump() + "/" + tid.dump();
}

// Innermost range on (pid, tid) holding t: the latest start, then the shortest.
const HostRange* Innermost(const RangesByThread& by_thread, const json& pid, const json& tid,
                           int64_t t) {
  const HostRange* best = nullptr;
  auto thread = by_thread.find(ThreadKey(pid, tid));
  if (thread == by_thread.end()) return nullptr;
  for (const HostRange& r : thread->second) {
    if (r.start_ns > t || t > r.end_ns) continue;
    if (best == nullptr || r.start_ns > best->start_ns ||
        (r.start_ns == best->start_ns && r.end_ns < best->end_ns)) {
      best = &r;
    }
  }
  return best;
}

Attribution Walk(const fs::path& path) {
  std::string error;
  const json doc = tensormorph::testing::ReadTraceExact(path, &error);
  EXPECT_EQ(error, "") << path;
  RangesByThread ops, annotations;
  std::map<uint64_t, HostRange> launches;  // by correlation
  std::vector<const json*> kernels;
  Attribution out;
  for (const json& e : doc.at("traceEvents")) {
    if (e.value("ph", "") != "X") continue;
    const std::string cat = e.value("cat", "");
    const std::string name = e.value("name", "");
    HostRange r{e.at("pid"), e.at("tid"), *FieldNanos(e.at("ts")), 0, name};
    r.end_ns = r.start_ns + *FieldNanos(e.at("dur"));
    if (cat == "cpu_op") {
      ops[ThreadKey(r.pid, r.tid)].push_back(r);
      OpExpectation& x = out.by_name[name];
      ++x.calls;
      x.host_ns += r.end_ns - r.start_ns;
    } else if (cat == "user_annotation" && name.rfind("ProfilerStep#", 0) != 0) {
      annotations[ThreadKey(r.pid, r.tid)].push_back(r);
    } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
      launches.emplace(e.at("args").at("correlation").get<uint64_t>(), r);
    } else if (cat == "kernel") {
      kernels.push_back(&e);
    }
  }
  std::map<const HostRange*, bool> annotation_counted;
  for (const json* k : kernels) {
    ++out.kernels;
    auto launch = launches.find(k->at("args").at("correlation").get<uint64_t>());
    if (launch == launches.end()) {
      ++out.no_launch;
      continue;
    }
    const HostRange& call = launch->second;
    const HostRange* op = Innermost(ops, call.pid, call.tid, call.start_ns);
    if (op == nullptr) {
      op = Innermost(annotations, call.pid, call.tid, call.start_ns);
      if (op != nullptr && !annotation_counted[op]) {
        annotation_counted[op] = true;
        ++out.by_name[op->name].calls;
        out.by_name[op->name].host_ns += op->end_ns - op->start_ns;
      }
    }
    if (op == nullptr) {
      ++out.no_op;
      continue;
    }
    const bool graph = call.name.find("GraphLaunch") != std::string::npos;
    OpExpectation& x = out.by_name[op->name];
    ++out.attributed;
    ++x.kernels;
    x.device_ns += *FieldNanos(k->at("dur"));
    x.graph_kernels += graph;
    out.graph += graph;
  }
  return out;
}

json OpsJson(const std::vector<std::string>& args) {
  std::vector<std::string> full = {"ops", "--format", "json"};
  full.insert(full.end(), args.begin(), args.end());
  const RunResult run = RunTensormorph(full);
  EXPECT_EQ(run.exit_code, 0) << run.err;
  return json::parse(run.out);
}

void ExpectAttributionMatches(const std::string& rel) {
  const Attribution expected = Walk(Shared(rel));
  const json doc = OpsJson({Shared(rel).string()});
  EXPECT_EQ(doc["kernels"], expected.kernels);
  EXPECT_EQ(doc["attributed_kernels"], expected.attributed);
  EXPECT_EQ(doc["graph_kernels"], expected.graph);
  std::map<std::string, const json*> rows;
  for (const json& row : doc["rows"]) {
    if (row["origin"] == "op" || row["origin"] == "annotation") {
      EXPECT_TRUE(rows.emplace(row["name"].get<std::string>(), &row).second) << row["name"];
    } else if (row["origin"] == "no_op") {
      EXPECT_EQ(row["kernels"], expected.no_op);
    } else {
      EXPECT_EQ(row["kernels"], expected.no_launch);
    }
  }
  for (const auto& [name, x] : expected.by_name) {
    SCOPED_TRACE(rel + ": " + name);
    ASSERT_TRUE(rows.count(name));
    const json& row = *rows[name];
    EXPECT_EQ(row["calls"], x.calls);
    EXPECT_EQ(row["host_ns"], x.host_ns);
    EXPECT_EQ(row["kernels"], x.kernels);
    EXPECT_EQ(row["device_ns"], x.device_ns);
    EXPECT_EQ(row["graph_kernels"], x.graph_kernels);
  }
  EXPECT_EQ(rows.size(), expected.by_name.size());
}

TEST(OpsCommand, AttributionMatchesIndependentWalkOnAlexnet) {
  ExpectAttributionMatches("kineto/hta/alexnet_a100_cuda_sync_trace.json.gz");
  // Hand count from the trace: every one of its 79 kernels has a launch inside an aten op.
  const json doc = OpsJson({Shared("kineto/hta/alexnet_a100_cuda_sync_trace.json.gz").string()});
  EXPECT_EQ(doc["kernels"], 79);
  EXPECT_EQ(doc["attributed_kernels"], 79);
}

TEST(OpsCommand, HipGraphReplayIsAttributedToTheAnnotationAroundTheLaunch) {
  const std::string rel = "kineto/tracelens/rocm_sglang_qwen3-8b_decode_hipgraph.json.gz";
  ExpectAttributionMatches(rel);
  // One hipGraphLaunch (correlation 92178) replays 544 kernels inside SGLang's
  // "step[DECODE bs=32]" record_function range; no aten op encloses the launch.
  const json doc = OpsJson({Shared(rel).string()});
  EXPECT_EQ(doc["graph_kernels"], 544);
  bool found = false;
  for (const json& row : doc["rows"]) {
    if (row["name"] != "step[DECODE bs=32]") continue;
    found = true;
    EXPECT_EQ(row["origin"], "annotation");
    EXPECT_EQ(row["graph_kernels"], 544);
    ASSERT_EQ(row["placements"].size(), 1u);
    EXPECT_EQ(row["placements"][0]["backend"], "rocm");
  }
  EXPECT_TRUE(found);
}

TEST(OpsCommand, CudaGraphTraceKeepsUnlaunchedKernelsInTheirOwnRow) {
  // 546 kernels of this trace have correlation ids whose launch calls fell before the profiling
  // window: they are reported as "no launch", not dropped or guessed.
  ExpectAttributionMatches("kineto/hta/trace_diff/test.json.gz");
}

TEST(OpsCommand, MatmulFlopsMatchTheRecordedShapes) {
  // Every aten::mm call of this trace records two 2-D operands: 2*M*K*N FLOPs each
  // (torch.utils.flop_counter's convention), summed here straight from "Input Dims".
  const fs::path path = Shared("kineto/hta/trace_diff/test.json.gz");
  std::string error;
  const json trace = tensormorph::testing::ReadTraceExact(path, &error);
  ASSERT_EQ(error, "");
  double flops = 0;
  uint64_t calls = 0;
  for (const json& e : trace.at("traceEvents")) {
    if (e.value("cat", "") != "cpu_op" || e.value("name", "") != "aten::mm") continue;
    const json& dims = e.at("args").at("Input Dims");
    ASSERT_EQ(dims.size(), 2u);
    ASSERT_EQ(dims[0][1], dims[1][0]);
    flops += 2.0 * dims[0][0].get<double>() * dims[0][1].get<double>() * dims[1][1].get<double>();
    ++calls;
  }
  ASSERT_GT(calls, 0u);
  const json doc = OpsJson({path.string()});
  bool found = false;
  for (const json& row : doc["rows"]) {
    if (row["name"] != "aten::mm") continue;
    found = true;
    EXPECT_EQ(row["calls"], calls);
    EXPECT_EQ(row["calls_with_flops"], calls);
    EXPECT_NEAR(row["flops"].get<double>(), flops, flops * 1e-12);
    // The rate is over the device time of the calls that have FLOPs: here all of them.
    const double rate = flops / (row["device_inclusive_ns"].get<double>() * 1e-9);
    EXPECT_NEAR(row["achieved_flops_per_s"].get<double>(), rate, rate * 1e-9);
  }
  EXPECT_TRUE(found);
}

}  // namespace TM_UNITY_ID
}  // namespace
