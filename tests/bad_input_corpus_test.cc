// The bad-input corpus (tests/bad_inputs/, one expectation per file in expectations.json) and
// generated hostile inputs: every real sample of each format cut at many offsets, and gzip bombs
// against --max-input-size. Each input must get its documented answer: exit 3 with
// `tensormorph: error: FILE...` and the expected message, or exit 0 with the expected warning
// and a parseable result — never a crash, a hang or a sanitizer report.

#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/files.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const fs::path kCorpus = fs::path(TM_SOURCE_DIR) / "tests" / "bad_inputs";

json Expectations() {
  return json::parse(ReadFile(kCorpus / "expectations.json"));
}

// No signal, no hang, no sanitizer or C++ runtime report.
void ExpectNoCrash(const RunResult& r) {
  EXPECT_TRUE(r.Clean()) << r.Describe();
  for (const char* report : {"Sanitizer", "runtime error:", "terminate called", "Assertion"}) {
    EXPECT_EQ(r.err.find(report), std::string::npos) << r.Describe();
  }
}

// exit 3 and the error line names the file; or exit 0, parseable JSON and `message` among the
// warnings.
void ExpectAnswer(const RunResult& r, const std::string& file, int exit_code,
                  const std::string& message) {
  ExpectNoCrash(r);
  ASSERT_EQ(r.exit_code, exit_code) << r.Describe();
  if (exit_code == 3) {
    EXPECT_NE(r.err.find("tensormorph: error: " + file), std::string::npos) << r.Describe();
  } else {
    EXPECT_FALSE(json::parse(r.out, nullptr, false).is_discarded()) << r.Describe();
  }
  if (!message.empty()) {
    // `info` reports warnings in its output, the other commands on stderr.
    const json out = json::parse(r.out, nullptr, false);
    const std::string warnings = out.is_discarded() ? "" : out.dump();
    const std::string quoted = json(message).dump();  // as it appears inside a JSON string
    EXPECT_TRUE(r.err.find(message) != std::string::npos ||
                warnings.find(quoted.substr(1, quoted.size() - 2)) != std::string::npos)
        << message << r.Describe();
  }
}

class BadInputCorpus : public ::testing::TestWithParam<std::string> {};

TEST_P(BadInputCorpus, DocumentedAnswer) {
  const json expectation = Expectations().at(GetParam());
  const std::string file = (kCorpus / GetParam()).string();
  for (const std::string command : {"info", "kernels"}) {
    std::vector<std::string> args = {command, "--format", "json", "--quiet"};
    for (const json& extra : expectation.value("args", json::array())) {
      args.push_back(extra.get<std::string>());
    }
    args.push_back(file);
    SCOPED_TRACE(command);
    ExpectAnswer(RunTensormorph(args, 60), file, expectation.at("exit").get<int>(),
                 expectation.at("stderr").get<std::string>());
  }
}

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> out;
  for (const auto& entry : fs::directory_iterator(kCorpus)) {
    const std::string name = entry.path().filename().string();
    if (name != "expectations.json" && name != "README.md") out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Files, BadInputCorpus, ::testing::ValuesIn(CorpusFiles()), TestName);

TEST(BadInputCorpusManifest, EveryFileHasAnExpectationAndEveryExpectationAFile) {
  const json expectations = Expectations();
  const std::vector<std::string> files = CorpusFiles();
  for (const std::string& file : files) EXPECT_TRUE(expectations.contains(file)) << file;
  for (const auto& [file, expectation] : expectations.items()) {
    EXPECT_TRUE(fs::exists(kCorpus / file)) << file;
    EXPECT_TRUE(expectation.at("exit") == 0 || expectation.at("exit") == 3) << file;
    EXPECT_FALSE(expectation.at("why").get<std::string>().empty()) << file;
  }
  EXPECT_GE(files.size(), 30u);
}

// A real sample of each format, cut at 24 offsets spread over the file (and the first bytes):
// each cut is read up to the damage with a warning, or refused with an error naming the file.
struct CutSample {
  const char* name;
  std::string path;
};

class TruncatedSample : public ::testing::TestWithParam<CutSample> {};

TEST_P(TruncatedSample, EveryCutIsAnsweredCleanly) {
  const std::string text = ReadFile(GetParam().path);
  ASSERT_GT(text.size(), 64u) << GetParam().path;
  const fs::path dir = fs::temp_directory_path() / ("tm_cut_" + std::string(GetParam().name));
  fs::create_directories(dir);
  const fs::path original(GetParam().path);
  // Keep the name: some formats are told apart by it (rocprof siblings, .xplane.pb).
  const std::string file = (dir / original.filename()).string();
  std::vector<size_t> cuts = {1, 2, 7, 16, 63};
  for (int i = 1; i <= 24; ++i) cuts.push_back(text.size() * i / 25);
  int recovered = 0, refused = 0;
  for (size_t cut : cuts) {
    SCOPED_TRACE(cut);
    std::ofstream(file, std::ios::binary | std::ios::trunc) << text.substr(0, cut);
    const RunResult r = RunTensormorph({"kernels", "--format", "json", "--quiet", file}, 60);
    ExpectNoCrash(r);
    if (r.exit_code == 0) {
      EXPECT_FALSE(json::parse(r.out, nullptr, false).is_discarded()) << r.Describe();
      ++recovered;
    } else {
      EXPECT_EQ(r.exit_code, 3) << r.Describe();
      EXPECT_NE(r.err.find("tensormorph: error: " + file), std::string::npos) << r.Describe();
      ++refused;
    }
  }
  fs::remove_all(dir);
  EXPECT_EQ(recovered + refused, static_cast<int>(cuts.size()));
}

