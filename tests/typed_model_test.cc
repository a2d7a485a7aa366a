// The typed facts of the model that analyses read instead of Trace::format or metadata keys
// (model/trace.h: Device::arch, CounterSource, Trace::op_inputs, ...), checked on the real samples
// against the files themselves, read here independently: the Nsight Systems exports through
// sqlite3, rocprof's agent_info.csv and rocprof-compute's sysinfo.csv through a CSV split, Kineto
// traces through zlib + nlohmann-json (tests/support/kineto_events.h), sharing no code with src/.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "export/exporter.h"
#include "support/files.h"
#include "support/kineto_events.h"
#include "support/trace_compare.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using tensormorph::testing::ReadFile;

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kData = TM_SHARED_DATA;

Trace Load(const std::string& path) {
  ImportOptions options;
  options.threads = 2;
  StatusOr<Trace> t = LoadTrace(path, options);
  EXPECT_TRUE(t.ok()) << path << ": " << t.status().message();
  return t.ok() ? std::move(t).value() : Trace{};
}

// One CSV line into fields: a field is "..." (up to the next quote) or text up to a comma.
std::vector<std::string> SplitCsvLine(const std::string& line) {
  std::vector<std::string> fields;
  size_t i = 0;
  for (;;) {
    std::string field;
    if (i < line.size() && line[i] == '"') {
      const size_t close = line.find('"', i + 1);
      field = line.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      const size_t comma = line.find(',', i);
      field = line.substr(i, comma == std::string::npos ? std::string::npos : comma - i);
      i = comma == std::string::npos ? line.size() : comma;
    }
    if (!field.empty() && field.back() == '\r') field.pop_back();
    fields.push_back(field);
    if (i >= line.size()) return fields;
    ++i;  // the comma
  }
}

// A CSV file as rows of column name -> value.
std::vector<std::map<std::string, std::string>> ReadCsv(const fs::path& path) {
  std::istringstream in(ReadFile(path));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> header = SplitCsvLine(line);
  std::vector<std::map<std::string, std::string>> rows;
  while (std::getline(in, line)) {
    if (line.empty() || line == "\r") continue;
    const std::vector<std::string> fields = SplitCsvLine(line);
    std::map<std::string, std::string> row;
    for (size_t i = 0; i < header.size() && i < fields.size(); ++i) row[header[i]] = fields[i];
    rows.push_back(std::move(row));
  }
  return rows;
}

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            fmt::format("tm_typed_model_{}", ::testing::UnitTest::GetInstance()->random_seed());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

// Device::arch of every Nsight Systems sample's devices is the compute capability its
// TARGET_INFO_GPU row gives, read with sqlite3.
TEST(TypedModel, NsysDeviceArchIsTheExportsComputeCapability) {
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(kData + "/nvidia/nsys_sqlite")) {
    if (entry.path().extension() != ".sqlite") continue;
    SCOPED_TRACE(entry.path().filename().string());
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(entry.path().c_str(), &db, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
    // TARGET_INFO_GPU (id, computeMajor, computeMinor); older exports: TARGET_INFO_CUDA_GPU
    // (deviceId, computeCapabilityMajor, computeCapabilityMinor). id -> "major.minor".
    std::map<int64_t, std::string> capability;
    for (const char* sql : {"SELECT id, computeMajor, computeMinor FROM TARGET_INFO_GPU",
                            "SELECT deviceId, computeCapabilityMajor, computeCapabilityMinor FROM "
                            "TARGET_INFO_CUDA_GPU"}) {
      sqlite3_stmt* stmt = nullptr;
      if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK) {
        while (sqlite3_step(stmt) == SQLITE_ROW) {
          if (sqlite3_column_int64(stmt, 1) <= 0) continue;
          capability.emplace(
              sqlite3_column_int64(stmt, 0),
              fmt::format("{}.{}", sqlite3_column_int64(stmt, 1), sqlite3_column_int64(stmt, 2)));
        }
      }
      sqlite3_finalize(stmt);
    }
    sqlite3_close(db);

    const Trace t = Load(entry.path().string());
    EXPECT_TRUE(t.kernels_traced_on_request);
    for (const Device& d : t.devices) {
      auto it = capability.find(d.trace_id);
      // A device the export does not describe (the H100 sample has no TARGET_INFO table) has no
      // known arch.
      EXPECT_EQ(d.arch, it == capability.end() ? "" : it->second) << "device " << d.trace_id;
      checked += it != capability.end();
    }
  }
  EXPECT_GE(checked, 2);  // the RTX 3080 and the old schema's A100 at least
}

