// compare's work categories on the shared training traces, against classifications written here
// from the kernel names in each trace file (read with zlib and nlohmann-json, no code of src/):
//  * communication: kernels whose name contains "nccl" or "rccl" in any case (HTA's kernel
//    types, which the timeline follows). compare's communication must equal their summed
//    durations, and the timeline's communication_ns the time they run, on every trace that has
//    any;
//  * on the RTX 2080 Ti MLP training (param, 40 iterations; every GEMM is a cuBLAS sgemm under
//    aten::addmm / aten::mm, forward or backward), compare's gemm must equal the summed
//    durations of the kernels named *sgemm*.
// Before this rule, kernels took the category of their outermost op, so communication under
// record_param_comms and DDP's hooks and backward GEMMs under autograd's evaluate_function were
// `other` (the demo trace: other 38 %, communication absent).

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <climits>
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
using tensormorph::testing::Gunzip;
using tensormorph::testing::ReadTraceExact;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// The trace's kernels whose lower-case name contains any of `parts`: their summed durations, and
// the time at least one of them runs on each device (pid), summed over the devices.
struct NamedKernels {
  int64_t total_ns = 0;
  int64_t busy_ns = 0;
};
NamedKernels KernelsNamed(const json& trace, std::initializer_list<const char*> parts) {
  NamedKernels out;
  std::map<std::string, std::vector<std::pair<int64_t, int64_t>>> by_device;
  for (const json& e : trace["traceEvents"]) {
    if (!e.is_object() || e.value("ph", "") != "X") continue;
    const std::string cat = e.value("cat", "");
    if (cat != "kernel" && cat != "Kernel") continue;
    const std::string name = Lower(e.value("name", ""));
    if (std::none_of(parts.begin(), parts.end(),
                     [&](const char* p) { return name.find(p) != std::string::npos; })) {
      continue;
    }
    const int64_t start = FieldNanos(e["ts"]).value_or(0), dur = FieldNanos(e["dur"]).value_or(0);
    out.total_ns += dur;
    by_device[e["pid"].dump()].emplace_back(start, start + dur);
  }
  for (auto& [device, spans] : by_device) {
    std::sort(spans.begin(), spans.end());
    int64_t end = INT64_MIN;
    for (const auto& [s, e] : spans) {
      if (e <= end) continue;
      out.busy_ns += e - std::max(s, end);
      end = e;
    }
  }
  return out;
}

json RunJson(const std::vector<std::string>& args) {
  RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out, nullptr, false);
}

// compare's category `name` on side 0 of `compare T T`, in ns.
int64_t CompareCategoryNanos(const json& compare, const std::string& name) {
  for (const json& c : compare["categories"]) {
    if (c["category"] == name) return c["sides"][0]["device_ns"].get<int64_t>();
  }
  return 0;
}

TEST(CompareCategories, CommunicationIsTheTimelinesOnEveryTraceWithCollectives) {
  size_t with_collectives = 0;
  for (const auto& entry : fs::recursive_directory_iterator(TM_SHARED_DATA "/kineto")) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || !path.ends_with(".json.gz")) continue;
    std::string error;
    // Parsed only when the text names a collective library at all (the largest traces do not).
    const std::string text = Lower(Gunzip(path, &error));
    ASSERT_TRUE(error.empty()) << path << ": " << error;
    if (text.find("nccl") == std::string::npos && text.find("rccl") == std::string::npos) continue;
    const json trace = ReadTraceExact(path, &error);
    ASSERT_TRUE(error.empty()) << path << ": " << error;
    const NamedKernels expected = KernelsNamed(trace, {"nccl", "rccl"});
    if (expected.total_ns == 0) continue;
    ++with_collectives;
    SCOPED_TRACE(path);
    // compare sums the communication kernels' durations; the timeline's communication_ns is the
    // time they run (HTA's comm/comp overlap works on it): the same kernels, equal where they
    // never overlap (on the A100 cudagraph rank two collectives' streams overlap by 2.5 ms).
    const json compare = RunJson({"compare", "--format", "json", "--quiet", path, path});
    EXPECT_EQ(CompareCategoryNanos(compare, "communication"), expected.total_ns);
    const json timeline = RunJson({"timeline", "--format", "json", "--quiet", path});
    int64_t timeline_ns = 0;
    for (const json& d : timeline["devices"]) timeline_ns += d["communication_ns"].get<int64_t>();
    EXPECT_EQ(timeline_ns, expected.busy_ns);
  }
  // The demo's A100 rank, HTA's trace_diff pair, its cudagraph rank, the DLRM ranks, ...
  EXPECT_GE(with_collectives, 12u);
}

TEST(CompareCategories, BackwardGemmsUnderAutogradAreGemm) {
  const std::string path = TM_SHARED_DATA "/kineto/legacy/param_rtx2080ti_linear_train.json.gz";
  std::string error;
  const json trace = ReadTraceExact(path, &error);
  ASSERT_TRUE(error.empty()) << error;
  const int64_t sgemm = KernelsNamed(trace, {"sgemm"}).total_ns;
  ASSERT_GT(sgemm, 0);
  const json compare = RunJson({"compare", "--format", "json", "--quiet", path, path});
  EXPECT_EQ(CompareCategoryNanos(compare, "gemm"), sgemm);
}

}  // namespace TM_UNITY_ID
}  // namespace
