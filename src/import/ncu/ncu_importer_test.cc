#include "import/ncu/ncu_importer.h"

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "tensormorph/import/importer.h"

namespace tensormorph::ncu {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

const std::string kData = TM_SHARED_DATA "/nvidia/ncu_csv/";
const std::string kFixture = TM_SOURCE_DIR "/tests/data/ncu_raw_fixture.csv";

const std::string kK0001Name =
    "enable_if<!T7, void>::type kernel<int, int, __nv_bfloat16, __nv_bfloat16, __nv_bfloat16, "
    "float, 0, 1, 1, 0, 7, 0, cublasGemvParamsEx<int, cublasGemvTensorStridedBatched<const "
    "__nv_bfloat16>, cublasGemvTensorStridedBatched<const __nv_bfloat16>, "
    "cublasGemvTensorStridedBatched<__nv_bfloat16>, float>>(T13)";
const std::string kK0004Name =
    "void unrolled_elementwise_kernel<direct_copy_kernel_cuda(TensorIteratorBase &)::[lambda() "
    "(instance 3)]::operator ()() lambda() (instance 7)]::operator ()() lambda(float) (instance "
    "1)], array<char *, 2>, 4, TrivialOffsetCalculator<1, unsigned int>, "
    "TrivialOffsetCalculator<1, unsigned int>, LoadWithCast<1>, StoreWithCast<1>>(int, T1, T2, "
    "T4, T5, T6, T7)";

StatusOr<Trace> Load(const std::string& path) {
  return LoadTrace(path, ImportOptions{});
}

Trace MustLoad(const std::string& path) {
  StatusOr<Trace> trace = Load(path);
  EXPECT_TRUE(trace.ok()) << path << ": " << trace.status().message();
  return trace.ok() ? std::move(trace).value() : Trace();
}

// A file of its own per test, removed at the end.
class TempCsv {
 public:
  explicit TempCsv(std::string_view text) {
    path_ = std::filesystem::temp_directory_path() /
            ("tm_ncu_" + std::to_string(getpid()) + "_" + std::to_string(counter_++) + ".csv");
    std::ofstream(path_, std::ios::binary) << text;
  }
  ~TempCsv() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

bool AnyContains(const std::vector<std::string>& list, std::string_view part) {
  return std::any_of(list.begin(), list.end(),
                     [&](const std::string& s) { return s.find(part) != std::string::npos; });
}

const CounterValue* FindMetric(const Trace& t, const KernelCounters& c, std::string_view section,
                               std::string_view name) {
  for (const CounterValue& v : c.metrics) {
    if (t.str(v.section) == section && t.str(v.name) == name) return &v;
  }
  return nullptr;
}

void ExpectDims(const Dim3& d, uint32_t x, uint32_t y, uint32_t z) {
  EXPECT_EQ(d.x, x);
  EXPECT_EQ(d.y, y);
  EXPECT_EQ(d.z, z);
}

// Values below are the ones written in each file (rows "gpu__time_duration.sum" / "Duration",
// "Achieved Occupancy", "dram__bytes_read.sum" + "dram__bytes_write.sum", the Block Size and Grid
// Size columns). None of the real exports has the Launch Statistics section, so registers and
// shared memory are absent.
TEST(NcuImporter, K0001Details) {
  Trace t = MustLoad(kData + "llmperfopt_k0001_ncu.details.csv");
  EXPECT_EQ(t.format, "ncu-csv");
  EXPECT_NE(t.format_version.find("details page"), std::string::npos);
  EXPECT_NE(t.format_version.find("synthetic"), std::string::npos);
  EXPECT_EQ(t.backends, std::vector<Backend>{Backend::kCuda});
  EXPECT_TRUE(t.warnings.empty()) << t.warnings.front();
  ASSERT_EQ(t.kernels.size(), 1u);
  ASSERT_EQ(t.kernel_counters.size(), 1u);
  const Kernel& k = t.kernels[0];
  EXPECT_EQ(t.str(k.name), kK0001Name);
  EXPECT_EQ(k.duration_ns, 6750);  // "6.75" us
  EXPECT_EQ(k.start_ns, 0);
  EXPECT_EQ(k.stream, 7);
  ExpectDims(k.block, 32, 4, 1);
  ExpectDims(k.grid, 224, 1, 1);
  EXPECT_EQ(k.achieved_occupancy_percent, 11);
  EXPECT_EQ(k.registers_per_thread, 0);
  const KernelCounters& c = t.kernel_counters[0];
  EXPECT_EQ(c.kernel, 0u);
  EXPECT_EQ(c.achieved_occupancy_percent, 11.32);
  EXPECT_EQ(c.dram_bytes, 2330000.0);  // 2.33 Mbyte read + 0 byte written
  EXPECT_EQ(c.tensor_ops, 0.0);        // bf16_dst_fp32 "0"; bf16_dst_bf16 "n/a"
  EXPECT_FALSE(c.fp32_flops);          // no sass instruction counts; flop_count_sp is "n/a"
  EXPECT_FALSE(c.fp64_flops);
  EXPECT_FALSE(c.fp16_flops);
  EXPECT_FALSE(c.registers_per_thread);
  EXPECT_FALSE(c.shared_memory_bytes);
  const CounterValue* cycles = FindMetric(t, c, "GPU Speed Of Light Throughput", "Elapsed Cycles");
  ASSERT_NE(cycles, nullptr);
  EXPECT_EQ(cycles->value, 13485.0);  // "13,485"
  EXPECT_EQ(t.str(cycles->unit), "cycle");
  const CounterValue* freq = FindMetric(t, c, "GPU Speed Of Light Throughput", "DRAM Frequency");
  ASSERT_NE(freq, nullptr);
  EXPECT_EQ(freq->value, 13.72e9);
  EXPECT_EQ(t.str(freq->unit), "Hz");
  // "Memory Throughput" is a percentage in one section and a rate in another.
  const CounterValue* mem = FindMetric(t, c, "Memory Workload Analysis", "Memory Throughput");
  ASSERT_NE(mem, nullptr);
  EXPECT_EQ(mem->value, 345.14e9);
  EXPECT_EQ(t.str(mem->unit), "byte/s");
  ASSERT_EQ(t.devices.size(), 1u);
  const Device& d = t.devices[0];
  EXPECT_EQ(d.backend, Backend::kCuda);
  EXPECT_EQ(d.index, 0);
  EXPECT_EQ(d.compute_major, 12);
  EXPECT_EQ(d.compute_minor, 0);
  EXPECT_EQ(d.name, "");  // the details page names no device
  EXPECT_EQ(t.span_start_ns, 0);
  EXPECT_EQ(t.span_end_ns, 6750);
}

TEST(NcuImporter, K0004Details) {
  Trace t = MustLoad(kData + "llmperfopt_k0004_ncu.details.csv");
  EXPECT_TRUE(t.warnings.empty());
  ASSERT_EQ(t.kernels.size(), 1u);
  const Kernel& k = t.kernels[0];
  EXPECT_EQ(t.str(k.name), kK0004Name);
  EXPECT_EQ(k.duration_ns, 4700);  // "4.70" us
  ExpectDims(k.block, 128, 1, 1);
  ExpectDims(k.grid, 2, 1, 1);
  const KernelCounters& c = t.kernel_counters[0];
  EXPECT_EQ(c.achieved_occupancy_percent, 8.31);
  EXPECT_EQ(c.dram_bytes, 32770.0);  // "32.77" Kbyte
  EXPECT_EQ(c.tensor_ops, 0.0);
  EXPECT_FALSE(c.fp32_flops);
  EXPECT_FALSE(c.registers_per_thread);
}

// The same launch exported with --metrics only, and section by section.
TEST(NcuImporter, K0001PartialExports) {
  {
    Trace t = MustLoad(kData + "llmperfopt_k0001_ncu.metrics.csv");
    ASSERT_EQ(t.kernels.size(), 1u);
    EXPECT_EQ(t.str(t.kernels[0].name), kK0001Name);
    EXPECT_EQ(t.kernels[0].duration_ns, 6750);
    ExpectDims(t.kernels[0].block, 32, 4, 1);
    EXPECT_EQ(t.kernel_counters[0].dram_bytes, 2330000.0);
    EXPECT_FALSE(t.kernel_counters[0].achieved_occupancy_percent);  // no Occupancy section
  }
  {
    Trace t = MustLoad(kData + "llmperfopt_k0001_ncu.section_SpeedOfLight.csv");
    ASSERT_EQ(t.kernels.size(), 1u);
    EXPECT_EQ(t.kernels[0].duration_ns, 6750);  // the section's "Duration" row
    EXPECT_FALSE(t.kernel_counters[0].dram_bytes);
  }
  {
    Trace t = MustLoad(kData + "llmperfopt_k0001_ncu.section_Occupancy.csv");
    ASSERT_EQ(t.kernels.size(), 1u);
    EXPECT_EQ(t.kernels[0].duration_ns, 0);
    EXPECT_TRUE(AnyContains(t.warnings, "no duration")) << ::testing::PrintToString(t.warnings);
    EXPECT_EQ(t.kernel_counters[0].achieved_occupancy_percent, 11.32);
    ExpectDims(t.kernels[0].grid, 224, 1, 1);
    const CounterValue* limit =
        FindMetric(t, t.kernel_counters[0], "Occupancy", "Block Limit Registers");
    ASSERT_NE(limit, nullptr);
    EXPECT_EQ(limit->value, 2.0);
  }
}

// The section export with the extra "Body Item Label" column.
TEST(NcuImporter, RooflineChartWithBodyItemLabel) {
  Trace t = MustLoad(kData + "llmperfopt_k0001_ncu.section_SpeedOfLight_RooflineChart.csv");
  EXPECT_NE(t.format_version.find("Body Item Label"), std::string::npos);
  ASSERT_EQ(t.kernels.size(), 1u);
  EXPECT_EQ(t.str(t.kernels[0].name), kK0001Name);
  const KernelCounters& c = t.kernel_counters[0];
  const std::string chart = "GPU Speed Of Light Roofline Chart";
  const CounterValue* peak =
      FindMetric(t, c, chart, "Theoretical Predicated-On FFMA Thread Instructions Executed");
  ASSERT_NE(peak, nullptr);
  EXPECT_EQ(peak->value, 21760.0);
  EXPECT_EQ(t.str(peak->unit), "inst/cycle");
  const CounterValue* ffma = FindMetric(t, c, chart + " / Single Precision Achieved Value",
                                        "Predicated-On FFMA Operations Per Cycle");
  ASSERT_NE(ffma, nullptr);
  EXPECT_EQ(ffma->value, 158.12);
  const CounterValue* clock =
      FindMetric(t, c, chart + " / Single Precision Achieved Value", "SM Frequency");
  ASSERT_NE(clock, nullptr);
  EXPECT_EQ(clock->value, 2.15e9);
  const CounterValue* bw =
      FindMetric(t, c, chart + " / Double Precision Achieved Value", "DRAM Bandwidth");
  ASSERT_NE(bw, nullptr);
  EXPECT_EQ(bw->value, 345.14e9);
}

TEST(NcuImporter, ErrorOnlyFileIsAClearError) {
  StatusOr<Trace> t = Load(kData + "llmperfopt_error_raw.csv");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kUnreadableInput);
  EXPECT_EQ(t.status().position().line, 1u);
  const std::string& m = t.status().message();
  EXPECT_NE(m.find("Nsight Compute (ncu) failed"), std::string::npos) << m;
  EXPECT_NE(m.find("did not match any section"), std::string::npos) << m;
  EXPECT_NE(m.find("--list-sections"), std::string::npos) << m;
}

// tests/data/ncu_raw_fixture.csv, written from the documented raw layout (see its README).
TEST(NcuImporter, RawPageFixture) {
  Trace t = MustLoad(kFixture);
  EXPECT_NE(t.format_version.find("raw page"), std::string::npos);
  EXPECT_TRUE(t.warnings.empty()) << t.warnings.front();
  ASSERT_EQ(t.kernels.size(), 3u);
  ASSERT_EQ(t.kernel_counters.size(), 3u);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].name, "NVIDIA GeForce RTX 4090");
  EXPECT_EQ(t.devices[0].compute_major, 8);
  EXPECT_EQ(t.devices[0].compute_minor, 9);
  EXPECT_EQ(t.devices[0].sm_count, 128);
  EXPECT_TRUE(t.devices[0].described);
  EXPECT_EQ(t.described_device_count, 1);

  // Model order (device, stream, start): stream 7 holds IDs 0 and 1, stream 13 ID 2.
  const Kernel& k0 = t.kernels[0];
  EXPECT_EQ(t.str(k0.name),
            "void gemm_kernel<float, 128, 8>(const float *, const float *, float *, int)");
  EXPECT_EQ(k0.stream, 7);
  EXPECT_EQ(k0.start_ns, 0);
  EXPECT_EQ(k0.duration_ns, 1234560);  // "1,234.56" usecond
  ExpectDims(k0.block, 128, 1, 1);
  ExpectDims(k0.grid, 256, 4, 1);
  EXPECT_EQ(k0.registers_per_thread, 64);
  EXPECT_EQ(k0.shared_memory_bytes, 16380u);  // "16.38" Kbyte/block static + 0 dynamic
  EXPECT_EQ(k0.achieved_occupancy_percent, 62);
  const KernelCounters& c0 = t.kernel_counters[0];
  EXPECT_EQ(c0.kernel, 0u);
  EXPECT_EQ(c0.fp32_flops, 1048576.0 + 524288.0 + 2 * 33554432.0);
  EXPECT_EQ(c0.dram_bytes, 12580000.0 + 524290.0);
  EXPECT_EQ(c0.tensor_ops, 0.0);
  EXPECT_EQ(c0.registers_per_thread, 64u);
  EXPECT_EQ(c0.shared_memory_bytes, 16380u);
  EXPECT_EQ(c0.achieved_occupancy_percent, 61.87);
  EXPECT_FALSE(c0.fp64_flops);

  const Kernel& k1 = t.kernels[1];
  EXPECT_EQ(k1.stream, 7);
  EXPECT_EQ(k1.start_ns, 1234560);  // synthetic: right after ID 0 on its stream
  EXPECT_EQ(k1.duration_ns, 3200);
  ExpectDims(k1.grid, 8192, 1, 1);
  const KernelCounters& c1 = t.kernel_counters[1];
  EXPECT_EQ(c1.fp32_flops, 0.0);
  EXPECT_FALSE(c1.dram_bytes);  // read "n/a": a total of the write alone would understate it
  EXPECT_FALSE(c1.tensor_ops);
  EXPECT_EQ(c1.registers_per_thread, 16u);

  const Kernel& k2 = t.kernels[2];
  ExpectDims(k2.block, 256, 1, 1);
  EXPECT_EQ(t.str(k2.name), "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_nn");
  EXPECT_EQ(k2.stream, 13);
  EXPECT_EQ(k2.start_ns, 0);
  EXPECT_EQ(k2.duration_ns, 2050000);  // "2,050.00" usecond
  ExpectDims(k2.grid, 108, 2, 1);
  EXPECT_EQ(k2.registers_per_thread, 232);
  EXPECT_EQ(k2.shared_memory_bytes, 73728u);
  const KernelCounters& c2 = t.kernel_counters[2];
  EXPECT_EQ(c2.tensor_ops, 268435456.0);
  EXPECT_EQ(c2.dram_bytes, 33550000.0 + 8390000.0);
  EXPECT_FALSE(c2.fp32_flops);  // ffma "n/a"
  EXPECT_EQ(c2.achieved_occupancy_percent, 16.52);

  EXPECT_EQ(t.span_start_ns, 0);
  EXPECT_EQ(t.span_end_ns, 2050000);
}