// A rocprofv3 run with agent_info.csv: the device's arch is the gfx target in the agent's Name
// column (rocprof v3 fixture: agent 4, an MI300X).
TEST(TypedModel, RocprofDeviceArchIsTheAgentInfoName) {
  TempDir dir;
  fs::copy_file(kData + "/other/rocprofv3/kernel_trace.csv", dir / "run_kernel_trace.csv");
  const fs::path agents = fs::path(TM_SOURCE_DIR) / "tests/data/rocprofv3_agent_info.csv";
  fs::copy_file(agents, dir / "run_agent_info.csv");
  std::map<int64_t, std::string> gfx;  // Node_Id -> Name
  for (const auto& row : ReadCsv(agents)) {
    if (row.at("Agent_Type") == "GPU") gfx[std::stoll(row.at("Node_Id"))] = row.at("Name");
  }
  ASSERT_FALSE(gfx.empty());

  const Trace t = Load((dir / "run_kernel_trace.csv").string());
  ASSERT_FALSE(t.devices.empty());
  for (const Device& d : t.devices) {
    ASSERT_TRUE(gfx.contains(d.trace_id)) << d.trace_id;
    EXPECT_EQ(d.arch, gfx.at(d.trace_id));
    EXPECT_TRUE(d.arch.starts_with("gfx")) << d.arch;
  }
}

// rocprof-compute workloads: the arch is sysinfo.csv's gpu_arch; the counters are
// rocprof-compute's; the measured peaks say where they came from.
TEST(TypedModel, RocprofComputeArchAndSourcesFromTheWorkload) {
  for (const char* workload : {"vcopy_MI200", "vcopy_MI300X_A1", "no_roof_MI350"}) {
    SCOPED_TRACE(workload);
    const fs::path folder = fs::path(kData) / "other/rocprof_compute" / workload;
    const auto sysinfo = ReadCsv(folder / "sysinfo.csv");
    ASSERT_EQ(sysinfo.size(), 1u);
    const Trace t = Load(folder.string());
    ASSERT_EQ(t.devices.size(), 1u);
    EXPECT_EQ(t.devices[0].arch, sysinfo[0].at("gpu_arch"));
    ASSERT_FALSE(t.kernel_counters.empty());
    for (const KernelCounters& c : t.kernel_counters) {
      EXPECT_EQ(c.source, CounterSource::kRocprofCompute);
    }
    const bool roofline = fs::exists(folder / "roofline.csv");
    EXPECT_EQ(t.devices[0].measured_peaks.empty(), !roofline);
    EXPECT_EQ(t.devices[0].measured_peaks_source, roofline ? "rocprof-compute roofline.csv" : "");
  }
}

// Nsight Compute: counters and the occupancy copied into the kernel rows are Nsight Compute's.
TEST(TypedModel, NsightComputeCountersAreMarkedAsSuch) {
  const Trace t = Load(kData + "/nvidia/ncu_csv/llmperfopt_k0001_ncu.details.csv");
  ASSERT_FALSE(t.kernel_counters.empty());
  for (const KernelCounters& c : t.kernel_counters) {
    EXPECT_EQ(c.source, CounterSource::kNsightCompute);
  }
  for (const Kernel& k : t.kernels) {
    if (k.achieved_occupancy_percent >= 0) {
      EXPECT_EQ(k.occupancy_source, CounterSource::kNsightCompute);
    }
  }
  ASSERT_FALSE(t.devices.empty());
  EXPECT_EQ(t.devices[0].arch,
            fmt::format("{}.{}", t.devices[0].compute_major, t.devices[0].compute_minor));
}

