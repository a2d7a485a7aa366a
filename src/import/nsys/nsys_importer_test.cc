#include "import/nsys/nsys_importer.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "import/nsys/api_calls.h"
#include "import/nsys/stats_report.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;

const std::string kData = TM_SHARED_DATA "/nvidia/nsys_sqlite/";
const std::string kMock = kData + "nsysai_mock_rtx3080_2026.1.sqlite";
const std::string kH100 = kData + "nsysai_h100_2gpu_1s_2026.2.sqlite";
const std::string kNoKernels = kData + "jacc_report1_no_cuda_kernels_2026.1.sqlite";

Trace Load(const std::string& path) {
  StatusOr<Trace> trace = LoadTrace(path, {});
  EXPECT_TRUE(trace.ok()) << path << ": " << trace.status().message();
  return trace.ok() ? std::move(trace).value() : Trace();
}

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

bool HasWarning(const Trace& t, std::string_view part) {
  return std::any_of(t.warnings.begin(), t.warnings.end(),
                     [&](const std::string& w) { return w.find(part) != std::string::npos; });
}

// A fresh directory per test for the databases it writes.
class NsysTempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("tm_nsys_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Creates an SQLite database at `name` by running `sql`.
  std::string MakeDb(const std::string& name, const std::string& sql) {
    const std::string path = (dir_ / name).string();
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
    return path;
  }

  fs::path dir_;
};

TEST(NsysImporter, KnowsStatsReportsAreNotTraces) {
  // The header line of the shared llmperfopt_*_cuda_gpu_kern_sum.csv reports, and older nsys's.
  EXPECT_TRUE(nsys::IsStatsReportHeader(
      "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
      "66.6,1000,2,500.0,500.0,400,600,141.4,kernel\n"));
  EXPECT_TRUE(nsys::IsStatsReportHeader("Time(%),Total Time (ns),Num Calls,Average,Name\n"));
  EXPECT_FALSE(nsys::IsStatsReportHeader("Time (%),Total Time,Instances\n"));
  EXPECT_FALSE(nsys::IsStatsReportHeader("Name,Time (%),Total Time (ns)\n"));
  EXPECT_FALSE(nsys::IsStatsReportHeader("\n Time (%),Total Time (ns)\n"));
  EXPECT_EQ(nsys::NsysImporter().Sniff("Time (%),Total Time (ns),Instances\n"), 60);
}

// The older layout (no META_DATA_EXPORT; TARGET_INFO_GPU keyed by deviceId): its GPU properties
// come from TARGET_INFO_CUDA_GPU, in kB/s and kHz there (sqlite3 on the file: A100-PCIE-40GB,
// 108 SMs, CC 8.0, globalMemoryBandwidth 1555200000, coreClockRate 1410000).
TEST(NsysImporter, ReadsTheOlderLayout) {
  const Trace t = Load(kData + "extrap_ex-gpu_s10_callchains_old_schema.sqlite");
  EXPECT_EQ(t.kernels.size(), 6u);
  EXPECT_EQ(t.described_device_count, 4);
  ASSERT_EQ(t.devices.size(), 1u);  // only deviceId 0 ran kernels
  const Device& d = t.devices[0];
  EXPECT_EQ(d.name, "A100-PCIE-40GB");
  EXPECT_TRUE(d.described);
  EXPECT_EQ(d.sm_count, 108);
  EXPECT_EQ(d.compute_major, 8);
  EXPECT_EQ(d.compute_minor, 0);
  EXPECT_EQ(d.max_threads_per_sm, 64 * 32);
  EXPECT_EQ(d.registers_per_sm, 65536);
  EXPECT_EQ(d.shared_memory_per_sm, 167936);
  EXPECT_EQ(t.metadata.at("gpu.0.memoryBandwidth"), "1555200000000");
  EXPECT_EQ(t.metadata.at("gpu.0.clockRate"), "1410000000");
  EXPECT_NE(t.format_version.find("unknown"), std::string::npos) << t.format_version;
}