TEST(NcuImporter, Sniff) {
  NcuCsvImporter importer;
  EXPECT_EQ(importer.Sniff("\"ID\",\"Process ID\",\"Process Name\"\n"), 100);
  EXPECT_EQ(importer.Sniff("\xEF\xBB\xBF\"ID\",\"Process ID\"\r\n"), 100);
  EXPECT_EQ(importer.Sniff("==PROF== Connected to process 7\nhello\n\"ID\",\"Process ID\"\n"), 95);
  EXPECT_GT(importer.Sniff("==ERROR== The application returned an error code (1).\n"), 50);
  EXPECT_GT(importer.Sniff("\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\","
                           "\"Invocations\"\n"),
            50);
  EXPECT_EQ(importer.Sniff("{\"traceEvents\": []}"), 0);
  EXPECT_EQ(importer.Sniff("hello world\n"), 0);
  EXPECT_EQ(importer.Sniff("# notes\nsee `\"ID\",\"Process ID\"` in a sentence\n"), 0);
}

constexpr std::string_view kDetailsHeader =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\","
    "\"Metric Unit\",\"Metric Value\",\"Rule Name\",\"Rule Type\",\"Rule Description\"";

std::string DetailsRow(std::string_view id, std::string_view kernel, std::string_view stream,
                       std::string_view section, std::string_view name, std::string_view unit,
                       std::string_view value, std::string_view eol = "\n") {
  return fmt::format(
      "\"{}\",\"1\",\"app\",\"host\",\"{}\",\"1\",\"{}\",\"(64, 1, 1)\",\"(10, 1, 1)\",\"0\","
      "\"9.0\",\"{}\",\"{}\",\"{}\",\"{}\",{}",
      id, kernel, stream, section, name, unit, value, eol);
}