// Kineto: the CUDA devices' arch is deviceProperties' computeMajor.computeMinor; ROCm devices get
// none from it (9.0 names no gfx target); the estimate in the kernel rows is Kineto's.
TEST(TypedModel, KinetoDeviceArchAndOccupancyEstimate) {
  {
    const Trace t = Load(kData + "/kineto/hta/nccl_2rank_rank0_a100.json.gz");
    std::string error;
    const json doc =
        json::parse(testing::Gunzip(kData + "/kineto/hta/nccl_2rank_rank0_a100.json.gz", &error));
    std::map<int64_t, std::string> capability;
    for (const json& p : doc.at("deviceProperties")) {
      capability[p.at("id").get<int64_t>()] =
          fmt::format("{}.{}", p.at("computeMajor").get<int>(), p.at("computeMinor").get<int>());
    }
    ASSERT_FALSE(t.devices.empty());
    for (const Device& d : t.devices) {
      ASSERT_TRUE(capability.contains(d.index)) << d.index;
      EXPECT_EQ(d.arch, capability.at(d.index));
    }
    EXPECT_EQ(t.distributed_backend, doc.at("distributedInfo").at("backend").get<std::string>());
    int estimates = 0;
    for (const Kernel& k : t.kernels) {
      if (k.achieved_occupancy_percent < 0) continue;
      EXPECT_EQ(k.occupancy_source, CounterSource::kKinetoEstimate);
      ++estimates;
    }
    EXPECT_GT(estimates, 0);
  }
  const Trace rocm = Load(kData + "/kineto/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz");
  ASSERT_FALSE(rocm.devices.empty());
  for (const Device& d : rocm.devices) EXPECT_EQ(d.arch, "") << d.name;
}

// ONNX Runtime numbers ops and kernels itself: with device kernels (the native WebGPU EP's
// dispatches) its External ids are exact.
TEST(TypedModel, OnnxRuntimeExternalIdsAreExactWithDeviceKernels) {
  const Trace gpu =
      Load(kData + "/other/webgpu_browser/ort130_native_convnet_sessprof.session-profile.json");
  EXPECT_EQ(gpu.format, "onnxruntime");
  EXPECT_FALSE(gpu.kernels.empty());
  EXPECT_TRUE(gpu.exact_external_ids);
  // The CPU EP's profile: node times only, no device kernel events to link.
  const Trace cpu =
      Load(kData + "/other/onnxruntime/onnxruntime_profile_cpu_ort1.30.0_generated.json");
  EXPECT_FALSE(cpu.exact_external_ids);
}

// One op's arguments as the test reads them from the JSON: the dims entry (a flat list of
// integers, or its JSON text), the type, the concrete value and the strides, per argument.
std::string ArgsKey(const json& dims, const json* types, const json* values, const json* strides) {
  std::string key;
  for (size_t i = 0; i < dims.size(); ++i) {
    const json& d = dims[i];
    bool flat = d.is_array();
    for (const json& x : d) flat = flat && x.is_number_integer() && x.get<int64_t>() >= 0;
    key += "dims=" + (flat ? d.dump() : "other:" + d.dump());
    if (types) key += " type=" + (*types)[i].get<std::string>();
    if (values) key += " value=" + (*values)[i].get<std::string>();
    if (strides) {
      const json& s = (*strides)[i];
      bool ints = s.is_array();
      for (const json& x : s) ints = ints && x.is_number_integer();
      key += " strides=" + (ints ? s.dump() : std::string("[]"));
    }
    key += "; ";
  }
  return key;
}

