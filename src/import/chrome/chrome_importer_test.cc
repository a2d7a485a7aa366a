#include "import/chrome/chrome_importer.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

const std::string kData = TM_SHARED_DATA "/kineto/";

Trace Load(const std::string& path, int threads, size_t chunk_bytes = 32 << 20) {
  ImportOptions options;
  options.threads = threads;
  options.chunk_bytes = chunk_bytes;
  StatusOr<Trace> trace = LoadTrace(path, options);
  EXPECT_TRUE(trace.ok()) << path << ": " << trace.status().message();
  return trace.ok() ? std::move(trace).value() : Trace();
}

std::vector<std::string> AllSamples() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kData)) {
    if (entry.path().string().ends_with(".json.gz")) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Rows compared field by field, with strings compared by content (ids may differ).
template <typename Row>
void ExpectSameRows(const Trace& a, const Trace& b, const std::vector<Row>& ra,
                    const std::vector<Row>& rb, const char* what) {
  ASSERT_EQ(ra.size(), rb.size()) << what;
  for (size_t i = 0; i < ra.size(); ++i) {
    EXPECT_EQ(ra[i].start_ns, rb[i].start_ns) << what << " " << i;
    EXPECT_EQ(ra[i].duration_ns, rb[i].duration_ns) << what << " " << i;
    EXPECT_EQ(a.str(ra[i].name), b.str(rb[i].name)) << what << " " << i;
  }
}

// The parallel importer must give the same model whatever the thread count and chunk size.
TEST(ChromeImporter, SameResultForAnyThreadCountAndChunkSize) {
  const std::vector<std::string> samples = AllSamples();
  ASSERT_GE(samples.size(), 17u);
  for (const std::string& path : samples) {
    SCOPED_TRACE(path);
    Trace one = Load(path, 1);
    Trace many = Load(path, 4, 64 << 10);  // many small chunks, parsed out of order
    ExpectSameRows(one, many, one.kernels, many.kernels, "kernels");
    ExpectSameRows(one, many, one.transfers, many.transfers, "transfers");
    ExpectSameRows(one, many, one.api_calls, many.api_calls, "api calls");
    ExpectSameRows(one, many, one.slices, many.slices, "slices");
    for (size_t i = 0; i < std::min(one.kernels.size(), many.kernels.size()); ++i) {
      EXPECT_EQ(one.kernels[i].link.correlation, many.kernels[i].link.correlation);
      EXPECT_EQ(one.kernels[i].device, many.kernels[i].device);
      EXPECT_EQ(one.kernels[i].stream, many.kernels[i].stream);
    }
    EXPECT_EQ(one.flows.size(), many.flows.size());
    EXPECT_EQ(one.warnings, many.warnings);
    EXPECT_EQ(one.span_start_ns, many.span_start_ns);
    EXPECT_EQ(one.span_end_ns, many.span_end_ns);
  }
}

// Expected values computed with Python's json + Decimal over the raw file:
// baseTimeNanoseconds + ts * 1000 of the earliest kernel.
TEST(ChromeImporter, AddsBaseTimeToExactNanoseconds) {
  Trace t = Load(kData + "hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 0);
  ASSERT_EQ(t.base_time_ns, 1735632360000000000);
  ASSERT_FALSE(t.kernels.empty());
  EXPECT_EQ(t.kernels.front().start_ns, 1739836029603771648);
  EXPECT_EQ(t.kernels.front().duration_ns, 6880);
  EXPECT_EQ(t.span_start_ns, 1739836029603187439);
  EXPECT_EQ(t.span_end_ns, 1739836029612770525);
}

// roctracer numbers GPUs after the CPU agents: the kernels' pid 2 is not device ordinal 2.
TEST(ChromeImporter, RocmDevicesKeepTheirAgentIdWithoutGuessingTheOrdinal) {
  Trace t = Load(kData + "hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 0);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].backend, Backend::kRocm);
  EXPECT_EQ(t.devices[0].trace_id, 2);
  EXPECT_EQ(t.devices[0].index, -1);
  EXPECT_EQ(t.devices[0].name, "AMD Radeon Graphics");  // all 4 described devices are alike
  EXPECT_EQ(t.devices[0].sm_count, 104);
  EXPECT_EQ(t.described_device_count, 4);
}

TEST(ChromeImporter, CudaDevicesAreTheirOrdinal) {
  Trace t = Load(kData + "hta/alexnet_a100_cuda_sync_trace.json.gz", 0);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].backend, Backend::kCuda);
  EXPECT_EQ(t.devices[0].index, 0);
  EXPECT_EQ(t.devices[0].name, "NVIDIA A100-PG509-200");
  EXPECT_EQ(t.devices[0].compute_major, 8);
  EXPECT_EQ(t.devices[0].sm_count, 108);
  EXPECT_EQ(t.rank, 0);
  // cuda_sync events are runtime-side API rows, not kernels (41 in the file).
  EXPECT_EQ(t.counts.sync_events, 41u);
}

TEST(ChromeImporter, UnknownAcceleratorIsBackendOther) {
  Trace t = Load(kData + "hta/mtia_inference_rank_0.json.gz", 0);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].backend, Backend::kOther);
  EXPECT_EQ(t.devices[0].name, "ARTEMIS");
  EXPECT_TRUE(t.HasBackend(Backend::kOther));
  EXPECT_FALSE(t.HasBackend(Backend::kCuda));
}

TEST(ChromeImporter, Kineto2021FormatWithStringTids) {
  Trace t = Load(kData + "hta/inference_rank_1_oldformat.json.gz", 0);
  EXPECT_EQ(t.format, "kineto");
  EXPECT_NE(t.format_version.find("2021"), std::string::npos);
  EXPECT_EQ(t.kernels.size(), 4u);
  EXPECT_EQ(t.rank, 1);
  EXPECT_TRUE(t.HasBackend(Backend::kCuda));
}

TEST(ChromeImporter, CpuOnlyTraceHasNoDevices) {
  Trace t = Load(kData + "hta/cpu_only_rank34.pt.trace.json.gz", 0);
  EXPECT_TRUE(t.kernels.empty());
  EXPECT_TRUE(t.devices.empty());
  EXPECT_EQ(t.backends, std::vector<Backend>{Backend::kCpu});
  EXPECT_EQ(t.rank, 34);
  EXPECT_EQ(t.world_size, 300);
}

TEST(ChromeImporter, LegacyAutogradExport) {
  Trace t = Load(TM_SOURCE_DIR "/tests/data/legacy_autograd_profile.json", 0);
  EXPECT_EQ(t.format, "pytorch-autograd");
  EXPECT_EQ(t.counts.ops, 4u);
  ASSERT_EQ(t.slices.size(), 4u);
  EXPECT_EQ(t.str(t.slices[0].name), "aten::linear");
  EXPECT_EQ(t.slices[0].start_ns, 1000);
  EXPECT_EQ(t.slices[0].duration_ns, 52500);
  EXPECT_TRUE(t.kernels.empty());
}

TEST(ChromeImporter, SniffsJsonTraces) {
  chrome::ChromeImporter importer;
  EXPECT_EQ(importer.Sniff(R"({"schemaVersion": 1, "traceEvents": [)"), 100);
  EXPECT_GT(importer.Sniff(R"([{"name": "x", "ph": "X")"), 50);
  EXPECT_EQ(importer.Sniff("hello"), 0);
  EXPECT_EQ(importer.Sniff(""), 0);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
