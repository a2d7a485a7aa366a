// End-to-end oracle for `tensormorph memory --format json` on the shared traces that carry the
// PyTorch profiler's allocator records (`[memory]` instants, profile_memory=True): six TraceLens
// inference traces on an H100 and an MI300X and a ResNet-18 training run without the caching
// allocator. Shares no code with src/: each file is read with tests/support/kineto_events.h
// (zlib, nlohmann-json, exact decimal ns), its records grouped by (Device Type, Device Id), put
// in time order (ties as the file wrote them) and replayed here:
//   * allocated after a record = its Total Allocated; without totals, the running sum of Bytes;
//   * the peak = the first record where allocated is largest, its time the record's ts;
//   * alive at the peak = the addresses allocated and not yet freed up to that record; what was
//     allocated before the trace = the first record's Total Allocated less its Bytes, less what
//     the trace freed of it (frees of addresses it never saw allocated) up to the peak.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <tuple>
#include <vector>

#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::RunTensormorph;

const fs::path kKineto = fs::path(TM_SHARED_DATA) / "kineto";
const char* const kTraces[] = {
    "tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz",
    "tracelens_pairs/mi300_qwen1.5-0.5b_inference.json.gz",
    "tracelens_pairs/h100_owlv2-large_inference.json.gz",
    "tracelens_pairs/mi300_owlv2-large_inference.json.gz",
    "tracelens_pairs/h100_timesformer_inference.json.gz",
    "tracelens_pairs/mi300_timesformer_inference.json.gz",
    "tracelens_more/mi300x_resnet18_train_no_mempool.json.gz",
};

struct Record {
  int64_t ts = 0;
  int64_t bytes = 0;
  uint64_t address = 0;
  std::optional<int64_t> total_allocated, total_reserved;
};

struct Expected {
  int64_t device_type = 0;
  size_t records = 0;
  std::string basis;
  int64_t peak = 0, peak_ns = 0, before = 0, alive_from_before = 0, alive_sum = 0;
  std::optional<int64_t> peak_reserved;
};

std::map<std::pair<int64_t, int64_t>, std::vector<Record>> ReadRecords(const json& trace) {
  std::map<std::pair<int64_t, int64_t>, std::vector<Record>> by_device;
  // Traces since 2024-05 write times relative to baseTimeNanoseconds.
  const int64_t base =
      trace.contains("baseTimeNanoseconds") ? std::stoll(trace["baseTimeNanoseconds"].dump()) : 0;
  for (const json& e : trace["traceEvents"]) {
    if (!e.is_object() || e.value("name", "") != "[memory]") continue;
    const json& a = e["args"];
    Record r;
    r.ts = tensormorph::testing::FieldNanos(e["ts"]).value() + base;
    r.bytes = a["Bytes"].get<int64_t>();
    r.address = a.value("Addr", uint64_t{0});
    if (a.contains("Total Allocated")) r.total_allocated = a["Total Allocated"].get<int64_t>();
    if (a.contains("Total Reserved")) r.total_reserved = a["Total Reserved"].get<int64_t>();
    by_device[{a["Device Type"].get<int64_t>(), a["Device Id"].get<int64_t>()}].push_back(r);
  }
  for (auto& [key, rows] : by_device) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Record& x, const Record& y) { return x.ts < y.ts; });
  }
  return by_device;
}