// ncu's stdout when not written with --log-file: messages first, a BOM and CRLF line ends.
TEST(NcuImporter, StdoutCaptureWithBomCrlfAndMessages) {
  std::string text = "\xEF\xBB\xBF==PROF== Connected to process 42 (/usr/bin/app)\r\n";
  text += "application output, with a comma\r\n";
  text += "==WARNING== Found outstanding GPU clock reset.\r\n";
  text += std::string(kDetailsHeader) + "\r\n";
  text += DetailsRow("0", "k(int, \"\"q\"\")", "7", "Command line profiler metrics",
                     "gpu__time_duration.sum", "msecond", "1.50", "\r\n");
  text += DetailsRow("1", "k(int, \"\"q\"\")", "7", "Command line profiler metrics",
                     "gpu__time_duration.sum", "nsecond", "2,500", "\r\n");
  text += "==PROF== Disconnected from process 42\r\n";
  TempCsv file(text);
  Trace t = MustLoad(file.path());
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.str(t.kernels[0].name), "k(int, \"q\")");
  EXPECT_EQ(t.kernels[0].duration_ns, 1500000);
  EXPECT_EQ(t.kernels[1].start_ns, 1500000);
  EXPECT_EQ(t.kernels[1].duration_ns, 2500);
  EXPECT_EQ(t.devices[0].compute_major, 9);
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_EQ(t.warnings[0], "3:1: ncu reported: ==WARNING== Found outstanding GPU clock reset.");
}

