// End-to-end tests of `tensormorph devices`: the listing in every format, --match on the device
// names the sample traces report (read back through `tensormorph info`), --device-spec files,
// and the exit-code contract (2: usage error, 3: a spec file that cannot be read).

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;

using tensormorph::testing::RunResult;

class DevicesCli : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tm_devices_cli_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  RunResult Run(const std::vector<std::string>& args) {
    return tensormorph::testing::RunTensormorph(args, 60);
  }

  json RunJson(const std::vector<std::string>& args) {
    RunResult r = Run(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    json doc = json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    EXPECT_FALSE(doc.is_discarded()) << "not JSON:\n" << r.out.substr(0, 2000);
    return doc;
  }

  fs::path Write(const std::string& name, const std::string& text) {
    fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  fs::path dir_;
};

const char* const kMetricFields[] = {"fp64_flops_per_s",        "fp64_matrix_flops_per_s",
                                     "fp32_flops_per_s",        "fp32_matrix_flops_per_s",
                                     "tf32_matrix_flops_per_s", "fp16_matrix_flops_per_s",
                                     "bf16_matrix_flops_per_s", "fp8_matrix_flops_per_s",
                                     "int8_matrix_ops_per_s",   "memory_bandwidth_bytes_per_s",
                                     "compute_units",           "boost_clock_hz",
                                     "l2_cache_bytes",          "memory_bytes",
                                     "host_link_bytes_per_s"};

bool IsIntegerField(const std::string& field) {
  return field == "memory_bandwidth_bytes_per_s" || field == "compute_units" ||
         field == "boost_clock_hz" || field == "l2_cache_bytes" || field == "memory_bytes" ||
         field == "host_link_bytes_per_s";
}

const json* FindDevice(const json& doc, const std::string& key) {
  for (const json& d : doc["devices"]) {
    if (d["key"] == key) return &d;
  }
  return nullptr;
}

TEST_F(DevicesCli, JsonListingHasTheSchemaUnitsAndASourcePerFigure) {
  json doc = RunJson({"devices", "--format", "json"});
  ASSERT_TRUE(doc.is_object());
  EXPECT_EQ(doc["schema"], "tensormorph.devices/1");
  ASSERT_TRUE(doc["devices"].is_array());
  EXPECT_EQ(doc["device_count"], doc["devices"].size());
  EXPECT_GE(doc["devices"].size(), 40u);
  for (const json& d : doc["devices"]) {
    SCOPED_TRACE(d["key"].dump());
    for (const char* field : {"key", "name", "vendor", "backend", "architecture"}) {
      EXPECT_TRUE(d[field].is_string()) << field;
    }
    EXPECT_TRUE(d["aliases"].is_array() && !d["aliases"].empty());
    std::map<std::string, json> sources;
    for (const json& s : d["sources"]) {
      EXPECT_FALSE(s["source"].get<std::string>().empty());
      EXPECT_TRUE(s["confidence"] == "vendor" || s["confidence"] == "reported" ||
                  s["confidence"] == "derived" || s["confidence"] == "third-party" ||
                  s["confidence"] == "unconfirmed")
          << s["confidence"];
      sources[s["field"]] = s;
    }
    for (const char* field : kMetricFields) {
      ASSERT_TRUE(d.contains(field)) << field;
      const json& v = d[field];
      if (v.is_null()) {
        EXPECT_FALSE(sources.contains(field)) << field;
        continue;
      }
      EXPECT_TRUE(sources.contains(field)) << field << " has no source";
      EXPECT_TRUE(IsIntegerField(field) ? v.is_number_integer() : v.is_number_float()) << field;
      EXPECT_GT(v.get<double>(), 0) << field;
    }
  }
  const json* a100 = FindDevice(doc, "a100-sxm4-40gb");
  ASSERT_NE(a100, nullptr);
  EXPECT_EQ((*a100)["compute_units"], 108);
  EXPECT_EQ((*a100)["memory_bandwidth_bytes_per_s"], 1555000000000);
  // PCIe 4.0 x16: 16 GT/s x 16 lanes x 128/130 encoding / 8 bits per direction, rounded.
  EXPECT_EQ((*a100)["host_link_bytes_per_s"], std::llround(16e9 * 16 * 128 / 130 / 8));
}

TEST_F(DevicesCli, TableAndCsvListTheSameDevices) {
  RunResult table = Run({"devices"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("a100-sxm4-40gb"), std::string::npos);
  EXPECT_NE(table.out.find("? unconfirmed"), std::string::npos) << "the legend";

  RunResult csv = Run({"devices", "--format", "csv"});
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(csv.out.rfind("key,name,vendor,backend,architecture,fp64_flops_per_s", 0), 0u);
  json doc = RunJson({"devices", "--format", "json"});
  size_t lines = std::count(csv.out.begin(), csv.out.end(), '\n');
  EXPECT_EQ(lines, doc["devices"].size() + 1);
}

TEST_F(DevicesCli, MatchSaysWhichEntryANameResolvesTo) {
  json hit = RunJson({"devices", "--match", "NVIDIA A100-PG509-200", "--format", "json"});
  EXPECT_EQ(hit["schema"], "tensormorph.devices/1");
  EXPECT_EQ(hit["match"]["matched"], true);
  EXPECT_EQ(hit["match"]["key"], "a100-sxm4-40gb");
  ASSERT_EQ(hit["devices"].size(), 1u);
  EXPECT_EQ(hit["devices"][0]["key"], "a100-sxm4-40gb");

  json miss = RunJson(
      {"devices", "--match", "AMD Radeon Graphics", "--arch", "gfx90a", "--format", "json"});
  EXPECT_EQ(miss["match"]["matched"], false);
  EXPECT_TRUE(miss["match"]["key"].is_null());
  EXPECT_EQ(miss["match"]["candidates"], (json{"mi210", "mi250", "mi250x"}));
  EXPECT_TRUE(miss["devices"].empty()) << "an unmatched device gets no figures";

  RunResult table = Run({"devices", "--match", "NVIDIA GeForce RTX 3080 Ti"});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("unmatched"), std::string::npos);
}

// Every device the sample traces describe, as `tensormorph info` reads it, resolves to the
// expected entry, or stays unmatched where the trace cannot say which device it was.
TEST_F(DevicesCli, DevicesOfTheSampleTracesResolve) {
  const std::map<std::string, std::string> expected = {
      {"NVIDIA A100-PG509-200", "a100-sxm4-40gb"},
      {"Tesla V100-SXM2-16GB", "v100-sxm2-16gb"},
      {"AMD Instinct MI210", "mi210"},
      {"AMD Instinct MI300X", "mi300x"},
      {"AMD Radeon Graphics", ""},  // an MI250 GCD: indistinguishable from an MI210
      {"NVIDIA GeForce RTX 3080", "rtx-3080-10gb"},
      {"NVIDIA A100-PCIE-40GB", "a100-pcie-40gb"},
  };
  const fs::path data = TM_SHARED_DATA;
  const std::vector<std::string> traces = {
      "kineto/hta/nccl_2rank_rank0_a100.json.gz",
      "kineto/hta/trace_diff/test.json.gz",
      "kineto/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
      "kineto/tracelens/mi210_gpu_only_trace.json.gz",
      "kineto/tracelens/rocm_torch_compile_triton.json.gz",
      "nvidia/nsys_sqlite/nsysai_mock_rtx3080_2026.1.sqlite",
      "nvidia/nsys_sqlite/jacc_report1_no_cuda_kernels_2026.1.sqlite",
  };
  std::set<std::string> seen;
  for (const std::string& trace : traces) {
    if (!fs::exists(data / trace)) continue;
    RunResult info = Run({"info", "--format", "json", "--quiet", (data / trace).string()});
    if (info.exit_code != 0) continue;  // formats another importer owns may not be readable yet
    json doc = json::parse(info.out, nullptr, false);
    if (doc.is_discarded()) continue;
    for (const json& input : doc["inputs"]) {
      for (const json& device : input["devices"]) {
        std::string name = device.value("name", "");
        auto want = expected.find(name);
        if (want == expected.end()) continue;
        SCOPED_TRACE(trace + ": " + name);
        std::vector<std::string> args = {"devices",
                                         "--format",
                                         "json",
                                         "--match",
                                         name,
                                         "--backend",
                                         device.value("backend", "other")};
        if (device["compute_capability"].is_string()) {
          args.insert(args.end(), {"--arch", device["compute_capability"].get<std::string>()});
        }
        if (device["sm_count"].is_number_integer() && device["sm_count"] > 0) {
          args.insert(args.end(), {"--compute-units", device["sm_count"].dump()});
        }
        if (device["memory_bytes"].is_number_integer() && device["memory_bytes"] > 0) {
          args.insert(args.end(), {"--memory-bytes", device["memory_bytes"].dump()});
        }
        json match = RunJson(args)["match"];
        if (want->second.empty()) {
          EXPECT_EQ(match["matched"], false) << match.dump();
        } else {
          EXPECT_EQ(match["key"], want->second) << match.dump();
        }
        seen.insert(name);
      }
    }
  }
  // The Kineto importer is the foundation's; its devices must have been checked.
  for (const char* name : {"NVIDIA A100-PG509-200", "Tesla V100-SXM2-16GB", "AMD Instinct MI210",
                           "AMD Instinct MI300X", "AMD Radeon Graphics"}) {
    EXPECT_TRUE(seen.contains(name)) << name << " was not found in the sample traces";
  }
}

TEST_F(DevicesCli, SpecFileOverridesAndAdds) {
  fs::path spec = Write("lab.json", R"({
    "schema": "tensormorph.device-spec/1",
    "devices": [
      {"key": "a100-sxm4-40gb", "memory_bandwidth_bytes_per_s": 1400000000000,
       "source": "measured: nvbandwidth"},
      {"key": "acme-x1", "name": "ACME X1", "vendor": "ACME", "backend": "cuda",
       "architecture": "sm_90", "fp32_flops_per_s": 5e13, "memory_bandwidth_bytes_per_s": 2e12}
    ]})");
  json doc = RunJson({"devices", "--format", "json", "--device-spec", spec.string()});
  EXPECT_EQ(doc["spec_files"], (json{spec.string()}));
  const json* a100 = FindDevice(doc, "a100-sxm4-40gb");
  ASSERT_NE(a100, nullptr);
  EXPECT_EQ((*a100)["memory_bandwidth_bytes_per_s"], 1400000000000);
  bool found = false;
  for (const json& s : (*a100)["sources"]) {
    if (s["field"] == "memory_bandwidth_bytes_per_s") {
      found = true;
      EXPECT_EQ(s["confidence"], "spec-file");
      EXPECT_EQ(s["source"], "measured: nvbandwidth");
    }
  }
  EXPECT_TRUE(found);
  const json* acme = FindDevice(doc, "acme-x1");
  ASSERT_NE(acme, nullptr);
  EXPECT_EQ((*acme)["fp32_flops_per_s"], 5e13);

  json match = RunJson(
      {"devices", "--device-spec", spec.string(), "--match", "ACME X1", "--format", "json"});
  EXPECT_EQ(match["match"]["key"], "acme-x1");
}