Expected Replay(int64_t device_type, const std::vector<Record>& rows) {
  Expected e;
  e.device_type = device_type;
  e.records = rows.size();
  const bool totals = std::all_of(rows.begin(), rows.end(),
                                  [](const Record& r) { return r.total_allocated.has_value(); });
  e.basis = totals ? "allocator totals" : "running sum";
  std::vector<int64_t> allocated;
  int64_t sum = 0;
  for (const Record& r : rows) {
    sum += r.bytes;
    allocated.push_back(totals ? *r.total_allocated : sum);
    if (r.total_reserved && (!e.peak_reserved || *r.total_reserved > *e.peak_reserved)) {
      e.peak_reserved = r.total_reserved;
    }
  }
  const size_t peak =
      static_cast<size_t>(std::max_element(allocated.begin(), allocated.end()) - allocated.begin());
  e.peak = allocated[peak];
  e.peak_ns = rows[peak].ts;
  e.before = totals ? *rows[0].total_allocated - rows[0].bytes : 0;
  std::map<uint64_t, int64_t> alive;
  int64_t freed_from_before = 0;
  for (size_t i = 0; i <= peak; ++i) {
    if (rows[i].bytes >= 0) {
      alive[rows[i].address] = rows[i].bytes;
    } else if (alive.count(rows[i].address)) {
      alive.erase(rows[i].address);
    } else {
      freed_from_before -= rows[i].bytes;
    }
  }
  for (const auto& [address, bytes] : alive) e.alive_sum += bytes;
  e.alive_from_before = e.before - freed_from_before;
  return e;
}

// `text` written to a file of the temporary folder named for this process; the caller removes it.
fs::path WriteTemp(const std::string& name, const std::string& text) {
  const fs::path path = fs::temp_directory_path() /
                        ("tm_memory_" + name + "_" + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << text;
  return path;
}

json Memory(const std::string& path) {
  auto r = RunTensormorph({"memory", "--format", "json", "--quiet", "--top", "0", path});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out);
}

// Checks the tool's devices against the replay of each (Device Type, Device Id) group.
void CheckAgainstRecords(const std::string& path, const json& trace) {
  const auto by_device = ReadRecords(trace);
  ASSERT_FALSE(by_device.empty()) << path;
  const json doc = Memory(path);
  ASSERT_EQ(doc["devices"].size(), by_device.size()) << path;
  size_t checked = 0;
  for (const json& d : doc["devices"]) {
    // The group it stands for: host records are "cpu", a GPU's carry its ordinal.
    const Expected* match = nullptr;
    std::vector<Expected> candidates;
    for (const auto& [key, rows] : by_device) candidates.push_back(Replay(key.first, rows));
    for (const Expected& e : candidates) {
      const bool cpu = d["device"] == "cpu";
      if ((e.device_type == 0) == cpu && e.records == d["records"].get<size_t>()) match = &e;
    }
    ASSERT_NE(match, nullptr) << path << ": " << d["device"];
    SCOPED_TRACE(path + " " + d["device"].get<std::string>());
    EXPECT_EQ(d["basis"], match->basis);
    EXPECT_EQ(d["peak_allocated_bytes"], match->peak);
    EXPECT_EQ(d["peak_allocated_ns"], match->peak_ns);
    EXPECT_EQ(d["allocated_before_bytes"], match->before);
    if (match->peak_reserved) {
      EXPECT_EQ(d["peak_reserved_bytes"], *match->peak_reserved);
    }
    if (match->peak_reserved && match->basis == "allocator totals" &&
        *match->peak_reserved >= match->peak) {
      EXPECT_EQ(d["reserved_beyond_peak_allocated_bytes"], *match->peak_reserved - match->peak);
    } else {
      EXPECT_TRUE(d["reserved_beyond_peak_allocated_bytes"].is_null());
    }
    int64_t at_peak = 0;
    for (const json& row : d["at_peak"]) at_peak += row["bytes"].get<int64_t>();
    EXPECT_EQ(at_peak, match->alive_sum);
    EXPECT_EQ(d["alive_from_before_bytes"], match->alive_from_before);
    // The invariant the issue states: alive at the peak + what survived from before = the peak.
    EXPECT_EQ(at_peak + d["alive_from_before_bytes"].get<int64_t>(), match->peak);
    ++checked;
  }
  EXPECT_EQ(checked, by_device.size());
}

TEST(MemoryOracle, PeakAndAliveAtPeakEqualTheRecordsOnEverySharedTrace) {
  for (const char* name : kTraces) {
    std::string error;
    const json trace = tensormorph::testing::ReadTraceExact(kKineto / name, &error);
    ASSERT_TRUE(error.empty()) << name << ": " << error;
    CheckAgainstRecords((kKineto / name).string(), trace);
  }
}