TEST(NcuImporter, RaggedRowsAndBadValuesAreWarningsWithPositions) {
  std::string text = std::string(kDetailsHeader) + "\n";
  text += DetailsRow("0", "k", "7", "GPU Speed Of Light Throughput", "Duration", "us", "6.75");
  text += "\"0\",\"1\",\"app\",\"host\",\"k\",\"1\",\"7\"\n";  // line 3: stops early
  text += DetailsRow("0", "k", "7", "Occupancy", "Achieved Occupancy", "%", "1,23");  // line 4
  text += DetailsRow("0", "k", "7", "X", "dram__bytes.sum", "furlong", "5");          // line 5
  text += DetailsRow("x", "k", "7", "X", "dram__bytes.sum", "byte", "5");             // line 6
  text += DetailsRow("1", "k", "7", "X", "gpu__time_duration.sum", "Ghz", "5");       // line 7
  text += DetailsRow("2", "k", "7", "X", "gpu__time_duration.sum", "us", "1",
                     "\"a\",\"b\",\"c\",\"d\"\n");
  TempCsv file(text);
  Trace t = MustLoad(file.path());
  ASSERT_EQ(t.kernels.size(), 3u);
  EXPECT_EQ(t.kernels[0].duration_ns, 6750);
  EXPECT_FALSE(t.kernel_counters[0].achieved_occupancy_percent);
  EXPECT_FALSE(t.kernel_counters[0].dram_bytes);
  EXPECT_EQ(t.kernels[1].duration_ns, 0);
  EXPECT_EQ(t.kernels[2].duration_ns, 1000);
  const std::string all = ::testing::PrintToString(t.warnings);
  EXPECT_TRUE(AnyContains(t.warnings, "3:1: 7 fields, too few")) << all;
  EXPECT_TRUE(AnyContains(t.warnings, "4:")) << all;
  EXPECT_TRUE(AnyContains(t.warnings, "'1,23' of Achieved Occupancy is not a number")) << all;
  EXPECT_TRUE(AnyContains(t.warnings, "5:")) << all;
  EXPECT_TRUE(AnyContains(t.warnings, "unit 'furlong'")) << all;
  EXPECT_TRUE(AnyContains(t.warnings, "6:1: the ID 'x'")) << all;
  EXPECT_TRUE(AnyContains(t.warnings, "in 'Ghz', which is not a time")) << all;
  EXPECT_TRUE(AnyContains(t.warnings, "8:")) << all;
  EXPECT_TRUE(AnyContains(t.warnings, "19 fields, the header has 18")) << all;
  EXPECT_TRUE(AnyContains(t.warnings, "launches carry no duration")) << all;
}

