// `tensormorph diff` on traces with a quantized clock (WebGPU timestamp queries): a per-call
// change smaller than the clock's resolution is not reported as a change, from traces and from
// saved baselines alike; a change of whole clock steps still is.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

constexpr int64_t kQuantum = 65536;

// A native trace with a 65,536 ns clock: `matmul` twice with the given durations, `relu` once.
std::string WriteTrace(const fs::path& dir, const std::string& name, int64_t first_ns,
                       int64_t second_ns, int64_t relu_ns) {
  const std::string path = (dir / name).string();
  std::ofstream out(path);
  out << "{\"schema\":\"tensormorph.trace/1\",\"timestamp_resolution_ns\":" << kQuantum << "}\n"
      << "{\"type\":\"device\",\"id\":0,\"backend\":\"webgpu\",\"name\":\"WebGPU\"}\n"
      << "{\"type\":\"kernel\",\"name\":\"matmul\",\"device\":0,\"start_ns\":0,\"duration_ns\":"
      << first_ns << "}\n"
      << "{\"type\":\"kernel\",\"name\":\"matmul\",\"device\":0,\"start_ns\":" << 10 * kQuantum
      << ",\"duration_ns\":" << second_ns << "}\n"
      << "{\"type\":\"kernel\",\"name\":\"relu\",\"device\":0,\"start_ns\":" << 20 * kQuantum
      << ",\"duration_ns\":" << relu_ns << "}\n";
  return path;
}

json Row(const json& doc, const std::string& name) {
  for (const json& row : doc["rows"]) {
    if (row["kind"] == "kernel" && row["name"] == name) return row;
  }
  return json();
}

TEST(DiffResolution, SubResolutionChangesAreUnchanged) {
  const fs::path dir = fs::temp_directory_path() / "tm_diff_resolution";
  fs::create_directories(dir);
  // matmul: mean 65,536 -> 98,304 ns per call (+50 %, but 32,768 ns: half a clock step);
  // relu: 65,536 -> 196,608 ns (+200 %, two whole clock steps).
  const std::string base = WriteTrace(dir, "base.ndjson", kQuantum, kQuantum, kQuantum);
  const std::string next = WriteTrace(dir, "new.ndjson", kQuantum, 2 * kQuantum, 3 * kQuantum);
  const std::string saved = (dir / "base.baseline.json").string();
  RunResult save = RunTensormorph({"baseline", "save", "--quiet", base, "-o", saved});
  ASSERT_EQ(save.exit_code, 0) << save.Describe();
  EXPECT_EQ(json::parse(std::ifstream(saved))["timestamp_resolution_ns"], kQuantum);
  for (const std::string& reference : {base, saved}) {
    SCOPED_TRACE(reference);
    RunResult r = RunTensormorph({"diff", "--format", "json", "--quiet", reference, next});
    ASSERT_EQ(r.exit_code, 0) << r.Describe();
    const json doc = json::parse(r.out);
    const json matmul = Row(doc, "matmul"), relu = Row(doc, "relu");
    ASSERT_FALSE(matmul.is_null()) << r.out;
    EXPECT_EQ(matmul["status"], "unchanged") << matmul;
    EXPECT_EQ(matmul["decided_by"], "resolution") << matmul;
    ASSERT_FALSE(relu.is_null()) << r.out;
    EXPECT_EQ(relu["status"], "regressed") << relu;
  }
  fs::remove_all(dir);
}

}  // namespace TM_UNITY_ID
}  // namespace
