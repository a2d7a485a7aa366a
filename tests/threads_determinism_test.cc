// The parallel importer gives the same Trace whatever the thread count and chunk size: every
// sample of ../shared/data and every fixture of tests/data is imported with one thread and with
// several threads on small chunks (many chunks to split and merge), and the two Traces must be
// equal in every table and field (support/trace_compare.h), or fail with the same error.
// scripts/sanitize.sh also runs these tests under ThreadSanitizer.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "support/trace_compare.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;

// Trace files (and trace folders: rocprof-compute workloads) under the data folders; licenses,
// provenance notes and command lines are left out.
std::vector<std::string> Samples() {
  std::vector<std::string> out;
  for (const std::string& root :
       {std::string(TM_SHARED_DATA), std::string(TM_SOURCE_DIR) + "/tests/data"}) {
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root)) {
      const std::string path = entry.path().string();
      if (path.find("/licenses/") != std::string::npos) continue;
      if (entry.is_directory()) {
        if (fs::exists(entry.path() / "pmc_perf.csv") ||
            fs::exists(entry.path() / "pmc_perf_0.csv")) {
          out.push_back(path);
        }
        continue;
      }
      const std::string ext = entry.path().extension().string();
      if (ext == ".md" || ext == ".txt" || ext == ".yaml") continue;
      out.push_back(path);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Outcome(const StatusOr<Trace>& trace) {
  return trace.ok() ? "ok" : trace.status().message();
}

class ThreadsDeterminism : public ::testing::TestWithParam<std::string> {};

TEST_P(ThreadsDeterminism, OneThreadEqualsSeveral) {
  const std::string& path = GetParam();
  ImportOptions serial;
  serial.threads = 1;
  ImportOptions parallel;
  parallel.threads = 4;
  parallel.chunk_bytes = 64 << 10;
  StatusOr<Trace> a = LoadTrace(path, serial);
  StatusOr<Trace> b = LoadTrace(path, parallel);
  ASSERT_EQ(Outcome(a), Outcome(b)) << path;
  if (a.ok()) {
    EXPECT_TRUE(testing::SameTrace(*a, *b)) << path;
  }
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name =
      fs::relative(info.param, fs::path(info.param).parent_path().parent_path()).string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name + "_" + std::to_string(info.index);
}

INSTANTIATE_TEST_SUITE_P(Samples, ThreadsDeterminism, ::testing::ValuesIn(Samples()), TestName);

TEST(ThreadsDeterminismSamples, FoundEverySampleFolder) {
  // Guards against a moved data folder silently shrinking the test to nothing.
  const std::vector<std::string> samples = Samples();
  EXPECT_GE(samples.size(), 60u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