// Block and grid sizes as "(x, y, z)": a thousands separator inside a component is not a
// component separator; a size that is no size is a warning at its column.
TEST(NcuImporter, BlockAndGridSizes) {
  std::string text = std::string(kDetailsHeader) + "\n";
  auto row = [](std::string_view id, std::string_view block, std::string_view grid) {
    return fmt::format(
        "\"{}\",\"1\",\"a\",\"h\",\"k\",\"1\",\"7\",\"{}\",\"{}\",\"0\",\"9.0\",\"S\","
        "\"gpu__time_duration.sum\",\"ns\",\"5\",\n",
        id, block, grid);
  };
  text += row("0", "(1,024, 1, 1)", "(65,535, 2, 3)");
  text += row("1", "(32,4,1)", "256");
  text += row("2", "(32; 4)", "(1, 2, 3, 4)");
  TempCsv file(text);
  Trace t = MustLoad(file.path());
  ASSERT_EQ(t.kernels.size(), 3u);
  ExpectDims(t.kernels[0].block, 1024, 1, 1);
  ExpectDims(t.kernels[0].grid, 65535, 2, 3);
  ExpectDims(t.kernels[1].block, 32, 4, 1);
  ExpectDims(t.kernels[1].grid, 256, 1, 1);
  EXPECT_TRUE(t.kernels[2].block.empty());
  EXPECT_TRUE(t.kernels[2].grid.empty());
  EXPECT_TRUE(AnyContains(t.warnings, "4:29: block size '(32; 4)'"))
      << ::testing::PrintToString(t.warnings);
  EXPECT_TRUE(AnyContains(t.warnings, "4:39: grid size '(1, 2, 3, 4)'"));
}

