// Itanium-mangled kernel names, end to end on the shared TraceLens HIP-graph decode trace
// (MI300X; four aiter / sgl_hip kernels arrive mangled, three of which demangle). The expected
// names come from this test's own reading of the file (zlib + nlohmann,
// tests/support/kineto_events.h) and from binutils' c++filt, not from src/.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "support/cxx_filt.h"
#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const std::string kTrace =
    TM_SHARED_DATA "/kineto/tracelens/rocm_sglang_qwen3-8b_decode_hipgraph.json.gz";

std::string Demangled(const std::string& symbol) {
  return tensormorph::testing::DemangledByCxxFilt(symbol);
}

// Kernel events (cat "kernel") of the file whose name starts with "_Z", with their counts.
std::map<std::string, int> MangledKernels() {
  std::string error;
  const std::string text = tensormorph::testing::Gunzip(kTrace, &error);
  EXPECT_TRUE(error.empty()) << error;
  const json doc = json::parse(text, nullptr, false);
  std::map<std::string, int> out;
  for (const json& e : doc["traceEvents"]) {
    if (e.value("cat", "") != "kernel") continue;
    const std::string name = e.value("name", "");
    if (name.rfind("_Z", 0) == 0) ++out[name];
  }
  return out;
}

json RunJson(const std::vector<std::string>& args) {
  const RunResult r = RunTensormorph(args);
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out, nullptr, false);
}

// The mangled kernels of the file that c++filt demangles (the sgl_hip one it leaves as is).
std::map<std::string, int> DemanglableKernels() {
  std::map<std::string, int> out;
  for (const auto& [name, count] : MangledKernels()) {
    if (!Demangled(name).empty()) out[name] = count;
  }
  return out;
}

TEST(DemangledNames, KernelsShowDemangledAndKeepMangled) {
  ASSERT_EQ(MangledKernels().size(), 4u);
  const std::map<std::string, int> mangled = DemanglableKernels();
  ASSERT_EQ(mangled.size(), 3u);
  const json doc = RunJson({"kernels", "--format", "json", "-q", kTrace});
  std::map<std::string, int> seen;
  for (const json& row : doc["rows"]) {
    const std::string name = row["name"];
    if (name.rfind("_Z", 0) == 0) {  // kept as written only when it does not demangle
      EXPECT_EQ(Demangled(name), "") << name;
      EXPECT_TRUE(row["mangled_name"].is_null());
    }
    if (!row["mangled_name"].is_string()) continue;
    const std::string raw = row["mangled_name"];
    EXPECT_EQ(name, Demangled(raw));
    seen[raw] = row["count"].get<int>();
  }
  EXPECT_EQ(seen, mangled);
}

TEST(DemangledNames, FilterAcceptsEitherSpelling) {
  // Three of the four are aiter::add_rmsnorm_quant_kernel instantiations.
  int expected = 0;
  for (const auto& [name, count] : DemanglableKernels()) {
    if (name.rfind("_ZN5aiter24add_rmsnorm_quant_kernel", 0) == 0) expected += count;
  }
  ASSERT_GT(expected, 0);
  for (const char* filter : {"_ZN5aiter24add_rmsnorm_quant_kernel", "aiter::add_rmsnorm_quant"}) {
    SCOPED_TRACE(filter);
    const json doc = RunJson({"kernels", "--format", "json", "-q", "--filter", filter, kTrace});
    EXPECT_EQ(doc["rows"].size(), 3u);
    EXPECT_EQ(doc["kernel_count"], expected);
  }
}

// A baseline saved with the mangled names (as tensormorph wrote them before demangling) still
// matches the same kernels.
TEST(DemangledNames, OldBaselinesWithMangledNamesMatch) {
  const fs::path dir = fs::temp_directory_path() / ("tm_demangle_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string saved = (dir / "base.json").string();
  ASSERT_EQ(RunTensormorph({"baseline", "save", "-q", kTrace, "-o", saved}).exit_code, 0);
  std::ifstream in(saved);
  json base = json::parse(in);
  int renamed = 0;
  for (json& row : base["kernels"]) {
    for (const auto& [raw, count] : DemanglableKernels()) {
      if (row["name"] == Demangled(raw)) {
        row["name"] = raw;
        ++renamed;
      }
    }
  }
  ASSERT_EQ(renamed, 3);
  std::ofstream(saved) << base.dump();
  const json diff = RunJson({"diff", saved, kTrace, "--format", "json", "-q"});
  for (const json& row : diff["rows"]) {
    EXPECT_EQ(row["status"], "unchanged") << row.dump();
  }
  fs::remove_all(dir);
}

}  // namespace TM_UNITY_ID
}  // namespace