TEST(NsysImporter, SniffsTheSqliteMagic) {
  nsys::NsysImporter importer;
  const std::string magic("SQLite format 3\0", 16);
  EXPECT_EQ(importer.Sniff(magic + "...CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL"), 100);
  EXPECT_EQ(importer.Sniff(magic + "...CREATE TABLE StringIds"), 100);
  EXPECT_GT(importer.Sniff(magic + "...CREATE TABLE other"), 0);  // Import says why not
  EXPECT_EQ(importer.Sniff("{\"traceEvents\": []}"), 0);
  EXPECT_EQ(importer.Sniff("SQLite format 2"), 0);
}

TEST(NsysImporter, StripsTheApiVersionSuffix) {
  EXPECT_EQ(nsys::StripApiVersion("cudaLaunchKernel_v7000"), "cudaLaunchKernel");
  EXPECT_EQ(nsys::StripApiVersion("cudaGetDeviceProperties_v12000"), "cudaGetDeviceProperties");
  EXPECT_EQ(nsys::StripApiVersion("cuModuleGetLoadingMode"), "cuModuleGetLoadingMode");
  EXPECT_EQ(nsys::StripApiVersion("my_var"), "my_var");
  EXPECT_EQ(nsys::StripApiVersion("name_v"), "name_v");
}

