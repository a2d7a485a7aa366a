// Chrome-JSON export of real traces from other formats, read back by our Kineto importer:
// kernel totals (count, device time, per name, per device and stream) and kernel -> launch links
// must be the same as the original import, and for Nsight Systems exports the same as the
// export's own CUPTI_ACTIVITY_KIND_KERNEL table read with SQL (an independent source). The file
// must also be JSON for an independent parser (nlohmann) with one thread per (device, stream).

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "export/chrome_json/event_writer.h"
#include "export/exporter.h"
#include "model/trace_order.h"
#include "support/run_tensormorph.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

using testing::RunResult;
using testing::RunTensormorph;

const std::string kData = TM_SHARED_DATA;
const std::string kH100 = kData + "/nvidia/nsys_sqlite/nsysai_h100_2gpu_1s_2026.2.sqlite";
const std::string kRtx3080 = kData + "/nvidia/nsys_sqlite/nsysai_mock_rtx3080_2026.1.sqlite";
const std::string kRocprof = kData + "/other/rocprofv3/kernel_trace.csv";
const std::string kOrt =
    kData + "/other/onnxruntime/onnxruntime_profile_cpu_ort1.30.0_generated.json";

struct Totals {
  int64_t count = 0, total_ns = 0;
  bool operator==(const Totals&) const = default;
};
std::ostream& operator<<(std::ostream& os, const Totals& t) {
  return os << t.count << " kernels, " << t.total_ns << " ns";
}

struct KernelTotals {
  Totals all;
  std::map<std::string, Totals> by_name;
  std::map<std::pair<int64_t, int64_t>, Totals> by_stream;  // (device id, stream)
};

// `device_ids[k.device]` names each device the same way in both traces.
KernelTotals Summarize(const Trace& trace, const std::vector<int64_t>& device_ids) {
  KernelTotals totals;
  for (const Kernel& k : trace.kernels) {
    for (Totals* t : {&totals.all, &totals.by_name[std::string(trace.str(k.name))],
                      &totals.by_stream[{device_ids.at(k.device), k.stream}]}) {
      ++t->count;
      t->total_ns += k.duration_ns;
    }
  }
  return totals;
}

std::vector<int64_t> TraceIds(const Trace& trace) {
  std::vector<int64_t> ids;
  for (const Device& d : trace.devices) ids.push_back(d.trace_id);
  return ids;
}

// How many kernels / copies found their launch call, and how each was attributed.
std::map<std::string, int64_t> LinkSummary(const Trace& trace) {
  const TraceLinks links = LinkTrace(trace);
  std::map<std::string, int64_t> summary;
  for (const WorkLink& link : links.kernels) {
    summary["kernels with launch"] += link.launch != kNoRow;
    ++summary[std::string("kernels origin ") + WorkOriginName(link.origin)];
  }
  for (const WorkLink& link : links.transfers)
    summary["copies with launch"] += link.launch != kNoRow;
  return summary;
}

struct RoundTrip {
  Trace original, back;
  std::string path;
};

RoundTrip ExportAndReload(const std::string& input, const std::string& name) {
  RoundTrip result;
  StatusOr<Trace> original = LoadTrace(input, ImportOptions{});
  EXPECT_TRUE(original.ok()) << original.status().message();
  if (!original.ok()) return result;
  result.original = std::move(*original);
  result.path = ::testing::TempDir() + "/" + name + ".json";
  const Exporter* exporter = FindExporter("chrome-json");
  EXPECT_NE(exporter, nullptr);
  if (exporter == nullptr) return result;
  Status status = exporter->Export(LinkedTrace(result.original), result.path);
  EXPECT_TRUE(status.ok()) << status.message();
  StatusOr<Trace> back = LoadTrace(result.path, ImportOptions{});
  EXPECT_TRUE(back.ok()) << back.status().message();
  if (back.ok()) result.back = std::move(*back);
  return result;
}