const std::string kData = TM_SHARED_DATA;
const std::string kFixtures = std::string(TM_SOURCE_DIR) + "/tests/data";

INSTANTIATE_TEST_SUITE_P(
    Formats, TruncatedSample,
    ::testing::Values(
        CutSample{"kineto_gz", kData + "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz"},
        CutSample{"kineto_json", kFixtures + "/legacy_autograd_profile.json"},
        CutSample{"nsys", kData + "/nvidia/nsys_sqlite/nsysai_mock_rtx3080_2026.1.sqlite"},
        CutSample{"ncu", kData + "/nvidia/ncu_csv/llmperfopt_k0001_ncu.details.csv"},
        CutSample{"rocprof", kData + "/other/rocprofv3/kernel_trace.csv"},
        CutSample{"rocprof_json", kFixtures + "/rocprofv3_results.json"},
        CutSample{"onnxruntime",
                  kData + "/other/onnxruntime/onnxruntime_profile_cpu_ort1.30.0_generated.json"},
        CutSample{"xctrace", kFixtures + "/xctrace/metal_gpu_intervals.xml"},
        CutSample{"xplane", kData + "/kineto/jax_xplane/jax08_mi300_conv3d.tw003.xplane.pb"},
        CutSample{"native_json", kFixtures + "/native/webgpu_timestamp_queries.json"},
        CutSample{"native_ndjson", kFixtures + "/native/webgpu_timestamp_queries.ndjson"},
        CutSample{"webgpu_tfjs", kFixtures + "/webgpu/tfjs_profile.json"},
        CutSample{"webgpu_log", kFixtures + "/webgpu/ort_web_console.log"}),
    [](const ::testing::TestParamInfo<CutSample>& info) { return std::string(info.param.name); });

// gzip of `size` bytes of `fill`, written with zlib's gz* API.
void WriteGzip(const std::string& path, size_t size, char fill, const std::string& prefix) {
  gzFile out = gzopen(path.c_str(), "wb9");
  ASSERT_NE(out, nullptr);
  gzwrite(out, prefix.data(), static_cast<unsigned>(prefix.size()));
  const std::string block(1 << 20, fill);
  for (size_t written = 0; written < size; written += block.size()) {
    gzwrite(out, block.data(), static_cast<unsigned>(std::min(block.size(), size - written)));
  }
  gzclose(out);
}

TEST(GzipBomb, StopsAtMaxInputSizeWithAClearError) {
  const fs::path dir = fs::temp_directory_path() / "tm_gzip_bomb";
  fs::create_directories(dir);
  const std::string bomb = (dir / "bomb.json.gz").string();
  // 512 MiB of spaces inside a trace's array: ~500 KB on disk.
  WriteGzip(bomb, size_t{512} << 20, ' ', "{\"traceEvents\": [");
  EXPECT_LT(fs::file_size(bomb), 1u << 20);
  const RunResult r = RunTensormorph({"kernels", "--quiet", "--max-input-size", "64M", bomb}, 60);
  ExpectAnswer(r, bomb, 3, "decompresses to more than 64.0 MiB (--max-input-size)");
  fs::remove_all(dir);
}

TEST(GzipBomb, PlainFileOverTheLimitIsRefusedBeforeReading) {
  const fs::path dir = fs::temp_directory_path() / "tm_plain_limit";
  fs::create_directories(dir);
  const std::string file = (dir / "big.json").string();
  std::ofstream(file) << "{\"traceEvents\": [" << std::string(3 << 20, ' ') << "]}";
  const RunResult r = RunTensormorph({"info", "--quiet", "--max-input-size", "1M", file}, 60);
  ExpectAnswer(r, file, 3, "the file holds more than 1.0 MiB (--max-input-size)");
  const RunResult unlimited =
      RunTensormorph({"info", "--quiet", "--max-input-size", "0", file}, 60);
  ExpectNoCrash(unlimited);
  EXPECT_EQ(unlimited.err.find("--max-input-size"), std::string::npos) << unlimited.Describe();
  const RunResult bad = RunTensormorph({"info", "--quiet", "--max-input-size", "lots", file}, 60);
  EXPECT_EQ(bad.exit_code, 2) << bad.Describe();
  fs::remove_all(dir);
}

}  // namespace TM_UNITY_ID
}  // namespace