// Expected values read with the sqlite3 shell from the file (see PROVENANCE.md).
TEST(NsysImporter, ReadsTheRtx3080ExportExactly) {
  Trace t = Load(kMock);
  EXPECT_EQ(t.format, "nsys-sqlite");
  EXPECT_EQ(t.format_version, "export schema 3.24.14, Nsight Systems 2026.1.1.204");
  EXPECT_EQ(t.backends, (std::vector<Backend>{Backend::kCpu, Backend::kCuda}));
  EXPECT_EQ(t.base_time_ns, 1776781226557295056);  // TARGET_INFO_SESSION_START_TIME.utcEpochNs
  EXPECT_TRUE(t.warnings.empty()) << t.warnings.front();

  ASSERT_EQ(t.kernels.size(), 2u);
  const Kernel& fill = t.kernels[0];
  EXPECT_EQ(
      t.str(fill.name),
      "void at::native::vectorized_elementwise_kernel<(int)4, at::native::FillFunctor<float>, "
      "std::array<char *, (unsigned long)1>>(int, T2, T3)");
  EXPECT_EQ(fill.start_ns, 1517727052 + 1776781226557295056);
  EXPECT_EQ(fill.duration_ns, 1517728492 - 1517727052);
  EXPECT_EQ(fill.stream, 7);
  // correlationId 143 of the export's one process (ordinal 0): unique per process, as nsys joins.
  EXPECT_EQ(fill.link.correlation, (uint64_t{1} << 32) | 143u);
  EXPECT_EQ(fill.grid.x, 1u);
  EXPECT_EQ(fill.block.x, 128u);
  EXPECT_EQ(fill.registers_per_thread, 16);
  const Kernel& reduce = t.kernels[1];
  EXPECT_EQ(reduce.duration_ns, 1535981719 - 1535979030);
  EXPECT_EQ(reduce.block.x, 16u);
  EXPECT_EQ(reduce.registers_per_thread, 28);
  EXPECT_EQ(reduce.shared_memory_bytes, 16u);  // static 16 + dynamic 0

  ASSERT_EQ(t.devices.size(), 1u);
  const Device& gpu = t.devices[0];
  EXPECT_EQ(fill.device, 0u);
  EXPECT_EQ(gpu.name, "NVIDIA GeForce RTX 3080");
  EXPECT_EQ(gpu.backend, Backend::kCuda);
  EXPECT_EQ(gpu.vendor, "NVIDIA");
  EXPECT_EQ(gpu.trace_id, 0);
  EXPECT_EQ(gpu.index, 0);
  EXPECT_EQ(gpu.compute_major, 8);
  EXPECT_EQ(gpu.compute_minor, 6);
  EXPECT_EQ(gpu.sm_count, 68);
  EXPECT_EQ(gpu.warp_size, 32);
  EXPECT_EQ(gpu.max_threads_per_sm, 48 * 32);
  EXPECT_EQ(gpu.registers_per_sm, 65536);
  EXPECT_EQ(gpu.shared_memory_per_sm, 102400);
  EXPECT_EQ(gpu.shared_memory_per_block, 49152);
  EXPECT_EQ(gpu.total_memory_bytes, 10736893952);
  EXPECT_TRUE(gpu.described);
  EXPECT_EQ(t.described_device_count, 1);
  EXPECT_EQ(t.metadata["gpu.0.memoryBandwidth"], "760080000000");
  EXPECT_EQ(t.metadata["gpu.0.clockRate"], "1710000000");
  EXPECT_EQ(t.metadata["gpu.0.chipName"], "GA102");

  ASSERT_EQ(t.transfers.size(), 1u);
  EXPECT_EQ(t.str(t.transfers[0].name), "[CUDA memcpy Device-to-Host]");
  EXPECT_EQ(t.transfers[0].bytes, 4u);
  EXPECT_EQ(t.transfers[0].link.correlation, (uint64_t{1} << 32) | 171u);

  EXPECT_EQ(t.counts.runtime_calls, 8u);
  EXPECT_EQ(t.counts.driver_calls, 1u);
  EXPECT_EQ(t.counts.sync_events, 1u);
  ASSERT_EQ(t.api_calls.size(), 10u);  // 8 runtime + 1 driver calls + the sync record (kSync)
  ASSERT_EQ(t.tracks.size(), 1u);
  EXPECT_EQ(t.tracks[0].pid, 91186);  // (globalTid >> 24) & 0xFFFFFF
  EXPECT_EQ(t.tracks[0].tid, 91186);
  EXPECT_EQ(t.tracks[0].thread_name, "python");
  int launches = 0;
  for (const ApiCall& c : t.api_calls) {
    if (t.str(c.name) == "cudaLaunchKernel") {
      ++launches;
      EXPECT_EQ(c.kind, ApiKind::kRuntime);
    }
    if (t.str(c.name) == "cuModuleGetLoadingMode") {
      EXPECT_EQ(c.kind, ApiKind::kDriver);
    }
    EXPECT_EQ(t.str(c.name).find("_v"), std::string_view::npos) << t.str(c.name);
  }
  EXPECT_EQ(launches, 2);
  // The launch of the first kernel carries its correlation id.
  EXPECT_TRUE(std::any_of(t.api_calls.begin(), t.api_calls.end(), [&](const ApiCall& c) {
    return c.link.correlation == fill.link.correlation && t.str(c.name) == "cudaLaunchKernel";
  }));
}