TEST_F(DevicesCli, UnreadableSpecFilesExitThreeNamingTheFile) {
  fs::path broken = Write("broken.json", "{\"devices\": [ {\"key\": \"t4\", ");
  fs::path typo = Write("typo.json", R"({"devices": [{"key": "t4", "fp32_flops": 8e12}]})");
  const std::vector<std::pair<fs::path, std::string>> cases = {
      {broken, "not valid JSON"},
      {typo, "devices[0] (\"t4\"): fp32_flops: unknown key"},
      {dir_ / "missing.json", "cannot open"},
  };
  for (const auto& [path, what] : cases) {
    RunResult r = Run({"devices", "--device-spec", path.string()});
    EXPECT_EQ(r.exit_code, 3) << path;
    EXPECT_EQ(r.err.rfind("tensormorph: error: " + path.string(), 0), 0u) << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << "no listing after an error";
  }
}

TEST_F(DevicesCli, UsageErrorsExitTwo) {
  const std::vector<std::vector<std::string>> cases = {
      {"devices", "--format", "xml"},
      {"devices", "--compute-units", "68"},  // describes a --match that is not there
      {"devices", "--match", "X", "--compute-units", "-3"},
      {"devices", "--match", "X", "--backend", "tpu"},
      {"devices", "unexpected-positional"},
      {"devices", "--device-spec"},
  };
  for (const std::vector<std::string>& args : cases) {
    RunResult r = Run(args);
    EXPECT_EQ(r.exit_code, 2) << args.back() << "\n" << r.err;
    EXPECT_NE(r.err.find("tensormorph: error:"), std::string::npos) << r.err;
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