// The same from the model's table.
std::string ArgsKey(const OpInputs& in) {
  std::string key;
  for (const OpInput& a : in.args) {
    key += "dims=" + (a.form == OpInput::DimsForm::kShape
                          ? json(a.dims).dump()
                          : "other:" + (a.form == OpInput::DimsForm::kNull ? std::string("null")
                                                                           : a.dims_json));
    if (in.has_types) key += " type=" + a.dtype;
    if (in.has_values) key += " value=" + a.value;
    if (in.has_strides) key += " strides=" + json(a.strides).dump();
    key += "; ";
  }
  return key;
}

// Kineto's "Input Dims", "Input type", "Concrete Inputs" and "Input Strides" of every op land in
// the typed table: the multiset of (op, arguments) is the same read either way, and each list's
// spelling is the trace's own (re-parsed, it is the same JSON).
TEST(TypedModel, KinetoOpInputsMatchTheTracesOwnArgs) {
  int with_strides = 0;
  for (const char* sample : {"/kineto/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz",
                             "/kineto/tracelens/rocm_torch_compile_triton.json.gz",
                             "/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz",
                             "/kineto/hta/trace_diff/control.json.gz"}) {
    SCOPED_TRACE(sample);
    std::string error;
    const json doc = json::parse(testing::Gunzip(kData + sample, &error));
    ASSERT_TRUE(error.empty()) << error;
    std::map<std::string, int> expected;
    for (const json& e : doc.at("traceEvents")) {
      if (e.value("ph", "") != "X" || !e.contains("args")) continue;
      const json& args = e.at("args");
      auto dims = args.find("Input Dims");
      if (dims == args.end() || !dims->is_array()) continue;
      auto member = [&](const char* key) -> const json* {
        auto it = args.find(key);
        return it == args.end() ? nullptr : &*it;
      };
      const json* strides = member("Input Strides");
      with_strides += strides != nullptr;
      ++expected[e.at("name").get<std::string>() + " | " +
                 ArgsKey(*dims, member("Input type"), member("Concrete Inputs"), strides)];
    }
    ASSERT_FALSE(expected.empty());

    const Trace t = Load(kData + sample);
    std::map<std::string, int> got;
    for (const Slice& s : t.slices) {
      const OpInputs* in = t.inputs_of(s);
      if (in == nullptr) continue;
      EXPECT_TRUE(in->consistent);
      ASSERT_TRUE(in->spelling);
      EXPECT_EQ(json::parse(in->spelling->dims), json::parse(InputListsText(*in).dims));
      ++got[std::string(t.str(s.name)) + " | " + ArgsKey(*in)];
    }
    EXPECT_EQ(got, expected);
  }
  EXPECT_GT(with_strides, 0);
}

// The native format keeps the table and the typed facts: reading back an export gives them all
// (tests/support/trace_compare.h compares every field), from traces of each importer that fills
// them.
TEST(TypedModel, NativeRoundTripKeepsTheTypedFacts) {
  const Exporter* exporter = FindExporter("native-ndjson");
  ASSERT_NE(exporter, nullptr);
  TempDir dir;
  for (const std::string& path :
       {kData + "/kineto/tracelens_pairs/mi300_qwen1.5-0.5b_inference.json.gz",
        kData + "/kineto/hta/nccl_2rank_rank0_a100.json.gz",
        kData + "/other/rocprof_compute/vcopy_MI200",
        kData + "/other/webgpu_browser/ort130_jsep_convnet_ondata.json",
        kData + "/other/webgpu_browser/ort130_native_convnet_sessprof.session-profile.json",
        kData + "/nvidia/ncu_csv/llmperfopt_k0001_ncu.details.csv",
        kData + "/nvidia/nsys_sqlite/nsysai_mock_rtx3080_2026.1.sqlite",
        kData + "/other/rocprof_compute_db/rocprof_compute_3.5_mi350_23ed6f36.db"}) {
    SCOPED_TRACE(path);
    const Trace original = Load(path);
    const std::string out = (dir / "rt.ndjson").string();
    ASSERT_TRUE(exporter->Export(LinkedTrace(original), out).ok());
    const Trace back = Load(out);
    EXPECT_TRUE(testing::SameTrace(original, back));
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