TEST(NsysImporter, ReadsTheTwoGpuExportWithoutTargetInfoGpu) {
  Trace t = Load(kH100);
  EXPECT_EQ(t.format_version, "export schema 3.25.0, Nsight Systems 2026.2.1.210");
  EXPECT_EQ(t.counts.kernels, 3442u);
  ASSERT_EQ(t.kernels.size(), 3442u);
  int64_t total = 0;
  for (const Kernel& k : t.kernels) total += k.duration_ns;
  EXPECT_EQ(total, 44829522);  // SELECT sum(end - start) FROM CUPTI_ACTIVITY_KIND_KERNEL
  EXPECT_EQ(t.counts.memcpys, 904u);
  EXPECT_EQ(t.counts.memsets, 22u);
  EXPECT_EQ(t.counts.runtime_calls, 5796u);
  EXPECT_EQ(t.counts.sync_events, 244u);
  // Every NVTX range of this export is PyTorch's emit_nvtx "aten::op, op_id = N": framework ops.
  EXPECT_EQ(t.counts.ops, 16782u);
  EXPECT_EQ(t.counts.annotations, 0u);
  EXPECT_EQ(t.slices.size(), 16782u);
  EXPECT_EQ(t.counts.skipped, 0u);
  uint64_t memset_bytes = 0;
  for (const Transfer& x : t.transfers) {
    if (x.kind == TransferKind::kMemset) memset_bytes += x.bytes;
  }
  EXPECT_EQ(memset_bytes, 17672u);

  // No TARGET_INFO_GPU: two devices known only by the deviceId of their kernels.
  ASSERT_EQ(t.devices.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(t.devices[i].trace_id, i);
    EXPECT_EQ(t.devices[i].backend, Backend::kCuda);
    EXPECT_TRUE(t.devices[i].name.empty());
    EXPECT_FALSE(t.devices[i].described);
  }
  EXPECT_EQ(t.described_device_count, 0);
  EXPECT_TRUE(HasWarning(t, "no TARGET_INFO_GPU"));

  // Two processes (pids 111 and 112), one CUDA thread each, named by ThreadNames.
  ASSERT_EQ(t.tracks.size(), 2u);
  for (const Track& track : t.tracks) {
    EXPECT_TRUE(track.pid == 111 || track.pid == 112) << track.pid;
    EXPECT_EQ(track.tid, track.pid);
    EXPECT_EQ(track.thread_name, "python3");
  }
  const int64_t base = 1779630014975716426;
  EXPECT_EQ(t.span_start_ns, base + 155357525002);  // min(start) over the activity tables
  EXPECT_EQ(t.span_end_ns, base + 156326972607);
  ASSERT_FALSE(t.slices.empty());
  EXPECT_EQ(t.slices[0].kind, SliceKind::kOp);
  EXPECT_EQ(t.str(t.slices[0].name), "aten::view");  // from "aten::view, op_id = 314290"
  EXPECT_EQ(t.slices[0].external_id, 314290);
}

TEST(NsysImporter, AnExportWithoutKernelTablesSaysSo) {
  Trace t = Load(kNoKernels);
  EXPECT_EQ(t.format, "nsys-sqlite");
  EXPECT_TRUE(t.kernels.empty());
  EXPECT_TRUE(t.devices.empty());          // nothing ran on the four A100s
  EXPECT_EQ(t.described_device_count, 4);  // but TARGET_INFO_GPU describes them
  EXPECT_TRUE(t.backends.empty());
  EXPECT_TRUE(HasWarning(t, "no CUDA kernel data"));
}

