// The rocprof importer on the real rocprofv3 / rocprof-compute samples in ../shared/data/other
// and on files made from them in a temporary folder (a run's siblings, cut-off and ragged copies).
#include "import/rocprof/rocprof_importer.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "import/rocprof/common/agents.h"

namespace tensormorph::rocprof {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;

const std::string kV3 = TM_SHARED_DATA "/other/rocprofv3/";
const std::string kV3Rocm62 = TM_SHARED_DATA "/other/rocprofv3_rocm62/";
const std::string kCompute = TM_SHARED_DATA "/other/rocprof_compute/";
const std::string kAgentInfoFixture = TM_SOURCE_DIR "/tests/data/rocprofv3_agent_info.csv";
const std::string kJsonFixture = TM_SOURCE_DIR "/tests/data/rocprofv3_results.json";

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A fresh folder per test, removed afterwards.
class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() /
            fs::path("tm_rocprof_" +
                     std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

Trace Import(const std::string& path) {
  StatusOr<Trace> trace = ImportWith(RocprofImporter(), path, {});
  EXPECT_TRUE(trace.ok()) << path << ": " << trace.status().message();
  return trace.ok() ? std::move(trace).value() : Trace();
}

bool AnyWarningHas(const Trace& t, std::string_view text) {
  for (const std::string& w : t.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string FirstLine(const std::string& path) {
  std::string text = ReadFile(path);
  return text.substr(0, text.find('\n') + 1);
}

TEST(RocprofImporter, SniffsEveryRocprofHeaderAndNothingElse) {
  RocprofImporter importer;
  for (const std::string& path :
       {kV3 + "kernel_trace.csv", kV3 + "memory_copy_trace.csv", kV3 + "hip_trace.csv",
        kV3 + "rocpd-to-csv.csv", kV3Rocm62 + "kernel_trace.csv",
        kCompute + "vcopy_MI200/timestamps.csv", kCompute + "vcopy_MI300X_A1/timestamps.csv",
        kCompute + "no_roof_MI350/pmc_perf_0.csv", kAgentInfoFixture}) {
    EXPECT_EQ(importer.Sniff(FirstLine(path)), 100) << path;
  }
  EXPECT_EQ(importer.Sniff(ReadFile(kJsonFixture).substr(0, 4096)), 100);
  EXPECT_EQ(importer.Sniff(FirstLine(kV3 + "counter_collection.csv")), 90);
  // Files beside the traces that hold no dispatches: recognised, so that Import() can say what
  // to read instead (tests/every_sample_info_test.cc checks the messages).
  for (const std::string& path :
       {kV3 + "hip_api_stats.csv", kV3 + "memory_allocation_trace.csv",
        kV3 + "scratch_memory_trace.csv", kV3 + "summary.txt", kCompute + "vcopy_MI200/sysinfo.csv",
        kCompute + "vcopy_MI200/roofline.csv", kCompute + "vcopy_MI200/pmc_dispatch_info.csv"}) {
    // The head as LoadTrace passes it: from the first character that is not whitespace.
    const std::string text = ReadFile(path);
    EXPECT_EQ(importer.Sniff(text.substr(text.find_first_not_of(" \r\n\t"), 4096)), 80) << path;
  }
  EXPECT_EQ(importer.Sniff("\"ID\",\"Process ID\",\"Process Name\"\n"), 0);
  EXPECT_EQ(importer.Sniff("{\"traceEvents\": []}"), 0);
}

TEST(RocprofImporter, CurrentKernelTrace) {
  const Trace t = Import(kV3 + "kernel_trace.csv");
  EXPECT_EQ(t.format, "rocprof");
  EXPECT_NE(t.format_version.find("ROCm 6.4+"), std::string::npos) << t.format_version;
  ASSERT_EQ(t.kernels.size(), 9u);
  ASSERT_EQ(t.devices.size(), 1u);
  // "Agent 4" without agent_info: no ordinal guessed, labelled by the agent id.
  EXPECT_EQ(t.devices[0].trace_id, 4);
  EXPECT_EQ(t.devices[0].index, -1);
  EXPECT_EQ(t.devices[0].backend, Backend::kRocm);
  EXPECT_EQ(t.backends, std::vector<Backend>{Backend::kRocm});
  // Sorted by (device, stream, start): stream 1 first, its earliest dispatch is addition_kernel.
  const Kernel& k = t.kernels[0];
  EXPECT_EQ(t.str(k.name),
            "void addition_kernel<float>(float*, float const*, float const*, int, int)");
  EXPECT_EQ(k.start_ns, 1550151853029637);
  EXPECT_EQ(k.duration_ns, 1550151853042437 - 1550151853029637);
  EXPECT_EQ(k.stream, 1);
  EXPECT_EQ(k.link.correlation, 1u);
  EXPECT_EQ(k.block.x, 64u);
  EXPECT_EQ(k.block.y, 1u);
  // Grid 1024 x 1024 x 1 work-items in workgroups of 64 x 1 x 1.
  EXPECT_EQ(k.grid.x, 16u);
  EXPECT_EQ(k.grid.y, 1024u);
  EXPECT_EQ(k.grid.z, 1u);
  EXPECT_EQ(k.registers_per_thread, 8);
  EXPECT_EQ(k.accum_registers_per_thread, 0);
  EXPECT_EQ(k.scalar_registers, 16);
  EXPECT_EQ(k.shared_memory_bytes, 0u);
  int divides = 0;
  for (const Kernel& d : t.kernels) {
    if (!t.str(d.name).starts_with("divide_kernel")) continue;
    ++divides;
    EXPECT_EQ(d.registers_per_thread, 12);
    EXPECT_EQ(d.accum_registers_per_thread, 4);
  }
  EXPECT_EQ(divides, 2);
  // The docs' memory_copy_trace.csv and hip_trace.csv beside it come from other runs (days
  // apart): they are not merged.
  EXPECT_TRUE(t.transfers.empty());
  EXPECT_TRUE(t.api_calls.empty());
  EXPECT_TRUE(AnyWarningHas(t, "memory_copy_trace.csv: its times lie"));
  EXPECT_TRUE(AnyWarningHas(t, "hip_trace.csv: its times lie"));
}

TEST(RocprofImporter, Rocm62KernelTrace) {
  const Trace t = Import(kV3Rocm62 + "kernel_trace.csv");
  EXPECT_NE(t.format_version.find("ROCm 6.2"), std::string::npos) << t.format_version;
  ASSERT_EQ(t.kernels.size(), 7u);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].trace_id, 1);  // a bare node id
  EXPECT_EQ(t.devices[0].index, -1);
  for (const Kernel& k : t.kernels) {
    EXPECT_EQ(k.registers_per_thread, 0);  // the 6.2 header has no registers
    EXPECT_EQ(k.block.x, 64u);
    EXPECT_GE(k.stream, 1);  // the queue id stands in for the stream
  }
}

TEST(RocprofImporter, RocprofComputeTimestamps) {
  const Trace mi200 = Import(kCompute + "vcopy_MI200/timestamps.csv");
  ASSERT_FALSE(mi200.kernels.empty());
  const Kernel& k = mi200.kernels[0];
  EXPECT_EQ(k.block.x, 256u);
  EXPECT_EQ(k.grid.x, 1048576u / 256);
  EXPECT_EQ(k.registers_per_thread, 8);
  EXPECT_EQ(k.scalar_registers, 16);
  EXPECT_EQ(k.wave_size, 64);
  // timestamps.csv is read with its workload. Times saved through a spreadsheet (8.1097E+14)
  // are not durations: the kernels are kept for their counters, with 0 ns and a warning.
  const Trace mi300 = Import(kCompute + "vcopy_MI300X_A1/timestamps.csv");
  ASSERT_EQ(mi300.kernels.size(), 3u);
  for (const Kernel& kernel : mi300.kernels) EXPECT_EQ(kernel.duration_ns, 0);
  EXPECT_TRUE(AnyWarningHas(mi300, "rounded by a spreadsheet"));
}

// No real v1 results.csv or rocprofv2 file exists in ../shared/data: these rows follow the
// headers in other-backends.md §1.1-1.2 (v1 with arch/accum VGPRs, ROCm <= 5.2 with vgpr/fbar and
// None, rocprofv2 with the blank line after its header).
TEST(RocprofImporter, V1AndV2Headers) {
  TempDir dir;
  WriteFile(dir / "results.csv",
            "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,arch_vgpr,"
            "accum_vgpr,sgpr,wave_size,sig,obj,DispatchNs,BeginNs,EndNs,CompleteNs\n"
            "0,\"gemm(float*, int) [clone .kd]\",2,0,0,7,7,1048576,256,16384,0,64,32,48,64,0x0,"
            "0x7f,1411551767610475,1411551767635712,1411551767656192,1411551767669456\n");
  Trace v1 = Import((dir / "results.csv").string());
  ASSERT_EQ(v1.kernels.size(), 1u);
  EXPECT_NE(v1.format_version.find("rocprof v1"), std::string::npos);
  EXPECT_EQ(v1.kernels[0].duration_ns, 1411551767656192 - 1411551767635712);
  EXPECT_EQ(v1.kernels[0].registers_per_thread, 64);
  EXPECT_EQ(v1.kernels[0].accum_registers_per_thread, 32);
  EXPECT_EQ(v1.kernels[0].scalar_registers, 48);
  EXPECT_EQ(v1.kernels[0].wave_size, 64);
  EXPECT_EQ(v1.kernels[0].shared_memory_bytes, 16384u);
  EXPECT_EQ(v1.kernels[0].grid.x, 4096u);
  EXPECT_EQ(v1.devices[0].trace_id, 2);

  WriteFile(dir / "old.csv",
            "Index,KernelName,gpu-id,queue-id,queue-index,pid,tid,grd,wgr,lds,scr,vgpr,sgpr,fbar,"
            "sig,WriteSize,DispatchNs,BeginNs,EndNs,CompleteNs\n"
            "0,\"copy\",0,0,0,7,7,64,64,0,0,24,None,0,0x0,None,100,200,350,400\n");
  Trace old = Import((dir / "old.csv").string());
  ASSERT_EQ(old.kernels.size(), 1u);
  EXPECT_NE(old.format_version.find("vgpr, fbar"), std::string::npos);
  EXPECT_EQ(old.kernels[0].registers_per_thread, 24);
  EXPECT_EQ(old.kernels[0].scalar_registers, 0);  // None
  EXPECT_EQ(old.kernels[0].duration_ns, 150);

  WriteFile(dir / "results_77.csv",
            "Dispatch_ID,GPU_ID,Queue_ID,PID,TID,Grid_Size,Workgroup_Size,LDS_Per_Workgroup,"
            "Scratch_Per_Workitem,Arch_VGPR,Accum_VGPR,SGPR,Wave_Size,Kernel_Name,"
            "Start_Timestamp,End_Timestamp,Correlation_ID\n\n"
            "1,4,1,77,77,1048576,256,0,0,8,0,16,64,\"vectoradd_float\",1000,3500,12\n");
  Trace v2 = Import((dir / "results_77.csv").string());
  ASSERT_EQ(v2.kernels.size(), 1u);
  EXPECT_NE(v2.format_version.find("rocprofv2"), std::string::npos);
  EXPECT_EQ(v2.kernels[0].duration_ns, 2500);
  EXPECT_EQ(v2.kernels[0].link.correlation, 12u);
  EXPECT_EQ(v2.kernels[0].registers_per_thread, 8);
}

TEST(RocprofImporter, SiblingsOfOneRunWithAgentInfo) {
  TempDir dir;
  fs::copy_file(kV3 + "kernel_trace.csv", dir / "run_kernel_trace.csv");
  fs::copy_file(kAgentInfoFixture, dir / "run_agent_info.csv");
  // The docs' HIP trace, moved in time next to the kernels so that it counts as the same run.
  std::string hip = ReadFile(kV3 + "hip_trace.csv");
  const int64_t shift = 1550151853029637 - 1055015439953054 - 100000;
  std::string shifted;
  std::istringstream lines(hip);
  std::string line;
  std::getline(lines, line);
  shifted += line + "\n";
  while (std::getline(lines, line)) {
    if (line.empty()) continue;
    const size_t end_comma = line.rfind(',');
    const size_t start_comma = line.rfind(',', end_comma - 1);
    const int64_t start = std::stoll(line.substr(start_comma + 1, end_comma - start_comma - 1));
    const int64_t end = std::stoll(line.substr(end_comma + 1));
    shifted += line.substr(0, start_comma + 1) + std::to_string(start + shift) + "," +
               std::to_string(end + shift) + "\n";
  }
  WriteFile(dir / "run_hip_api_trace.csv", shifted);
  WriteFile(dir / "other_memory_copy_trace.csv", ReadFile(kV3 + "memory_copy_trace.csv"));

  const Trace t = Import((dir / "run_kernel_trace.csv").string());
  ASSERT_EQ(t.kernels.size(), 9u);
  ASSERT_EQ(t.devices.size(), 1u);
  // Agent 4 is the third GPU agent (nodes 0 and 1 are CPUs): ordinal 2.
  EXPECT_EQ(t.devices[0].name, "AMD Instinct MI300X");
  EXPECT_EQ(t.devices[0].index, 2);
  EXPECT_EQ(t.devices[0].trace_id, 4);
  EXPECT_EQ(t.devices[0].sm_count, 304);
  EXPECT_EQ(t.devices[0].compute_major, 9);
  EXPECT_EQ(t.devices[0].compute_minor, 4);
  EXPECT_EQ(t.described_device_count, 4);
  EXPECT_EQ(t.metadata.at(GfxArchMetadataKey(4)), "\"gfx942\"");
  // Another prefix is another run: other_memory_copy_trace.csv is not read.
  EXPECT_TRUE(t.transfers.empty());
  EXPECT_NE(t.format_version.find("run_agent_info.csv, run_hip_api_trace.csv"), std::string::npos)
      << t.format_version;
  ASSERT_EQ(t.api_calls.size(), 17u);
  EXPECT_EQ(t.tracks.size(), 1u);
  // Every kernel's correlation id names one HIP call.
  for (const Kernel& k : t.kernels) {
    int calls = 0;
    for (const ApiCall& c : t.api_calls) calls += c.link.correlation == k.link.correlation;
    EXPECT_EQ(calls, 1) << k.link.correlation;
  }
}

TEST(RocprofImporter, MemoryCopiesAlone) {
  const Trace t = Import(kV3 + "memory_copy_trace.csv");
  ASSERT_EQ(t.transfers.size(), 4u);
  EXPECT_EQ(t.counts.memcpys, 4u);
  ASSERT_EQ(t.devices.size(), 1u);  // "Agent 0" is the host side of every copy
  EXPECT_EQ(t.devices[0].trace_id, 4);
  EXPECT_EQ(t.str(t.transfers[0].name), "Memcpy HtoD");
  EXPECT_EQ(t.transfers[0].link.correlation, 1u);
}

// The 6.2 sample ends without a final line end, after a whole row: both rows are read.
TEST(RocprofImporter, WholeLastRowWithoutLineEnd) {
  const Trace t = Import(kV3Rocm62 + "memory_copy_trace.csv");
  EXPECT_EQ(t.transfers.size(), 2u);
  EXPECT_FALSE(AnyWarningHas(t, "ends inside"));
  // Its sibling kernel_trace.csv is from another run (2445 hours apart).
  EXPECT_TRUE(t.kernels.empty());
  EXPECT_TRUE(AnyWarningHas(t, "kernel_trace.csv: its times lie"));
}

TEST(RocprofImporter, CutOffFileKeepsItsWholeRows) {
  TempDir dir;
  const std::string text = ReadFile(kV3 + "kernel_trace_truncated.csv");
  // Cut the last row (line 5) inside its Start_Timestamp.
  const size_t last_row = text.rfind('\n', text.size() - 2) + 1;
  ASSERT_EQ(text.substr(last_row + 64, 10), "1552082594");
  const fs::path cut = dir / "kernel_trace_truncated.csv";
  WriteFile(cut, text.substr(0, last_row + 75));
  const Trace t = Import(cut.string());
  EXPECT_EQ(t.kernels.size(), 3u);
  EXPECT_EQ(t.counts.kernels, 3u);
  EXPECT_TRUE(AnyWarningHas(t, cut.string() + ":5: the file ends inside this row"))
      << (t.warnings.empty() ? "" : t.warnings[0]);
  // Cut inside the quoted kernel name.
  WriteFile(cut, text.substr(0, last_row + 45));
  EXPECT_EQ(Import(cut.string()).kernels.size(), 3u);
  // Cut right after a comma: 22 fields, the last one empty.
  WriteFile(cut, text.substr(0, text.size() - 2));
  ASSERT_EQ(text.substr(text.size() - 3), ",1\n");
  EXPECT_EQ(Import(cut.string()).kernels.size(), 3u);
  // The whole file: four rows, no warning.
  const Trace whole = Import(kV3 + "kernel_trace_truncated.csv");
  EXPECT_EQ(whole.kernels.size(), 4u);
  EXPECT_FALSE(AnyWarningHas(whole, "kernel_trace_truncated.csv:"));
}

TEST(RocprofImporter, RaggedRowIsSkipped) {
  TempDir dir;
  std::string text = ReadFile(kV3 + "kernel_trace_truncated.csv");
  // Drop the last field of row 3 (line 3).
  const size_t line3 = text.find('\n', text.find('\n') + 1) + 1;
  const size_t eol = text.find('\n', line3);
  text.erase(text.rfind(',', eol), eol - text.rfind(',', eol));
  const fs::path ragged = dir / "kernel_trace.csv";
  WriteFile(ragged, text);
  const Trace t = Import(ragged.string());
  EXPECT_EQ(t.kernels.size(), 3u);
  EXPECT_TRUE(AnyWarningHas(t, ragged.string() + ":3: row has 21 fields where the header has 22"));
}

TEST(RocprofImporter, ForeignAndCounterFilesAreErrors) {
  TempDir dir;
  WriteFile(dir / "x.csv", "a,b,c\n1,2,3\n");
  StatusOr<Trace> foreign = ImportWith(RocprofImporter(), (dir / "x.csv").string(), {});
  ASSERT_FALSE(foreign.ok());
  EXPECT_EQ(foreign.status().position().line, 1u);
  EXPECT_NE(foreign.status().message().find("not a rocprof CSV header"), std::string::npos);
  StatusOr<Trace> counters = ImportWith(RocprofImporter(), kV3 + "counter_collection.csv", {});
  ASSERT_FALSE(counters.ok());
  EXPECT_NE(counters.status().message().find("kernel_trace.csv"), std::string::npos);
  WriteFile(dir / "empty.csv", "");
  EXPECT_FALSE(ImportWith(RocprofImporter(), (dir / "empty.csv").string(), {}).ok());
}

TEST(RocprofImporter, JsonFixture) {
  const Trace t = Import(kJsonFixture);
  EXPECT_EQ(t.format_version, "rocprofv3 JSON (--output-format json)");
  ASSERT_EQ(t.kernels.size(), 3u);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].name, "AMD Instinct MI300X");
  EXPECT_EQ(t.devices[0].index, 0);
  EXPECT_EQ(t.metadata.at(GfxArchMetadataKey(1)), "\"gfx942\"");
  const Kernel& gemm = t.kernels[0];
  EXPECT_EQ(t.str(gemm.name), "gemm_kernel(float const*, float const*, float*, int)");
  EXPECT_EQ(gemm.duration_ns, 120000);
  EXPECT_EQ(gemm.registers_per_thread, 128);
  EXPECT_EQ(gemm.accum_registers_per_thread, 128);
  EXPECT_EQ(gemm.scalar_registers, 96);
  EXPECT_EQ(gemm.shared_memory_bytes, 16384u);
  EXPECT_EQ(gemm.grid.x, 256u);
  EXPECT_EQ(gemm.stream, 1);
  ASSERT_EQ(t.transfers.size(), 1u);
  EXPECT_EQ(t.transfers[0].bytes, 4194304u);
  EXPECT_EQ(t.str(t.transfers[0].name), "Memcpy HtoD");
  ASSERT_EQ(t.api_calls.size(), 5u);
  for (const Kernel& k : t.kernels) {
    int launches = 0;
    for (const ApiCall& c : t.api_calls) {
      if (c.link.correlation == k.link.correlation) {
        EXPECT_EQ(t.str(c.name), "hipLaunchKernel");
        ++launches;
      }
    }
    EXPECT_EQ(launches, 1);
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::rocprof