// Without Total Allocated (traces before ~2022), allocated is the running sum of Bytes from the
// first record, and nothing is known of what was allocated before: the H100 Qwen trace's records
// with their totals taken out, written here.
TEST(MemoryOracle, RecordsWithoutTotalsAreARunningSum) {
  std::string error;
  const std::string text = tensormorph::testing::Gunzip(
      kKineto / "tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz", &error);
  ASSERT_TRUE(error.empty()) << error;
  const std::string without =
      std::regex_replace(text, std::regex(R"re("Total (Allocated|Reserved)": -?[0-9]+,\s*)re"), "");
  ASSERT_EQ(without.find("Total Allocated"), std::string::npos);
  const fs::path path = WriteTemp("no_totals", without);
  const json trace = tensormorph::testing::ReadTraceExact(path, &error);
  ASSERT_TRUE(error.empty()) << error;
  CheckAgainstRecords(path.string(), trace);
  const json doc = Memory(path.string());
  fs::remove(path);
  ASSERT_FALSE(doc["devices"].empty());
  for (const json& d : doc["devices"]) {
    EXPECT_EQ(d["basis"], "running sum");
    EXPECT_EQ(d["allocated_before_bytes"], 0);
    EXPECT_TRUE(d["peak_reserved_bytes"].is_null());
  }
}

// A file written with sorted keys (json.dump(sort_keys=True), nlohmann's dump) puts "args" before
// "ph": the records' args are still read, and so are the kernels' (their stream), as in the file
// the profiler wrote.
TEST(MemoryOracle, FilesWithSortedKeysReadTheSame) {
  const fs::path original = kKineto / kTraces[0];
  std::string error;
  const std::string text = tensormorph::testing::Gunzip(original, &error);
  ASSERT_TRUE(error.empty()) << error;
  const std::string sorted = json::parse(text).dump();  // std::map objects: keys in order
  ASSERT_LT(sorted.find("\"args\""), sorted.find("\"ph\""));
  const fs::path path = WriteTemp("sorted", sorted);
  const json trace = tensormorph::testing::ReadTraceExact(path, &error);
  ASSERT_TRUE(error.empty()) << error;
  CheckAgainstRecords(path.string(), trace);
  auto streams = [](const fs::path& p) {
    auto r = RunTensormorph(
        {"kernels", "--format", "json", "--quiet", "--group-by", "stream", p.string()});
    EXPECT_EQ(r.exit_code, 0) << r.Describe();
    std::map<std::string, int64_t> count;
    const json doc = json::parse(r.out);
    for (const json& row : doc["rows"]) {
      count[row["name"].get<std::string>()] = row["count"].get<int64_t>();
    }
    return count;
  };
  const auto from_sorted = streams(path);
  fs::remove(path);
  ASSERT_FALSE(from_sorted.empty());
  EXPECT_NE(from_sorted.begin()->first.find("stream 7"), std::string::npos);  // args "stream": 7
  EXPECT_EQ(from_sorted, streams(original));
}

// Capacity: the device's memory as the trace reports it (deviceProperties totalGlobalMem), and the
// peak's share of it.
TEST(MemoryOracle, CapacityIsTheTracesDeviceMemory) {
  const std::string path = (kKineto / kTraces[0]).string();
  std::string error;
  const json trace = tensormorph::testing::ReadTraceExact(path, &error);
  ASSERT_TRUE(error.empty()) << error;
  const int64_t total = trace["deviceProperties"][0]["totalGlobalMem"].get<int64_t>();
  const json doc = Memory(path);
  bool gpu = false;
  for (const json& d : doc["devices"]) {
    if (d["device"] == "cpu") {
      EXPECT_TRUE(d["capacity_bytes"].is_null());
      continue;
    }
    gpu = true;
    EXPECT_EQ(d["capacity_bytes"], total);
    EXPECT_EQ(d["capacity_source"], "trace");
    EXPECT_NEAR(d["peak_percent_of_capacity"].get<double>(),
                100.0 * d["peak_allocated_bytes"].get<double>() / total, 1e-9);
  }
  EXPECT_TRUE(gpu);
}

