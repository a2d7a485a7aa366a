// Perfetto protobuf export of real traces, read back with the protobuf library against our own
// schema (src/export/perfetto/perfetto_trace.proto) and decoded by `protoc --decode`. Slices per
// track, instants and launch flows must match counts computed from the source file itself: SQL
// over the Nsight Systems export, an nlohmann walk of the Kineto JSON.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <zlib.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "export/exporter.h"
#include "export/perfetto/perfetto_trace.pb.h"
#include "tensormorph/import/importer.h"

namespace tensormorph {
namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace pb = tensormorph::perfetto;

const std::string kData = TM_SHARED_DATA;
const std::string kH100 = kData + "/nvidia/nsys_sqlite/nsysai_h100_2gpu_1s_2026.2.sqlite";
const std::string kAlexnet = kData + "/kineto/hta/alexnet_a100_cuda_sync_trace.json.gz";

std::string Export(const std::string& input, const std::string& name) {
  StatusOr<Trace> trace = LoadTrace(input, ImportOptions{});
  EXPECT_TRUE(trace.ok()) << trace.status().message();
  const std::string path = ::testing::TempDir() + "/" + name + ".pftrace";
  if (!trace.ok()) return path;
  Status written = FindExporter("perfetto")->Export(LinkedTrace(*trace), path);
  EXPECT_TRUE(written.ok()) << written.message();
  return path;
}

// What the file says, by track: names (with their parent's), BEGIN / END / INSTANT counts,
// categories of BEGIN events, flow ids.
struct Decoded {
  int packets = 0;
  std::map<uint64_t, std::string> name, parent_name;
  std::map<uint64_t, int64_t> begins, ends;
  std::map<std::string, int64_t> begins_by_category;
  int64_t instants = 0;
  std::multiset<uint64_t> flow_starts, flow_ends;
  std::map<std::string, int64_t> instant_names;
  bool first_clears_state = false;
};

Decoded Decode(const std::string& path) {
  Decoded d;
  pb::Trace trace;
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(trace.ParseFromIstream(&in)) << path;
  d.packets = trace.packet_size();
  std::map<uint64_t, std::string> categories, names;
  std::map<uint64_t, uint64_t> parent;
  for (const pb::TracePacket& p : trace.packet()) {
    for (const pb::InternedString& c : p.interned_data().event_categories())
      categories[c.iid()] = c.name();
    for (const pb::InternedString& n : p.interned_data().event_names()) names[n.iid()] = n.name();
    if (p.has_track_descriptor()) {
      d.name[p.track_descriptor().uuid()] = p.track_descriptor().name();
      parent[p.track_descriptor().uuid()] = p.track_descriptor().parent_uuid();
    }
    if (!p.has_track_event()) continue;
    const pb::TrackEvent& e = p.track_event();
    switch (e.type()) {
      case pb::TrackEvent::TYPE_SLICE_BEGIN:
        ++d.begins[e.track_uuid()];
        for (uint64_t c : e.category_iids()) ++d.begins_by_category[categories[c]];
        break;
      case pb::TrackEvent::TYPE_SLICE_END:
        ++d.ends[e.track_uuid()];
        break;
      case pb::TrackEvent::TYPE_INSTANT:
        ++d.instants;
        ++d.instant_names[names[e.name_iid()]];
        break;
      default:
        ADD_FAILURE() << "event without a type";
    }
    for (uint64_t f : e.flow_ids()) d.flow_starts.insert(f);
    for (uint64_t f : e.terminating_flow_ids()) d.flow_ends.insert(f);
  }
  d.first_clears_state = trace.packet_size() > 0 && trace.packet(0).sequence_flags() == 1;
  for (const auto& [uuid, p] : parent) {
    if (p != 0) d.parent_name[uuid] = d.name[p];
  }
  return d;
}

// `protoc --decode` of the file with our schema: the number of top-level packets.
int ProtocPackets(const std::string& path) {
  const std::string out = path + ".txt";
  const std::string command = fmt::format(
      "protoc --decode=tensormorph.perfetto.Trace -I {0}/src "
      "{0}/src/export/perfetto/perfetto_trace.proto < '{1}' > '{2}'",
      TM_SOURCE_DIR, path, out);
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::ifstream in(out);
  int packets = 0;
  for (std::string line; std::getline(in, line);) packets += line == "packet {";
  return packets;
}

std::map<std::pair<std::string, std::string>, int64_t> KernelsByStream(const Decoded& d) {
  std::map<std::pair<std::string, std::string>, int64_t> out;
  for (const auto& [uuid, n] : d.begins) {
    if (d.name.at(uuid).starts_with("stream ")) {
      out[{d.parent_name.at(uuid), d.name.at(uuid)}] += n;
    }
  }
  return out;
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

TEST(ExportPerfetto, NsightSystemsH100MatchesSql) {
  const std::string path = Export(kH100, "h100");
  Decoded d = Decode(path);
  EXPECT_TRUE(d.first_clears_state);
  EXPECT_EQ(ProtocPackets(path), d.packets);
  EXPECT_EQ(d.begins, d.ends);  // every slice closed, on the track it opened on
  // Device work per (device, stream), from the export's own tables.
  std::map<std::pair<std::string, std::string>, int64_t> sql;
  sqlite3* db = nullptr;
  sqlite3_open_v2(("file:" + kH100 + "?immutable=1").c_str(), &db,
                  SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(
      sqlite3_prepare_v2(db,
                         "SELECT deviceId, streamId, count(*) FROM (SELECT deviceId, streamId FROM "
                         "CUPTI_ACTIVITY_KIND_KERNEL UNION ALL SELECT deviceId, streamId FROM "
                         "CUPTI_ACTIVITY_KIND_MEMCPY UNION ALL SELECT deviceId, streamId FROM "
                         "CUPTI_ACTIVITY_KIND_MEMSET) GROUP BY deviceId, streamId",
                         -1, &st, nullptr),
      SQLITE_OK);
  while (sqlite3_step(st) == SQLITE_ROW) {
    sql[{fmt::format("cuda {}", sqlite3_column_int64(st, 0)),
         fmt::format("stream {}", sqlite3_column_int64(st, 1))}] = sqlite3_column_int64(st, 2);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  ASSERT_FALSE(sql.empty());
  EXPECT_EQ(KernelsByStream(d), sql);
  const std::string kernels = "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL";
  EXPECT_EQ(d.begins_by_category.at("kernel"), SqlCount(kH100, kernels));
  EXPECT_EQ(d.begins_by_category.at("cuda_runtime") + d.begins_by_category["cuda_driver"],
            SqlCount(kH100, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME"));
  EXPECT_EQ(d.begins_by_category.at("cuda_sync"),
            SqlCount(kH100, "SELECT count(*) FROM CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"));
  // One flow per kernel / copy whose launch call is in the export (same process, same
  // correlationId): it starts at the call and ends at the work.
  int64_t launched = 0;
  for (const char* table :
       {"CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET"}) {
    launched += SqlCount(
        kH100, fmt::format("SELECT count(*) FROM {} k WHERE EXISTS (SELECT 1 FROM "
                           "CUPTI_ACTIVITY_KIND_RUNTIME r WHERE r.correlationId = k.correlationId "
                           "AND r.globalTid / 16777216 = k.globalPid / 16777216)",
                           table));
  }
  EXPECT_GT(launched, 0);
  EXPECT_EQ(static_cast<int64_t>(d.flow_starts.size()), launched);
  EXPECT_EQ(d.flow_ends, d.flow_starts);
  EXPECT_EQ(std::set<uint64_t>(d.flow_starts.begin(), d.flow_starts.end()).size(),
            d.flow_starts.size());
}

nlohmann::json ReadGzipJson(const std::string& path) {
  std::string text;
  gzFile in = gzopen(path.c_str(), "rb");
  EXPECT_NE(in, nullptr);
  char buffer[1 << 16];
  for (int n; in && (n = gzread(in, buffer, sizeof buffer)) > 0;) text.append(buffer, n);
  if (in) gzclose(in);
  return nlohmann::json::parse(text);
}

TEST(ExportPerfetto, KinetoAlexnetMatchesTheJson) {
  const nlohmann::json root = ReadGzipJson(kAlexnet);
  std::map<std::string, int64_t> by_category;
  std::map<std::string, int64_t> instants;
  std::set<int64_t> launch_correlations;
  std::vector<int64_t> work_correlations;
  std::map<std::pair<int64_t, int64_t>, int64_t> kernels_by_stream;
  for (const nlohmann::json& e : root.at("traceEvents")) {
    const std::string ph = e.value("ph", ""), cat = e.value("cat", "");
    if (ph == "i" || ph == "I") ++instants[e.value("name", "")];
    if (ph != "X") continue;
    ++by_category[cat];
    const nlohmann::json args = e.value("args", nlohmann::json::object());
    if ((cat == "cuda_runtime" || cat == "cuda_driver") && args.contains("correlation"))
      launch_correlations.insert(args["correlation"].get<int64_t>());
    if ((cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") &&
        args.contains("correlation"))
      work_correlations.push_back(args["correlation"].get<int64_t>());
    if (cat == "kernel") ++kernels_by_stream[{args.at("device"), args.at("stream")}];
  }
  int64_t launched = 0;
  for (int64_t c : work_correlations) launched += launch_correlations.count(c);

  const std::string path = Export(kAlexnet, "alexnet");
  Decoded d = Decode(path);
  EXPECT_EQ(ProtocPackets(path), d.packets);
  EXPECT_EQ(d.begins, d.ends);
  for (const char* cat : {"kernel", "gpu_memcpy", "gpu_memset", "cuda_runtime", "cuda_sync",
                          "cpu_op", "user_annotation", "gpu_user_annotation"}) {
    EXPECT_EQ(d.begins_by_category[cat], by_category[cat]) << cat;
  }
  EXPECT_EQ(by_category["cuda_sync"], 41);
  EXPECT_EQ(d.instant_names, (std::map<std::string, int64_t>(instants.begin(), instants.end())));
  EXPECT_EQ(d.instants, 2);
  EXPECT_EQ(static_cast<int64_t>(d.flow_starts.size()), launched);
  EXPECT_EQ(d.flow_ends, d.flow_starts);
  // Kernels per stream track: stream tracks hold kernels and copies; compare on kernel-only
  // counts by looking at the kernel category per (device, stream) from the JSON.
  int64_t kernels = 0;
  for (const auto& [place, n] : kernels_by_stream) kernels += n;
  EXPECT_EQ(d.begins_by_category["kernel"], kernels);
}

}  // namespace TM_UNITY_ID
}  // namespace
}  // namespace tensormorph