TEST(NcuImporter, RawPageWithoutUnitsRowReadsBaseUnits) {
  TempCsv file(
      "\"ID\",\"Process ID\",\"Kernel Name\",\"Stream\",\"Device\",\"CC\","
      "\"gpu__time_duration.sum\",\"dram__bytes.sum\"\n"
      "\"0\",\"1\",\"k\",\"3\",\"1\",\"8.0\",\"1,024\",\"4096\"\n"
      "\"1\",\"1\",\"k\",\"3\",\"1\",\"8.0\",\"10\"\n");
  Trace t = MustLoad(file.path());
  ASSERT_EQ(t.kernels.size(), 2u);
  EXPECT_EQ(t.kernels[0].duration_ns, 1024);
  EXPECT_EQ(t.kernel_counters[0].dram_bytes, 4096.0);
  EXPECT_EQ(t.kernels[1].start_ns, 1024);
  EXPECT_EQ(t.devices[0].index, 1);
  EXPECT_TRUE(AnyContains(t.warnings, "no units row")) << ::testing::PrintToString(t.warnings);
  EXPECT_TRUE(AnyContains(t.warnings, "3:1: 7 fields, the header has 8"));
}

TEST(NcuImporter, HeaderButNoLaunches) {
  TempCsv file(std::string(kDetailsHeader) + "\n");
  Trace t = MustLoad(file.path());
  EXPECT_TRUE(t.kernels.empty());
  EXPECT_TRUE(AnyContains(t.warnings, "no launches"));
}

TEST(NcuImporter, SummaryExportIsExplained) {
  TempCsv file(
      "\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Block Size\",\"Grid "
      "Size\",\"Device\",\"CC\",\"Invocations\",\"Section Name\",\"Metric Name\",\"Metric "
      "Unit\",\"Minimum\",\"Maximum\",\"Average\"\n");
  StatusOr<Trace> t = Load(file.path());
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("--print-summary"), std::string::npos);
}

TEST(NcuImporter, OnlyMessagesAndNoErrors) {
  TempCsv file("==PROF== Connected to process 1\n==PROF== Disconnected from process 1\n");
  StatusOr<Trace> t = Load(file.path());
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kUnreadableInput);
  EXPECT_NE(t.status().message().find("no Nsight Compute CSV header"), std::string::npos);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph::ncu