// Every path of the replay on five records written by hand (tests/data/kineto_memory_records.json;
// MiB = 1,048,576 bytes): 2 MiB allocated before the trace; +1 MiB in aten::empty at 15 us (3);
// a free of 1 MiB the trace never saw allocated at 50 us (2); +2 MiB in aten::add at 110 us (4,
// the peak, reserved 8 MiB); -1 MiB at 300 us (3); the step ends at 1000 us; -2 MiB at 1500 us.
TEST(MemoryOracle, HandWrittenRecordsTakeEveryPath) {
  constexpr int64_t kMiB = 1048576;
  const json doc = Memory(std::string(TM_SOURCE_DIR) + "/tests/data/kineto_memory_records.json");
  ASSERT_EQ(doc["devices"].size(), 1u);
  const json& d = doc["devices"][0];
  EXPECT_EQ(d["basis"], "allocator totals");
  EXPECT_EQ(d["records"], 5);
  EXPECT_EQ(d["allocations"], 2);
  EXPECT_EQ(d["frees"], 3);
  EXPECT_EQ(d["allocated_before_bytes"], 2 * kMiB);
  EXPECT_EQ(d["peak_allocated_bytes"], 4 * kMiB);
  EXPECT_EQ(d["peak_allocated_ns"], 110'000);
  EXPECT_EQ(d["peak_reserved_bytes"], 8 * kMiB);
  EXPECT_EQ(d["reserved_at_peak_bytes"], 8 * kMiB);
  // Of the 2 MiB from before, the trace freed 1 MiB before the peak.
  EXPECT_EQ(d["alive_from_before_bytes"], 1 * kMiB);
  ASSERT_EQ(d["at_peak"].size(), 2u);
  // No module frames in the file: no module path.
  EXPECT_EQ(
      d["at_peak"][0],
      json({{"op", "aten::add"}, {"module", nullptr}, {"bytes", 2 * kMiB}, {"allocations", 1}}));
  EXPECT_EQ(
      d["at_peak"][1],
      json({{"op", "aten::empty"}, {"module", nullptr}, {"bytes", kMiB}, {"allocations", 1}}));
  ASSERT_EQ(d["largest"].size(), 2u);
  EXPECT_EQ(d["largest"][0]["address"], 8192);
  EXPECT_EQ(d["largest"][0]["freed_ns"], 1'500'000);
  EXPECT_EQ(d["largest"][1]["freed_ns"], 300'000);
  ASSERT_EQ(d["steps"].size(), 1u);
  EXPECT_EQ(d["steps"][0]["allocated_start_bytes"], 2 * kMiB);  // before any record: before
  EXPECT_EQ(d["steps"][0]["allocated_end_bytes"], 3 * kMiB);    // the record at 300 us
  EXPECT_EQ(d["steps"][0]["growth_bytes"], kMiB);
  EXPECT_EQ(d["capacity_bytes"], 42505273344);
  EXPECT_EQ(d["capacity_source"], "trace");
}

const json* RuleOf(const json& findings, const std::string& rule) {
  for (const json& f : findings["findings"]) {
    if (f["rule"] == rule) return &f;
  }
  return nullptr;
}

json FindingsOf(const std::string& path) {
  auto r = RunTensormorph({"findings", "--format", "json", "--quiet", path});
  EXPECT_EQ(r.exit_code, 0) << r.Describe();
  return json::parse(r.out);
}

// A record whose size is no allocator's (beyond 1 PiB: a corrupt file) is skipped and counted,
// so that no sum or difference of sizes can overflow; the plausible record beside it is read.
TEST(MemoryOracle, ImplausibleSizesAreSkippedAndCounted) {
  nlohmann::ordered_json trace = {{"schemaVersion", 1},
                                  {"traceEvents", nlohmann::ordered_json::array()}};
  for (int64_t bytes : {int64_t{4096}, int64_t{1} << 60}) {
    trace["traceEvents"].push_back(nlohmann::ordered_json{
        {"ph", "i"},
        {"cat", "cpu_instant_event"},
        {"s", "t"},
        {"name", "[memory]"},
        {"pid", 1},
        {"tid", 1},
        {"ts", trace["traceEvents"].size() * 10},
        {"args", {{"Bytes", bytes}, {"Addr", 4096}, {"Device Id", 0}, {"Device Type", 0}}}});
  }
  const fs::path path = WriteTemp("absurd", trace.dump());
  const json doc = Memory(path.string());
  fs::remove(path);
  EXPECT_EQ(doc["records"], 2);
  EXPECT_EQ(doc["skipped"], 1);
  ASSERT_EQ(doc["devices"].size(), 1u);
  EXPECT_EQ(doc["devices"][0]["peak_allocated_bytes"], 4096);
}

// `findings` on a trace document written to a temporary file for the call.
json FindingsOfDocument(const std::string& name, const nlohmann::ordered_json& trace) {
  const fs::path path = WriteTemp(name, trace.dump());
  const json findings = FindingsOf(path.string());
  fs::remove(path);
  return findings;
}

// The memory findings (issue 43). allocation_churn: the MI300X ResNet-18 run without the caching
// allocator makes a hipMalloc call per allocation (counted in the file here); the H100 Qwen
// trace, with the allocator, makes none.
TEST(MemoryFindings, AllocationChurnCountsTheDeviceMallocCalls) {
  const fs::path path = kKineto / "tracelens_more/mi300x_resnet18_train_no_mempool.json.gz";
  std::string error;
  const json trace = tensormorph::testing::ReadTraceExact(path, &error);
  ASSERT_TRUE(error.empty()) << error;
  int64_t calls = 0, call_ns = 0;
  for (const json& e : trace["traceEvents"]) {
    if (e.is_object() && e.value("cat", "") == "cuda_runtime" &&
        e.value("name", "") == "hipMalloc") {
      ++calls;
      call_ns += tensormorph::testing::FieldNanos(e["dur"]).value();
    }
  }
  const json findings = FindingsOf(path.string());
  const json* churn = RuleOf(findings, "allocation_churn");
  ASSERT_NE(churn, nullptr);
  EXPECT_EQ((*churn)["evidence"]["calls"], calls);
  EXPECT_EQ((*churn)["evidence"]["call_ns"], call_ns);
  EXPECT_EQ((*churn)["estimated_gain_ns"], 0);
  EXPECT_EQ(RuleOf(FindingsOf((kKineto / kTraces[0]).string()), "allocation_churn"), nullptr);
}

// memory_near_capacity and memory_growth on the hand-written records: as written (one step, a
// 39.6 GiB device) neither fires; with the device's memory said to be 8.5 MiB (the allocator held
// 8 MiB reserved at its peak: 94 %) the first does; three steps that each end with 1 MiB more
// than they began give the second, naming the op whose allocations were never freed.
TEST(MemoryFindings, NearCapacityAndGrowthOnHandWrittenRecords) {
  const std::string fixture = std::string(TM_SOURCE_DIR) + "/tests/data/kineto_memory_records.json";
  const json plain = FindingsOf(fixture);
  EXPECT_EQ(RuleOf(plain, "memory_near_capacity"), nullptr);
  EXPECT_EQ(RuleOf(plain, "memory_growth"), nullptr);

  std::ifstream in(fixture);
  // Written back in the file's key order (Kineto writes "ph" before "args").
  nlohmann::ordered_json trace = nlohmann::ordered_json::parse(in);
  trace["deviceProperties"][0]["totalGlobalMem"] = 8912896;  // 8.5 MiB
  const json near = FindingsOfDocument("small", trace);
  const json* full = RuleOf(near, "memory_near_capacity");
  ASSERT_NE(full, nullptr) << near.dump();
  EXPECT_EQ((*full)["evidence"]["peak_reserved_bytes"], 8388608);
  EXPECT_NEAR((*full)["evidence"]["percent_of_capacity"].get<double>(), 100.0 * 8388608 / 8912896,
              1e-9);
  EXPECT_EQ((*full)["top"][0]["name"], "aten::add");  // the most bytes alive at the peak

  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (int step = 0; step < 3; ++step) {
    const int64_t start = step * 100;
    events.push_back({{"ph", "X"},
                      {"cat", "user_annotation"},
                      {"name", "ProfilerStep#" + std::to_string(step + 1)},
                      {"pid", 1},
                      {"tid", 1},
                      {"ts", start},
                      {"dur", 100}});
    events.push_back({{"ph", "X"},
                      {"cat", "cpu_op"},
                      {"name", "aten::cat"},
                      {"pid", 1},
                      {"tid", 1},
                      {"ts", start + 40},
                      {"dur", 20}});
    events.push_back({{"ph", "i"},
                      {"cat", "cpu_instant_event"},
                      {"s", "t"},
                      {"name", "[memory]"},
                      {"pid", 1},
                      {"tid", 1},
                      {"ts", start + 50},
                      {"args",
                       {{"Total Reserved", 4194304},
                        {"Total Allocated", (step + 1) * 1048576},
                        {"Bytes", 1048576},
                        {"Addr", 4096 * (step + 1)},
                        {"Device Id", 0},
                        {"Device Type", 1}}}});
  }
  events.push_back({{"ph", "X"},
                    {"cat", "kernel"},
                    {"name", "k"},
                    {"pid", 0},
                    {"tid", 7},
                    {"ts", 10},
                    {"dur", 5},
                    {"args", {{"device", 0}, {"stream", 7}}}});
  trace["traceEvents"] = events;
  const json growing = FindingsOfDocument("leak", trace);
  const json* growth = RuleOf(growing, "memory_growth");
  ASSERT_NE(growth, nullptr) << growing.dump();
  EXPECT_EQ((*growth)["evidence"]["steps"], 3);
  EXPECT_EQ((*growth)["evidence"]["growth_bytes"], 3 * 1048576);
  EXPECT_EQ((*growth)["top"][0]["name"], "aten::cat");
}

// memory_fragmentation: fires where the records say the allocator reserved at least 1 GiB, and
// more than 25 % of its reserved peak, beyond the most ever allocated at once. Two devices written
// here: 5 GiB reserved for at most 3 GiB allocated (2 GiB beyond, 40 %: fires) and 4 GiB for 3.5
// GiB (0.5 GiB: does not); and on every shared trace, the rule fires exactly where the replay of
// the raw records says it should.
TEST(MemoryFindings, FragmentationWhereReservedExceedsTheAllocatedPeak) {
  constexpr int64_t kGib = int64_t{1} << 30;
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  auto record = [&](int device, int64_t ts, int64_t bytes, int64_t allocated, int64_t reserved) {
    events.push_back({{"ph", "i"},
                      {"cat", "cpu_instant_event"},
                      {"s", "t"},
                      {"name", "[memory]"},
                      {"pid", 1},
                      {"tid", 1},
                      {"ts", ts},
                      {"args",
                       {{"Total Reserved", reserved},
                        {"Total Allocated", allocated},
                        {"Bytes", bytes},
                        {"Addr", 4096 + ts},
                        {"Device Id", device},
                        {"Device Type", 1}}}});
  };
  record(0, 10, 2 * kGib, 2 * kGib, 4 * kGib);
  record(0, 20, kGib, 3 * kGib, 4 * kGib);  // the allocated peak
  record(0, 30, -2 * kGib, kGib, 4 * kGib);
  record(0, 40, 2 * kGib - 1, 3 * kGib - 1, 5 * kGib);  // fits no cached block: reserves more
  record(1, 10, 3 * kGib + kGib / 2, 3 * kGib + kGib / 2, 4 * kGib);
  for (int device = 0; device < 2; ++device) {
    events.push_back({{"ph", "X"},
                      {"cat", "kernel"},
                      {"name", "k"},
                      {"pid", device},
                      {"tid", 7},
                      {"ts", 15},
                      {"dur", 5},
                      {"args", {{"device", device}, {"stream", 7}}}});
  }
  nlohmann::ordered_json devices = nlohmann::ordered_json::array();
  for (int id = 0; id < 2; ++id) {
    devices.push_back({{"id", id},
                       {"name", "NVIDIA A100-SXM4-80GB"},
                       {"totalGlobalMem", 85899345920},
                       {"computeMajor", 8},
                       {"computeMinor", 0},
                       {"numSms", 108}});
  }
  nlohmann::ordered_json trace = {
      {"schemaVersion", 1}, {"deviceProperties", devices}, {"traceEvents", events}};
  const json found = FindingsOfDocument("fragmented", trace);
  std::vector<const json*> fragmented;
  for (const json& f : found["findings"]) {
    if (f["rule"] == "memory_fragmentation") fragmented.push_back(&f);
  }
  ASSERT_EQ(fragmented.size(), 1U) << found.dump();
  EXPECT_EQ((*fragmented[0])["evidence"]["reserved_beyond_peak_allocated_bytes"], 2 * kGib);
  EXPECT_EQ((*fragmented[0])["evidence"]["peak_allocated_bytes"], 3 * kGib);
  EXPECT_NE((*fragmented[0])["where"]["device"].get<std::string>().find("cuda:0"),
            std::string::npos);

  for (const char* name : kTraces) {
    std::string error;
    const json raw = tensormorph::testing::ReadTraceExact(kKineto / name, &error);
    ASSERT_TRUE(error.empty()) << error;
    size_t expected = 0;
    for (const auto& [key, rows] : ReadRecords(raw)) {
      const Expected e = Replay(key.first, rows);
      if (key.first != 0 && e.peak_reserved && e.basis == "allocator totals" &&
          *e.peak_reserved - e.peak >= kGib && 4 * (*e.peak_reserved - e.peak) > *e.peak_reserved) {
        ++expected;
      }
    }
    size_t fired = 0;
    const json findings = FindingsOf((kKineto / name).string());
    for (const json& f : findings["findings"]) {
      fired += f["rule"] == "memory_fragmentation";
    }
    EXPECT_EQ(fired, expected) << name;
  }
}

// The module path of an allocation: on the H100 Qwen trace (recorded with module frames), the
// largest allocation's `module` is the nn.Module frames and non-step user annotations of the
// file that enclose its [memory] record on the record's thread, outermost first, as the file
// nests them.
TEST(MemoryOracle, ModulePathIsTheEnclosingModuleFrames) {
  const fs::path path = kKineto / kTraces[0];
  std::string error;
  const json raw = tensormorph::testing::ReadTraceExact(path, &error);
  ASSERT_TRUE(error.empty()) << error;
  const json doc = Memory(path.string());
  const json* gpu = nullptr;
  for (const json& d : doc["devices"]) {
    if (d["device"] != "cpu") gpu = &d;
  }
  ASSERT_NE(gpu, nullptr);
  const json& largest = (*gpu)["largest"][0];
  const int64_t base =
      raw.contains("baseTimeNanoseconds") ? std::stoll(raw["baseTimeNanoseconds"].dump()) : 0;
  const json* record = nullptr;
  for (const json& e : raw["traceEvents"]) {
    if (e.value("name", "") == "[memory]" && e["args"]["Addr"] == largest["address"] &&
        tensormorph::testing::FieldNanos(e["ts"]).value() + base == largest["ts_ns"]) {
      record = &e;
    }
  }
  ASSERT_NE(record, nullptr);
  const int64_t at = largest["ts_ns"].get<int64_t>() - base;
  std::vector<std::tuple<int64_t, int64_t, std::string>> around;  // (start, -end, element)
  for (const json& e : raw["traceEvents"]) {
    if (e.value("ph", "") != "X" || e["tid"] != (*record)["tid"] || e["pid"] != (*record)["pid"]) {
      continue;
    }
    const std::string name = e.value("name", ""), cat = e.value("cat", "");
    std::string element;
    if (cat == "python_function" && name.starts_with("nn.Module: ")) element = name.substr(11);
    if (cat == "user_annotation" && !name.starts_with("ProfilerStep#")) element = name;
    if (element.empty()) continue;
    const int64_t start = tensormorph::testing::FieldNanos(e["ts"]).value();
    const int64_t end = start + tensormorph::testing::FieldNanos(e["dur"]).value();
    if (start <= at && at <= end) around.emplace_back(start, -end, element);
  }
  std::sort(around.begin(), around.end());
  std::string expected;
  for (const auto& [start, end, element] : around) {
    expected += (expected.empty() ? "" : " > ") + element;
  }
  ASSERT_FALSE(expected.empty()) << "the Qwen trace's allocations sit inside its modules";
  EXPECT_EQ(largest["module"], expected);
}

// compare and predict say whether the workload's peak fits each device: the peak is the replay
// of the raw records' GPU group (as above), a side's device capacity the trace's totalGlobalMem,
// a target's the database figure or, for a device given with --device-spec (1 GiB, written
// here), that figure; fits = peak <= capacity.
TEST(MemoryFit, CompareAndPredictSayWhetherThePeakFits) {
  std::vector<int64_t> peaks, capacities;
  for (const char* name : {kTraces[0], kTraces[1]}) {
    std::string error;
    const json raw = tensormorph::testing::ReadTraceExact(kKineto / name, &error);
    ASSERT_TRUE(error.empty()) << error;
    int64_t peak = -1;
    for (const auto& [key, rows] : ReadRecords(raw)) {
      if (key.first != 0) peak = std::max(peak, Replay(key.first, rows).peak);
    }
    peaks.push_back(peak);
    capacities.push_back(raw["deviceProperties"][0]["totalGlobalMem"].get<int64_t>());
  }
  auto r = RunTensormorph({"compare", "--format", "json", "--quiet",
                           (kKineto / kTraces[0]).string(), (kKineto / kTraces[1]).string()});
  ASSERT_EQ(r.exit_code, 0) << r.Describe();
  const json compared = json::parse(r.out);
  ASSERT_EQ(compared["sides"].size(), 2U);
  for (size_t s = 0; s < 2; ++s) {
    const json& memory = compared["sides"][s]["memory"];
    EXPECT_EQ(memory["peak_allocated_bytes"], peaks[s]);
    EXPECT_EQ(compared["sides"][s]["capacity_bytes"], capacities[s]);
    ASSERT_EQ(memory["fits"].size(), 2U);
    for (size_t on = 0; on < 2; ++on) {
      EXPECT_EQ(memory["fits"][on]["capacity_bytes"], capacities[on]);
      EXPECT_EQ(memory["fits"][on]["fits"], peaks[s] <= capacities[on]);
    }
  }

  const fs::path spec =
      WriteTemp("fit_spec", R"({"schema": "tensormorph.device-spec/1", "devices": [
      {"key": "tiny-gpu", "name": "Tiny GPU", "vendor": "ACME", "backend": "cuda",
       "memory_bytes": {"gib": 1, "source": "written in the test"}}]})");
  auto p = RunTensormorph({"predict", "--format", "json", "--quiet", "--device-spec", spec.string(),
                           "--device", "mi300x,tiny-gpu", (kKineto / kTraces[0]).string()});
  fs::remove(spec);
  ASSERT_EQ(p.exit_code, 0) << p.Describe();
  const json predicted = json::parse(p.out);
  const json& memory = predicted["memory"];
  EXPECT_EQ(memory["peak_allocated_bytes"], peaks[0]);
  ASSERT_EQ(memory["fits"].size(), 2U);
  EXPECT_EQ(memory["fits"][0]["device"], "mi300x");
  EXPECT_EQ(memory["fits"][0]["capacity_bytes"], int64_t{192} << 30);
  EXPECT_EQ(memory["fits"][0]["fits"], true);
  EXPECT_EQ(memory["fits"][1]["capacity_bytes"], int64_t{1} << 30);
  EXPECT_EQ(memory["fits"][1]["fits"], peaks[0] <= (int64_t{1} << 30));
  EXPECT_EQ(memory["fits"][1]["fits"], false);  // the H100 Qwen run peaks near 2 GiB
  EXPECT_NE(memory["text"].get<std::string>().find("not tiny-gpu (1 GiB)"), std::string::npos)
      << memory["text"];
}

}  // namespace TM_UNITY_ID
}  // namespace