// Columns are found by name: a table whose columns come in another order, lacking the optional
// ones, reads the same. Also: dangling names, bad times, NVTX text ids, open ranges.
TEST_F(NsysTempDir, SelectsColumnsByNameAndSkipsBadRows) {
  const std::string path = MakeDb("variant.sqlite", R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO StringIds VALUES (1, 'void k<int>(int)'), (2, 'k'), (3, 'cudaLaunchKernel_v7000'),
                                 (4, 'registered range');
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (
      shortName INTEGER, gridX INTEGER, deviceId INTEGER, end INTEGER, demangledName INTEGER,
      start INTEGER, correlationId INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES
      (2, 64, 5, 1100, 1, 1000, 7),
      (2, 64, 5, 2300, 99, 2000, 8),
      (2, 64, 5, 2900, 1, 3000, 9),
      (2, 64, 5, NULL, 1, 4000, 10);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (nameId INTEGER, start INTEGER, end INTEGER,
                                              correlationId INTEGER, globalTid INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (3, 900, 950, 7, 283004824020018);
    CREATE TABLE NVTX_EVENTS (start INTEGER, end INTEGER, eventType INTEGER, text TEXT,
                              textId INTEGER, globalTid INTEGER);
    INSERT INTO NVTX_EVENTS VALUES (800, 2500, 59, NULL, 4, 283004824020018),
                                   (810, NULL, 59, 'open', NULL, 283004824020018),
                                   (820, NULL, 34, 'mark', NULL, 283004824020018);
    CREATE TABLE TARGET_INFO_GPU (id INTEGER, name TEXT);
    INSERT INTO TARGET_INFO_GPU VALUES (5, 'Some GPU');
  )sql");
  Trace t = Load(path);
  EXPECT_EQ(t.format_version, "export schema unknown (no META_DATA_EXPORT or EXPORT_META_DATA)");
  EXPECT_EQ(t.counts.kernels, 2u);  // as Kineto: kept rows; the skipped ones are counted apart
  ASSERT_EQ(t.kernels.size(), 2u);  // end before start and no end: skipped
  EXPECT_EQ(t.str(t.kernels[0].name), "void k<int>(int)");
  EXPECT_EQ(t.kernels[0].duration_ns, 100);
  EXPECT_EQ(t.kernels[0].grid.x, 64u);
  EXPECT_EQ(t.kernels[0].stream, -1);  // no streamId column
  EXPECT_EQ(t.kernels[0].link.correlation & 0xFFFFFFFF, 7u);
  EXPECT_EQ(t.str(t.kernels[1].name), "k");  // demangled id 99 dangles: the base name stands in
  EXPECT_EQ(t.counts.skipped, 3u);           // two kernels and the open NVTX range
  EXPECT_TRUE(HasWarning(t, "CUPTI_ACTIVITY_KIND_KERNEL row 3: ends 100 ns before it starts"));
  EXPECT_TRUE(HasWarning(t, "CUPTI_ACTIVITY_KIND_KERNEL row 4: no end time"));
  EXPECT_TRUE(HasWarning(t, "base or mangled name"));
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].name, "Some GPU");
  EXPECT_EQ(t.devices[0].index, -1);  // no cuDevice column: the ordinal is unknown
  ASSERT_EQ(t.api_calls.size(), 1u);
  EXPECT_EQ(t.str(t.api_calls[0].name), "cudaLaunchKernel");
  EXPECT_EQ(t.api_calls[0].kind, ApiKind::kRuntime);  // no eventClass: decided by the name
  ASSERT_EQ(t.slices.size(), 1u);
  EXPECT_EQ(t.str(t.slices[0].name), "registered range");
  EXPECT_EQ(t.counts.instants, 1u);
  EXPECT_FALSE(t.base_time_ns.has_value());
  EXPECT_EQ(t.span_start_ns, 800);
  EXPECT_EQ(t.span_end_ns, 2500);
}

