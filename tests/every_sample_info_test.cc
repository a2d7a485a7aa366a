// `tensormorph info` on every file of ../shared/data/other and ../shared/data/kineto/jax_xplane
// (the other-backends issue's "done means"): each real file is read with the right format,
// backend and devices, or — for files that hold no dispatches (statistics, summaries, allocation
// traces, counter files without times) — refused with a message that says what to read instead.
// The table below is written from PROVENANCE.md and the files' headers; a file added to the data
// folders without a row here fails the last test.

#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "support/run_tensormorph.h"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

struct Expected {
  std::string format;   // "" when the file is refused
  std::string backend;  // the device backend ("" = no devices)
  size_t devices = 0;
  std::string error;  // part of the error message when refused
};

const std::map<std::string, Expected>& Table() {
  static const std::map<std::string, Expected> kTable = {
      {"kineto/jax_xplane/jax06_mi300_conv3d.legacy.xplane.pb", {"jax-xplane", "rocm", 2, ""}},
      {"kineto/jax_xplane/jax08_mi300_conv3d.tw003.xplane.pb", {"jax-xplane", "rocm", 8, ""}},
      {"other/onnxruntime/onnxruntime_profile_cpu_ort1.30.0_generated.json",
       {"onnxruntime", "cpu", 1, ""}},
      // rocprof-compute: every table of a workload reads the workload.
      {"other/rocprof_compute/no_roof_MI350/SQ_LEVEL_WAVES.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/no_roof_MI350/pmc_perf_0.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/no_roof_MI350/sysinfo.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/vcopy_MI200/SQ_LEVEL_WAVES.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/vcopy_MI200/pmc_dispatch_info.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/vcopy_MI200/pmc_perf.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/vcopy_MI200/roofline.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/vcopy_MI200/sysinfo.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/vcopy_MI200/timestamps.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/vcopy_MI300X_A1/pmc_perf.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/vcopy_MI300X_A1/sysinfo.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprof_compute/vcopy_MI300X_A1/timestamps.csv", {"rocprof", "rocm", 1, ""}},
      // rocprofv3 (current): the traces, and the files that hold no dispatches.
      {"other/rocprofv3/counter_collection.csv", {"", "", 0, "read the run's kernel_trace.csv"}},
      {"other/rocprofv3/hip_api_stats.csv", {"", "", 0, "a rocprofv3 statistics file"}},
      {"other/rocprofv3/hip_domain_stats.csv", {"", "", 0, "a rocprofv3 statistics file"}},
      {"other/rocprofv3/hip_trace.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprofv3/kernel_trace.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprofv3/kernel_trace_truncated.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprofv3/memory_allocation_trace.csv",
       {"", "", 0, "a rocprofv3 memory allocation trace"}},
      {"other/rocprofv3/memory_copy_trace.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprofv3/rocpd-to-csv.csv", {"rocprof", "", 0, ""}},  // HIP API calls only
      {"other/rocprofv3/scratch_memory_trace.csv", {"", "", 0, "a rocprofv3 scratch memory trace"}},
      {"other/rocprofv3/summary.txt", {"", "", 0, "a rocprofv3 summary (-S)"}},
      // rocprofv3 (ROCm 6.2): kernel_names.csv is a counter collection despite its name.
      {"other/rocprofv3_rocm62/counter_collection.csv",
       {"", "", 0, "read the run's kernel_trace.csv"}},
      {"other/rocprofv3_rocm62/kernel_names.csv", {"", "", 0, "read the run's kernel_trace.csv"}},
      {"other/rocprofv3_rocm62/kernel_trace.csv", {"rocprof", "rocm", 1, ""}},
      {"other/rocprofv3_rocm62/memory_copy_trace.csv", {"rocprof", "rocm", 1, ""}},
  };
  return kTable;
}

class EverySampleInfo : public ::testing::TestWithParam<std::string> {};

TEST_P(EverySampleInfo, FormatBackendAndDevices) {
  const Expected& e = Table().at(GetParam());
  const std::string path = std::string(TM_SHARED_DATA) + "/" + GetParam();
  const RunResult r = RunTensormorph({"info", "--format", "json", "--quiet", path});
  ASSERT_TRUE(r.Clean()) << r.Describe();
  if (e.format.empty()) {
    EXPECT_EQ(r.exit_code, 3) << r.Describe();
    EXPECT_NE(r.err.find(e.error), std::string::npos) << r.Describe();
    return;
  }
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json input = json::parse(r.out)["inputs"][0];
  EXPECT_EQ(input["format"], e.format);
  ASSERT_EQ(input["devices"].size(), e.devices) << input["devices"];
  for (const json& device : input["devices"]) EXPECT_EQ(device["backend"], e.backend) << device;
}

std::vector<std::string> Files() {
  std::vector<std::string> out;
  for (const auto& [file, expected] : Table()) out.push_back(file);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Data, EverySampleInfo, ::testing::ValuesIn(Files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

TEST(EverySampleInfoTable, CoversEveryFile) {
  for (const std::string folder : {"other", "kineto/jax_xplane"}) {
    for (const auto& entry :
         fs::recursive_directory_iterator(std::string(TM_SHARED_DATA) + "/" + folder)) {
      if (!entry.is_regular_file()) continue;
      const std::string relative = fs::relative(entry.path(), TM_SHARED_DATA).string();
      EXPECT_TRUE(Table().count(relative)) << relative << " has no expectation";
    }
  }
}

}  // namespace