void ExpectSameKernels(const RoundTrip& rt) {
  ASSERT_FALSE(rt.original.kernels.empty());
  const KernelTotals before = Summarize(rt.original, chrome_json::ChooseDeviceKeys(rt.original));
  const KernelTotals after = Summarize(rt.back, TraceIds(rt.back));
  EXPECT_EQ(after.all, before.all);
  EXPECT_EQ(after.by_name, before.by_name);
  EXPECT_EQ(after.by_stream, before.by_stream);
  EXPECT_EQ(rt.back.transfers.size(), rt.original.transfers.size());
  EXPECT_EQ(rt.back.api_calls.size(), rt.original.api_calls.size());
  EXPECT_EQ(rt.back.slices.size(), rt.original.slices.size());
  EXPECT_EQ(rt.back.span_start_ns, rt.original.span_start_ns);
  EXPECT_EQ(rt.back.span_end_ns, rt.original.span_end_ns);
  EXPECT_EQ(LinkSummary(rt.back), LinkSummary(rt.original));
}

// Nsight Systems' own kernel table: per demangled name, and per (deviceId, streamId).
KernelTotals NsysKernelTotalsBySql(const std::string& path) {
  KernelTotals totals;
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(("file:" + path + "?immutable=1").c_str(), &db,
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db,
                               "SELECT s.value, k.deviceId, k.streamId, k.\"end\" - k.start "
                               "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
                               "JOIN StringIds AS s ON s.id = k.demangledName",
                               -1, &st, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(db);
  while (sqlite3_step(st) == SQLITE_ROW) {
    const std::string name = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    const int64_t duration = sqlite3_column_int64(st, 3);
    for (Totals* t :
         {&totals.all, &totals.by_name[name],
          &totals.by_stream[{sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2)}]}) {
      ++t->count;
      t->total_ns += duration;
    }
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return totals;
}

// Kernels whose launch call is in the export: a CUPTI_ACTIVITY_KIND_RUNTIME row of the same
// process (globalTid / 2^24 is the process part of both global ids) with the same correlationId.
int64_t NsysLaunchedKernelsBySql(const std::string& path) {
  sqlite3* db = nullptr;
  EXPECT_EQ(sqlite3_open_v2(("file:" + path + "?immutable=1").c_str(), &db,
                            SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr),
            SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  int64_t count = -1;
  if (sqlite3_prepare_v2(db,
                         "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL k WHERE EXISTS ("
                         "SELECT 1 FROM CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = "
                         "k.correlationId AND r.globalTid / 16777216 = k.globalPid / 16777216)",
                         -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    count = sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return count;
}

void ExpectMatchesNsysSql(const RoundTrip& rt, const std::string& export_path) {
  const KernelTotals sql = NsysKernelTotalsBySql(export_path);
  ASSERT_GT(sql.all.count, 0);
  // The nsys importer keeps deviceId as the device's trace id; the exporter writes device ids
  // that the reimport keeps as trace ids. Map both to the original deviceId.
  std::map<int64_t, int64_t> exported_to_nsys;
  const std::vector<int64_t> keys = chrome_json::ChooseDeviceKeys(rt.original);
  for (size_t i = 0; i < keys.size(); ++i)
    exported_to_nsys[keys[i]] = rt.original.devices[i].trace_id;
  std::vector<int64_t> ids;
  for (const Device& d : rt.back.devices) ids.push_back(exported_to_nsys.at(d.trace_id));
  const KernelTotals back = Summarize(rt.back, ids);
  EXPECT_EQ(back.all, sql.all);
  EXPECT_EQ(back.by_name, sql.by_name);
  EXPECT_EQ(back.by_stream, sql.by_stream);
}

// One thread_name per (device pid, stream) that ran kernels or copies, each "stream N".
void ExpectValidJsonWithStreamThreads(const RoundTrip& rt) {
  std::ifstream in(rt.path);
  nlohmann::json root;
  ASSERT_NO_THROW(root = nlohmann::json::parse(in));
  const std::vector<int64_t> keys = chrome_json::ChooseDeviceKeys(rt.original);
  std::set<std::pair<int64_t, int64_t>> expected;
  for (const Kernel& k : rt.original.kernels) expected.emplace(keys.at(k.device), k.stream);
  for (const Transfer& t : rt.original.transfers) expected.emplace(keys.at(t.device), t.stream);
  std::set<int64_t> device_pids(keys.begin(), keys.end());
  std::multiset<std::pair<int64_t, int64_t>> named;
  int64_t kernel_events = 0;
  for (const nlohmann::json& event : root.at("traceEvents")) {
    if (event.at("ph") == "M" && event.at("name") == "thread_name" && event.at("pid").is_number() &&
        device_pids.count(event.at("pid").get<int64_t>())) {
      named.emplace(event.at("pid").get<int64_t>(), event.at("tid").get<int64_t>());
    }
    if (event.at("ph") == "X" && event.value("cat", "") == "kernel") ++kernel_events;
  }
  using StreamSet = std::set<std::pair<int64_t, int64_t>>;
  EXPECT_EQ(StreamSet(named.begin(), named.end()), expected);
  EXPECT_EQ(named.size(), expected.size());  // no stream named twice
  EXPECT_EQ(kernel_events, static_cast<int64_t>(rt.original.kernels.size()));
}

TEST(ExportChromeJson, NsightSystemsH100TwoGpus) {
  const RoundTrip rt = ExportAndReload(kH100, "h100_2gpu");
  ExpectSameKernels(rt);
  ExpectMatchesNsysSql(rt, kH100);
  ExpectValidJsonWithStreamThreads(rt);
  EXPECT_EQ(rt.back.devices.size(), 2u);
  for (const Device& d : rt.back.devices) EXPECT_EQ(d.backend, Backend::kCuda);
  // Launches really are linked (not a vacuous equality of zeros): as many as the export's own
  // tables link, a runtime call of the same process with the kernel's correlationId.
  EXPECT_EQ(LinkSummary(rt.back)["kernels with launch"], NsysLaunchedKernelsBySql(kH100));
}

TEST(ExportChromeJson, NsightSystemsRtx3080KeepsDeviceProperties) {
  const RoundTrip rt = ExportAndReload(kRtx3080, "rtx3080");
  ExpectSameKernels(rt);
  ExpectMatchesNsysSql(rt, kRtx3080);
  ExpectValidJsonWithStreamThreads(rt);
  ASSERT_EQ(rt.back.devices.size(), 1u);
  const Device& before = rt.original.devices[0];
  const Device& after = rt.back.devices[0];
  EXPECT_EQ(after.name, "NVIDIA GeForce RTX 3080");
  EXPECT_EQ(after.name, before.name);
  EXPECT_EQ(after.sm_count, before.sm_count);
  EXPECT_EQ(after.compute_major, before.compute_major);
  EXPECT_EQ(after.compute_minor, before.compute_minor);
  EXPECT_EQ(after.total_memory_bytes, before.total_memory_bytes);
  EXPECT_EQ(after.backend, Backend::kCuda);
}

TEST(ExportChromeJson, RocprofKernelTrace) {
  const RoundTrip rt = ExportAndReload(kRocprof, "rocprof_kernels");
  ExpectSameKernels(rt);
  ExpectValidJsonWithStreamThreads(rt);
  // kernel_trace.csv itself, by hand: 9 dispatches; the first is addition_kernel<float>,
  // 1550151853042437 - 1550151853029637 = 12800 ns.
  EXPECT_EQ(rt.back.kernels.size(), 9u);
  EXPECT_EQ(rt.back.kernels.front().start_ns, 1550151853029637);
  EXPECT_EQ(rt.back.kernels.front().duration_ns, 12800);
}

TEST(ExportChromeJson, OnnxRuntimeProfile) {
  const RoundTrip rt = ExportAndReload(kOrt, "onnxruntime");
  ExpectSameKernels(rt);
  ExpectValidJsonWithStreamThreads(rt);
  EXPECT_EQ(rt.back.kernels.size(), rt.original.kernels.size());
  EXPECT_EQ(rt.back.devices.size(), 1u);
}

// Every row of a table as text, names and tracks spelled out, sorted: the order of rows that tie
// on the sort keys is not defined, and track indexes depend on the order events appear in a file.
std::string TrackText(const Trace& t, uint32_t track) {
  if (track >= t.tracks.size()) return "no track";
  const Track& x = t.tracks[track];
  return fmt::format("{}/{}/{}/{}", x.pid, x.tid, x.pid_name, x.tid_name);
}

std::string DeviceText(const Trace& t, uint32_t device) {
  return device < t.devices.size() ? std::to_string(t.devices[device].trace_id) : "none";
}

std::vector<std::string> Rows(const Trace& t, bool launch_flows) {
  std::vector<std::string> rows;
  for (const Kernel& k : t.kernels) {
    rows.push_back(fmt::format(
        "kernel {} dev {} stream {} {}+{} corr {} ext {} grid {},{},{} block {},{},{} regs {} "
        "smem {} occ {}",
        t.str(k.name), DeviceText(t, k.device), k.stream, k.start_ns, k.duration_ns,
        k.link.correlation, k.link.external_id, k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y,
        k.block.z, k.registers_per_thread, k.shared_memory_bytes, k.achieved_occupancy_percent));
  }
  for (const Transfer& x : t.transfers) {
    rows.push_back(fmt::format("transfer {} {} dev {} stream {} {}+{} corr {} ext {} bytes {}",
                               static_cast<int>(x.kind), t.str(x.name), DeviceText(t, x.device),
                               x.stream, x.start_ns, x.duration_ns, x.link.correlation,
                               x.link.external_id, x.bytes));
  }
  for (const ApiCall& c : t.api_calls) {
    rows.push_back(fmt::format("api {} {} {} {}+{} corr {} ext {}", static_cast<int>(c.kind),
                               t.str(c.name), TrackText(t, c.track), c.start_ns, c.duration_ns,
                               c.link.correlation, c.link.external_id));
  }
  for (const Slice& x : t.slices) {
    rows.push_back(fmt::format("slice {} {} {} {}+{} ext {} inputs {}", static_cast<int>(x.kind),
                               t.str(x.name), TrackText(t, x.track), x.start_ns, x.duration_ns,
                               x.external_id,
                               t.inputs_of(x) ? OpInputsText(*t.inputs_of(x)) : std::string()));
  }
  for (const Flow& f : t.flows) {
    if (f.kind == FlowKind::kLaunch && !launch_flows) continue;
    rows.push_back(fmt::format("flow {} {} id {} {} at {} enclosing {}", static_cast<int>(f.kind),
                               static_cast<int>(f.phase), f.id, TrackText(t, f.track), f.ts_ns,
                               f.binds_enclosing));
  }
  std::sort(rows.begin(), rows.end());
  return rows;
}

// Real Kineto traces (HTA and TraceLens samples: CUDA, ROCm, MTIA, CPU-only, NCCL, old formats)
// go out as Chrome JSON and come back with every kernel, copy, API call, op, annotation and flow
// row the same, field by field, and the same kernel -> launch -> op links.
TEST(ExportChromeJson, KinetoTracesRoundTripRowForRow) {
  int traces = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(kData + "/kineto")) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || !path.ends_with(".json.gz")) continue;
    SCOPED_TRACE(path);
    const RoundTrip rt = ExportAndReload(path, "kineto_" + std::to_string(traces++));
    const bool has_launch_flows =
        std::any_of(rt.original.flows.begin(), rt.original.flows.end(),
                    [](const Flow& f) { return f.kind == FlowKind::kLaunch; });
    const std::vector<std::string> before = Rows(rt.original, true);
    const std::vector<std::string> after = Rows(rt.back, has_launch_flows);
    ASSERT_EQ(after.size(), before.size());
    for (size_t i = 0; i < before.size(); ++i) {
      ASSERT_EQ(after[i], before[i]) << "first differing row (sorted) " << i;
    }
    EXPECT_EQ(LinkSummary(rt.back), LinkSummary(rt.original));
    EXPECT_EQ(rt.back.span_start_ns, rt.original.span_start_ns);
    EXPECT_EQ(rt.back.span_end_ns, rt.original.span_end_ns);
    EXPECT_EQ(rt.back.rank, rt.original.rank);
    EXPECT_EQ(rt.back.devices.size(), rt.original.devices.size());
    for (size_t i = 0; i < rt.back.devices.size() && i < rt.original.devices.size(); ++i) {
      EXPECT_EQ(rt.back.devices[i].name, rt.original.devices[i].name);
      EXPECT_EQ(rt.back.devices[i].backend, rt.original.devices[i].backend);
      EXPECT_EQ(rt.back.devices[i].sm_count, rt.original.devices[i].sm_count);
    }
  }
  EXPECT_GE(traces, 10);
}

// ---- Every table survives export -> import, for every importer family ----------------------

// The rows of every table, by kind, and kernel totals by name: what must be the same before and
// after the round trip.
struct TableCounts {
  std::map<std::string, int64_t> rows;
  std::map<std::string, Totals> kernels_by_name;
  bool operator==(const TableCounts&) const = default;
};
std::ostream& operator<<(std::ostream& os, const TableCounts& t) {
  for (const auto& [k, v] : t.rows) os << k << "=" << v << " ";
  return os << t.kernels_by_name.size() << " kernel names";
}

TableCounts CountTables(const Trace& t) {
  TableCounts c;
  c.rows["devices"] = static_cast<int64_t>(t.devices.size());
  c.rows["kernels"] = static_cast<int64_t>(t.kernels.size());
  c.rows["instants"] = static_cast<int64_t>(t.instants.size());
  for (const Transfer& x : t.transfers)
    ++c.rows[x.kind == TransferKind::kMemset ? "memsets" : "memcpys"];
  for (const ApiCall& a : t.api_calls) {
    ++c.rows[a.kind == ApiKind::kSync ? "sync" : a.kind == ApiKind::kDriver ? "driver" : "runtime"];
  }
  static const char* kSliceKinds[] = {"ops", "annotations", "gpu_annotations", "python"};
  for (const Slice& x : t.slices) ++c.rows[kSliceKinds[static_cast<int>(x.kind)]];
  for (const Flow& f : t.flows) {
    if (f.kind != FlowKind::kLaunch) ++c.rows["flows (not launch)"];
  }
  for (const Kernel& k : t.kernels) {
    Totals& n = c.kernels_by_name[std::string(t.str(k.name))];
    ++n.count;
    n.total_ns += k.duration_ns;
  }
  return c;
}

RoundTrip ExportAndReloadWith(const std::string& input, const std::string& name,
                              const ImportOptions& options) {
  RoundTrip result;
  StatusOr<Trace> original = LoadTrace(input, options);
  EXPECT_TRUE(original.ok()) << original.status().message();
  if (!original.ok()) return result;
  result.original = std::move(*original);
  result.path = ::testing::TempDir() + "/family_" + name + ".json";
  Status status = FindExporter("chrome-json")->Export(LinkedTrace(result.original), result.path);
  EXPECT_TRUE(status.ok()) << status.message();
  StatusOr<Trace> back = LoadTrace(result.path, ImportOptions{});
  EXPECT_TRUE(back.ok()) << back.status().message();
  if (back.ok()) result.back = std::move(*back);
  return result;
}

// The file's JSON, gzip or not, for oracles that walk the original input.
nlohmann::json ReadJsonFile(const std::string& path) {
  std::string text;
  gzFile in = gzopen(path.c_str(), "rb");  // reads plain files too
  EXPECT_NE(in, nullptr) << path;
  if (in == nullptr) return {};
  char buffer[1 << 16];
  for (int n; (n = gzread(in, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  gzclose(in);
  return nlohmann::json::parse(text);
}

int64_t SqlCount(const std::string& path, const std::string& sql) {
  sqlite3* db = nullptr;
  sqlite3_open_v2(("file:" + path + "?immutable=1").c_str(), &db,
                  SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  sqlite3_stmt* st = nullptr;
  int64_t count = -1;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr) == SQLITE_OK &&
      sqlite3_step(st) == SQLITE_ROW) {
    count = sqlite3_column_int64(st, 0);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return count;
}

struct FamilyCase {
  const char* label;
  std::string path;
  int skip_runs = -1;
};

class ExportChromeJsonFamily : public ::testing::TestWithParam<FamilyCase> {};

TEST_P(ExportChromeJsonFamily, EveryTableSurvives) {
  ImportOptions options;
  options.skip_runs = GetParam().skip_runs;
  const RoundTrip rt = ExportAndReloadWith(GetParam().path, GetParam().label, options);
  const TableCounts before = CountTables(rt.original), after = CountTables(rt.back);
  EXPECT_GT(before.rows.at("kernels"), 0);
  EXPECT_EQ(after, before);
  EXPECT_EQ(after.rows, before.rows);
  EXPECT_EQ(after.kernels_by_name, before.kernels_by_name);
}

INSTANTIATE_TEST_SUITE_P(
    RealTraces, ExportChromeJsonFamily,
    ::testing::Values(
        FamilyCase{"kineto_alexnet_sync",
                   kData + "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz"},
        FamilyCase{"kineto_qwen_memory_instants",
                   kData + "/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz"},
        FamilyCase{"kineto_rocm_mi250",
                   kData + "/kineto/hta/mi250_minitoy_train_ROCm6_2_kineto.json.gz"},
        FamilyCase{"nsys_h100_2gpu", kH100},
        FamilyCase{"nsys_old_schema",
                   kData + "/nvidia/nsys_sqlite/extrap_ex-gpu_s10_callchains_old_schema.sqlite"},
        FamilyCase{"onnxruntime_warm_up_kept", kOrt, ImportOptions::kMarkWarmUpRuns},
        FamilyCase{"rocprofv3", kRocprof},
        FamilyCase{"xplane_mi300", kData + "/kineto/jax_xplane/jax08_mi300_conv3d.tw003.xplane.pb"},
        FamilyCase{"native_webgpu",
                   TM_SOURCE_DIR "/tests/data/native/webgpu_timestamp_queries.json"}),
    [](const ::testing::TestParamInfo<FamilyCase>& info) { return info.param.label; });

// Nsight Systems synchronization records become kSync calls on the waiting thread and go out as
// cuda_sync events: as many as the export's own table has, read with SQL.
TEST(ExportChromeJson, NsightSystemsSyncEventsMatchSql) {
  for (const std::string& path :
       {kH100, kData + "/nvidia/nsys_sqlite/extrap_ex-gpu_s10_callchains_old_schema.sqlite"}) {
    SCOPED_TRACE(path);
    const int64_t sql = SqlCount(path, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION");
    ASSERT_GT(sql, 0);
    const RoundTrip rt = ExportAndReload(path, "nsys_sync");
    EXPECT_EQ(CountTables(rt.back).rows["sync"], sql);
    int64_t sync_events = 0;
    const nlohmann::json doc1 = ReadJsonFile(rt.path);
    for (const nlohmann::json& e : doc1.at("traceEvents")) {
      sync_events += e.value("cat", "") == "cuda_sync";
    }
    EXPECT_EQ(sync_events, sql);
    // Each sits on the thread of the runtime call it belongs to (same process and correlationId).
    const int64_t with_call = SqlCount(
        path,
        "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s WHERE EXISTS (SELECT 1 FROM "
        "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = s.correlationId AND "
        "r.globalTid / 16777216 = s.globalPid / 16777216)");
    EXPECT_EQ(with_call, sql);  // 244 of 244, 7 of 7
  }
}

// Kineto instant events (ph "i"/"I") are kept with their args: as many as a walk of the original
// file counts, per name.
TEST(ExportChromeJson, KinetoInstantsMatchTheOriginalFile) {
  const std::string path = kData + "/kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz";
  std::map<std::string, int64_t> walked;
  const nlohmann::json doc2 = ReadJsonFile(path);
  for (const nlohmann::json& e : doc2.at("traceEvents")) {
    const std::string ph = e.value("ph", "");
    if ((ph == "i" || ph == "I") && e.contains("ts")) ++walked[e.value("name", "")];
  }
  EXPECT_EQ(walked["[memory]"], 2450);
  const RoundTrip rt = ExportAndReload(path, "kineto_instants");
  for (const Trace* t : {&rt.original, &rt.back}) {
    std::map<std::string, int64_t> kept;
    for (const Instant& i : t->instants) ++kept[std::string(t->str(i.name))];
    EXPECT_EQ(kept, walked);
  }
  // The args of the first [memory] record, byte for byte as values.
  nlohmann::json first_args;
  const nlohmann::json doc3 = ReadJsonFile(path);
  for (const nlohmann::json& e : doc3.at("traceEvents")) {
    if (e.value("name", "") == "[memory]") {
      first_args = e.at("args");
      break;
    }
  }
  bool found = false;
  const nlohmann::json doc4 = ReadJsonFile(rt.path);
  for (const nlohmann::json& e : doc4.at("traceEvents")) {
    if (e.value("ph", "") == "i" && e.value("name", "") == "[memory]" &&
        e.at("args") == first_args) {
      found = true;
      EXPECT_EQ(e.value("s", ""), "t");
      EXPECT_EQ(e.value("cat", ""), "cpu_instant_event");
    }
  }
  EXPECT_TRUE(found) << first_args;
}

// Host processes are named; a device whose id is also a host pid moves to another pid, keeping
// its id in args.device (which the importer reads), so the two never share a process.
TEST(ExportChromeJson, HostProcessesNamedAndDevicePidsDistinct) {
  Trace trace;
  trace.format = "synthetic";
  Device gpu;
  gpu.backend = Backend::kCuda;
  gpu.name = "GPU";
  gpu.index = 5;
  gpu.trace_id = 5;
  trace.devices.push_back(gpu);
  trace.tracks.push_back(Track{5, 77, {}, {}, "main"});
  ApiCall call;
  call.start_ns = 1000;
  call.duration_ns = 10;
  call.name = trace.strings.Intern("cudaLaunchKernel");
  call.link.correlation = 9;
  trace.api_calls.push_back(call);
  Kernel k;
  k.start_ns = 2000;
  k.duration_ns = 30;
  k.name = trace.strings.Intern("k");
  k.device = 0;
  k.stream = 7;
  k.link.correlation = 9;
  trace.kernels.push_back(k);
  SortTraceTables(&trace);
  ComputeTraceSpan(&trace);
  const std::string path = ::testing::TempDir() + "/pid_collision.json";
  ASSERT_TRUE(FindExporter("chrome-json")->Export(LinkedTrace(trace), path).ok());
  std::map<int64_t, std::string> process_names;
  int64_t kernel_pid = -1, kernel_device = -1;
  const nlohmann::json doc5 = ReadJsonFile(path);
  for (const nlohmann::json& e : doc5.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "process_name") {
      process_names[e.at("pid").get<int64_t>()] = e.at("args").at("name");
    }
    if (e.value("cat", "") == "kernel") {
      kernel_pid = e.at("pid");
      kernel_device = e.at("args").at("device");
    }
  }
  EXPECT_EQ(process_names[5], "host process 5");
  EXPECT_NE(kernel_pid, 5);
  EXPECT_EQ(kernel_device, 5);
  EXPECT_EQ(process_names[kernel_pid], "cuda 5 GPU");
  StatusOr<Trace> back = LoadTrace(path, ImportOptions{});
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->devices.size(), 1u);
  EXPECT_EQ(back->devices[0].trace_id, 5);
  ASSERT_EQ(back->api_calls.size(), 1u);
  EXPECT_EQ(back->tracks[back->api_calls[0].track].pid, 5);
  EXPECT_EQ(LinkSummary(*back)["kernels with launch"], 1);
}

// ONNX Runtime: `export` keeps the warm-up run (the importer's default leaves it out), marked;
// --skip-runs still leaves runs out when asked. Node counts from a walk of the profile.
TEST(ExportChromeJson, OnnxRuntimeWarmUpKeptAndMarked) {
  int64_t nodes = 0;
  const nlohmann::json profile = ReadJsonFile(kOrt);
  for (const nlohmann::json& e : profile.is_array() ? profile : profile.at("traceEvents")) {
    const std::string name = e.value("name", "");
    nodes += e.value("cat", "") == "Node" && name.ends_with("_kernel_time");
  }
  EXPECT_EQ(nodes, 18);
  const std::string out = ::testing::TempDir() + "/ort_all_runs.json";
  RunResult r = RunTensormorph({"export", kOrt, "--to", "chrome-json", "-o", out, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  StatusOr<Trace> back = LoadTrace(out, ImportOptions{});
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(static_cast<int64_t>(back->kernels.size()), nodes);
  std::set<std::string> runs;
  for (const Slice& s : back->slices) {
    if (back->str(s.name).starts_with("model_run")) runs.insert(std::string(back->str(s.name)));
  }
  EXPECT_EQ(runs, (std::set<std::string>{"model_run#0 (warm-up)", "model_run#1", "model_run#2"}));
  const std::string skipped = ::testing::TempDir() + "/ort_skip.json";
  r = RunTensormorph(
      {"export", kOrt, "--to", "chrome-json", "-o", skipped, "-q", "--skip-runs", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  StatusOr<Trace> later = LoadTrace(skipped, ImportOptions{});
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(later->kernels.size(), 12u);  // 6 nodes per run
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