TEST_F(NsysTempDir, AnotherSqliteDatabaseIsNotAnExport) {
  const std::string path = MakeDb("other.sqlite",
                                  "CREATE TABLE notes (id INTEGER, text TEXT); "
                                  "INSERT INTO notes VALUES (1, 'hello');");
  StatusOr<Trace> t = LoadTrace(path, {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kUnreadableInput);
  EXPECT_NE(t.status().message().find("not an Nsight Systems export"), std::string::npos)
      << t.status().message();
}

TEST_F(NsysTempDir, AMissingRequiredColumnIsAClearError) {
  const std::string path = MakeDb("nostart.sqlite", R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (begin INTEGER, end INTEGER, deviceId INTEGER,
                                             demangledName INTEGER);
  )sql");
  StatusOr<Trace> t = LoadTrace(path, {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kUnreadableInput);
  EXPECT_NE(t.status().message().find("CUPTI_ACTIVITY_KIND_KERNEL has no column 'start'"),
            std::string::npos)
      << t.status().message();
}

// A damaged database is an error naming what could not be read, never a crash.
TEST_F(NsysTempDir, ADamagedDatabaseIsAnError) {
  std::string bytes = ReadBytes(kMock);
  ASSERT_GT(bytes.size(), 100000u);
  // Overwrite every page after the first few with garbage (page headers included).
  for (size_t i = size_t{3} * 4096; i < bytes.size(); ++i)
    bytes[i] = static_cast<char>(0xA5 ^ (i * 31));
  const std::string path = (dir_ / "damaged.sqlite").string();
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  StatusOr<Trace> t = LoadTrace(path, {});
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kUnreadableInput);
  EXPECT_NE(t.status().message().find("damaged"), std::string::npos) << t.status().message();

  // Damage only the kernel table's root page: the schema reads, the kernel rows do not.
  std::string pristine = ReadBytes(kMock);
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open_v2(("file:" + kMock + "?immutable=1").c_str(), &db,
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db,
                               "SELECT rootpage FROM sqlite_master WHERE name = "
                               "'CUPTI_ACTIVITY_KIND_KERNEL'",
                               -1, &st, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  const int64_t root = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  sqlite3_close(db);
  constexpr size_t kPage = 4096;  // PRAGMA page_size of the file
  std::fill(pristine.begin() + (root - 1) * kPage, pristine.begin() + root * kPage, '\xFF');
  const std::string page_path = (dir_ / "page.sqlite").string();
  std::ofstream(page_path, std::ios::binary)
      .write(pristine.data(), static_cast<std::streamsize>(pristine.size()));
  StatusOr<Trace> p = LoadTrace(page_path, {});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), StatusCode::kUnreadableInput);
  EXPECT_NE(p.status().message().find("damaged"), std::string::npos) << p.status().message();
  EXPECT_NE(p.status().message().find("CUPTI_ACTIVITY_KIND_KERNEL"), std::string::npos)
      << p.status().message();

  // Only the header: the magic is there, nothing else.
  const std::string header_only = (dir_ / "header.sqlite").string();
  std::ofstream(header_only, std::ios::binary).write(bytes.data(), 100);
  StatusOr<Trace> h = LoadTrace(header_only, {});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.status().code(), StatusCode::kUnreadableInput) << h.status().message();
}

TEST_F(NsysTempDir, AGzippedExportAsksToBeDecompressed) {
  std::string bytes = ReadBytes(kMock);
  const std::string path = (dir_ / "export.sqlite.gz").string();
  gzFile gz = gzopen(path.c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  ASSERT_EQ(gzwrite(gz, bytes.data(), static_cast<unsigned>(bytes.size())),
            static_cast<int>(bytes.size()));
  gzclose(gz);
  StatusOr<Trace> t = LoadTrace(path, {});
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.status().message().find("decompress it first"), std::string::npos)
      << t.status().message();
}

TEST(NsysImporter, ForcedOnJsonSaysItIsNotSqlite) {
  ImportOptions options;
  options.input_format = "nsys-sqlite";
  StatusOr<Trace> t = LoadTrace(TM_SOURCE_DIR "/tests/data/legacy_autograd_profile.json", options);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), StatusCode::kUnreadableInput);
  EXPECT_NE(t.status().message().find("not an SQLite 3 database"), std::string::npos)
      << t.status().message();
}

// Nsight Systems 2022 exports keep the export's description in EXPORT_META_DATA (later ones in
// META_DATA_EXPORT): the version is read from either. The values here are made up; the table's
// name and its name/value columns are the 2022 layout's.
TEST_F(NsysTempDir, VersionFromThe2022MetadataTable) {
  const std::string path = MakeDb("meta2022.sqlite", R"sql(
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO StringIds VALUES (1, 'k');
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (shortName INTEGER, demangledName INTEGER,
                                             deviceId INTEGER, start INTEGER, end INTEGER);
    INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (1, 1, 0, 1000, 1100);
    CREATE TABLE EXPORT_META_DATA (name TEXT, value TEXT);
    INSERT INTO EXPORT_META_DATA VALUES ('EXPORT_SCHEMA_VERSION', '2.7.1'),
                                        ('EXPORT_PRODUCT_VERSION', '2022.4.2');
  )sql");
  const Trace t = Load(path);
  EXPECT_EQ(t.format_version, "export schema 2.7.1, Nsight Systems 2022.4.2");
  EXPECT_EQ(t.kernels.size(), 1u);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
