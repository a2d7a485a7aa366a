// End-to-end oracle for `tensormorph collectives` on the 8-rank PARAM DLRM Kineto job
// (shared/data/kineto/param_dlrm_8rank, one trace per rank).
//
// Shares no code with src/: each trace is inflated with zlib and parsed with nlohmann-json keeping
// floats as their text (support/kineto_events.h), every ts/dur is converted from its decimal µs
// text to integer ns (MicrosTextToNanos; baseTimeNanoseconds added when present: these files have
// none, and all their ts/dur are integers), and the figures are recomputed here:
//   * a rank's collective kernels: ph "X", cat "kernel", name containing "nccl" or "rccl" (any
//     case); [ts, ts + dur) in ns; the rank is distributedInfo.rank;
//   * matching (DLRM records no Seq): key = (kernel name, tid = stream, k), k the 0-based
//     occurrence of that (name, stream) on the rank ordered by start; an instance is a key every
//     rank has. The job has 8 instances, each on all 8 ranks (asserted);
//   * clocks: reference = the lowest rank (0). For rank r, d_i = end_r,i - end_0,i over the
//     instances; offset = median(d) (even count: the mean of the two middle ones, floored to the
//     ns); uncertainty = llround(1.4826 x median(|d_i - offset|)); rank 0's offset is 0;
//   * aligned time = raw - the rank's offset. Per instance: last_start = max start; skew =
//     last_start - min start; a rank's wait = max(0, min(end, last_start) - start); transfer =
//     max(0, max end - last_start); last_rank = the rank with the latest start (ties: lowest);
//   * bytes: the kernel's launch is the cuda_runtime event whose name contains "LaunchKernel"
//     with the same args.correlation; around it on its tid (innermost) the "nccl:<type>" range
//     (a user_annotation here) and the record_param_comms cpu_op. The bytes are the nccl: range's
//     "Input Dims"[0] product x the element size of its "Input type"[0], else the same of
//     record_param_comms (a TensorList, an empty or nested Input Dims[0], is unknown). Instance
//     bytes = the max over ranks of the known ones, else null. Found in these files: exactly one
//     record_param_comms encloses every collective launch (asserted); the nesting is
//     c10d::alltoall_base_ / c10d::allreduce_ > record_param_comms > nccl:<type> >
//     cudaLaunchKernel. record_param_comms of an all_reduce holds a TensorList, its nccl:all_reduce
//     range the flattened bucket ([[394241]] float, ...), so every instance has bytes;
//   * type: the innermost op (any cat) named "nccl:<type>" enclosing the launch on its tid, else
//     from the kernel name (SendRecv, AllReduce, AllGather, ReduceScatter, Broadcast, Reduce,
//     AllToAll);
//   * algo_bytes_per_s = bytes / (transfer_ns x 1e-9); bus = algo x nccl-tests' factor for n = 8:
//     all_reduce 2(n-1)/n; all_gather, reduce_scatter, all_to_all (n-1)/n; others 1 (rel. 1e-9);
//   * per rank: wait suffered = sum of its waits; wait caused = sum over the instances it is last
//     at of the other ranks' waits; times_last = the count of those instances;
//   * instances ordered by min aligned start (ties: name), compared with the tool's in order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "support/kineto_events.h"
#include "support/run_tensormorph.h"

namespace {
namespace TM_UNITY_ID {  // unique per file in a unity batch (tests/CMakeLists.txt)

namespace fs = std::filesystem;
using nlohmann::json;
using tensormorph::testing::FieldNanos;
using tensormorph::testing::RunResult;
using tensormorph::testing::RunTensormorph;

const fs::path kDlrm = fs::path(TM_SHARED_DATA) / "kineto" / "param_dlrm_8rank";
constexpr size_t kWorld = 8;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

int64_t ElementBytes(const std::string& dtype) {
  static const std::map<std::string, int64_t> sizes = {
      {"float", 4},         {"double", 8},        {"c10::Half", 2}, {"half", 2},
      {"c10::BFloat16", 2}, {"int", 4},           {"long int", 8},  {"int8", 1},
      {"signed char", 1},   {"unsigned char", 1}, {"bool", 1},      {"short", 2}};
  auto it = sizes.find(dtype);
  return it == sizes.end() ? 0 : it->second;
}

std::string TypeFromKernelName(const std::string& name) {
  const std::string n = Lower(name.substr(0, name.find('(')));
  for (const auto& [word, type] :
       std::vector<std::pair<std::string, std::string>>{{"sendrecv", "send_recv"},
                                                        {"allreduce", "all_reduce"},
                                                        {"allgather", "all_gather"},
                                                        {"reducescatter", "reduce_scatter"},
                                                        {"broadcast", "broadcast"},
                                                        {"alltoall", "all_to_all"},
                                                        {"reduce", "reduce"}}) {
    if (n.find(word) != std::string::npos) return type;
  }
  return "other";
}

double BusFactor(const std::string& type, double n) {
  if (type == "all_reduce") return 2 * (n - 1) / n;
  if (type == "all_gather" || type == "reduce_scatter" || type == "all_to_all") return (n - 1) / n;
  return 1;
}

// Median of integers: the middle one, or the floored mean of the two middle ones.
int64_t Median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  if (n % 2 == 1) return v[n / 2];
  const int64_t sum = v[n / 2 - 1] + v[n / 2];
  return sum >= 0 ? sum / 2 : -((-sum + 1) / 2);  // floor, also for negative sums
}

struct Kernel {
  std::string name;
  int64_t start = 0, end = 0;
  std::optional<int64_t> bytes;
  std::string type;
};
using Key = std::tuple<std::string, int64_t, int>;  // name, stream, occurrence

struct RankTrace {
  std::string path;
  int64_t rank = -1, world_size = 0;
  std::map<Key, Kernel> kernels;
};

RankTrace ReadRank(const fs::path& path) {
  RankTrace r;
  r.path = path.string();
  std::string error;
  const json doc = tensormorph::testing::ReadTraceExact(path, &error);
  EXPECT_TRUE(error.empty()) << path << ": " << error;
  if (!error.empty()) return r;
  r.rank = doc.at("distributedInfo").at("rank").get<int64_t>();
  r.world_size = doc.at("distributedInfo").at("world_size").get<int64_t>();
  int64_t base = 0;
  if (doc.contains("baseTimeNanoseconds")) base = std::stoll(doc["baseTimeNanoseconds"].dump());

  struct Span {
    int64_t tid = 0, ts = 0, end = 0;
    const json* e = nullptr;
  };
  std::vector<Span> ops;             // every ph X event with a tid, for the enclosing lookups
  std::map<int64_t, Span> launches;  // by correlation
  std::vector<std::pair<Span, int64_t>> raw_kernels;  // with the stream (tid)
  for (const json& e : doc.at("traceEvents")) {
    if (e.value("ph", "") != "X" || !e.contains("ts")) continue;
    const int64_t ts = FieldNanos(e["ts"]).value() + base;
    const int64_t dur = e.contains("dur") ? FieldNanos(e["dur"]).value_or(0) : 0;
    const int64_t tid =
        e.contains("tid") && e["tid"].is_number_integer() ? e["tid"].get<int64_t>() : -1;
    const Span s{tid, ts, ts + dur, &e};
    const std::string cat = e.value("cat", ""), name = e.value("name", "");
    const std::string lower = Lower(name);
    if (cat == "kernel" &&
        (lower.find("nccl") != std::string::npos || lower.find("rccl") != std::string::npos)) {
      raw_kernels.emplace_back(s, tid);
    } else if (cat == "cuda_runtime" && name.find("LaunchKernel") != std::string::npos &&
               e.contains("args") && e["args"].contains("correlation")) {
      launches[e["args"]["correlation"].get<int64_t>()] = s;
    }
    ops.push_back(s);
  }
  std::stable_sort(raw_kernels.begin(), raw_kernels.end(),
                   [](const auto& a, const auto& b) { return a.first.ts < b.first.ts; });
  // Innermost = the latest start among the enclosing ones (ties: the shortest).
  auto innermost = [&](const Span& launch, auto keep, int* count) -> const Span* {
    const Span* best = nullptr;
    *count = 0;
    for (const Span& o : ops) {
      if (o.tid != launch.tid || o.ts > launch.ts || o.end < launch.ts || !keep(*o.e)) continue;
      ++*count;
      if (best == nullptr || o.ts > best->ts || (o.ts == best->ts && o.end < best->end)) best = &o;
    }
    return best;
  };
  std::map<std::pair<std::string, int64_t>, int> seen;
  for (const auto& [s, stream] : raw_kernels) {
    Kernel k;
    k.name = s.e->at("name").get<std::string>();
    k.start = s.ts;
    k.end = s.end;
    const int occurrence = seen[{k.name, stream}]++;
    const auto launch = launches.find(s.e->at("args").at("correlation").get<int64_t>());
    EXPECT_NE(launch, launches.end()) << path << ": no launch for " << k.name;
    if (launch != launches.end()) {
      int count = 0;
      const Span* comms = innermost(
          launch->second,
          [](const json& e) {
            return e.value("cat", "") == "cpu_op" && e.value("name", "") == "record_param_comms";
          },
          &count);
      EXPECT_EQ(count, 1) << path << ": record_param_comms around the launch of " << k.name;
      // The first input's product of sizes x its dtype's bytes; none for a TensorList.
      const auto first_input_bytes = [](const json& e) -> std::optional<int64_t> {
        if (!e.contains("args")) return std::nullopt;
        const json& dims = e["args"].value("Input Dims", json::array());
        const json& types = e["args"].value("Input type", json::array());
        if (dims.empty() || !dims[0].is_array() || dims[0].empty() || types.empty()) {
          return std::nullopt;
        }
        int64_t bytes = ElementBytes(types[0].get<std::string>());
        for (const json& d : dims[0]) {
          if (!d.is_number_integer()) return std::nullopt;
          bytes *= d.get<int64_t>();
        }
        return bytes > 0 ? std::optional<int64_t>(bytes) : std::nullopt;
      };
      const Span* op = innermost(
          launch->second, [](const json& e) { return e.value("name", "").rfind("nccl:", 0) == 0; },
          &count);
      if (op != nullptr) {
        k.type = op->e->at("name").get<std::string>().substr(5);
        k.bytes = first_input_bytes(*op->e);
      }
      if (!k.bytes && comms != nullptr) k.bytes = first_input_bytes(*comms->e);
    }
    if (k.type.empty()) k.type = TypeFromKernelName(k.name);
    r.kernels[{k.name, stream, occurrence}] = std::move(k);
  }
  return r;
}

// The 8 ranks, by rank, read once.
const std::vector<RankTrace>& Ranks() {
  static const std::vector<RankTrace> ranks = [] {
    std::vector<RankTrace> v;
    for (const auto& entry : fs::directory_iterator(kDlrm)) {
      const std::string name = entry.path().filename().string();
      if (name.size() > 8 && name.substr(name.size() - 8) == ".json.gz") {
        v.push_back(ReadRank(entry.path()));
      }
    }
    std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.rank < b.rank; });
    return v;
  }();
  return ranks;
}

std::vector<std::string> SortedPaths() {
  std::vector<std::string> paths;
  for (const RankTrace& r : Ranks()) paths.push_back(r.path);
  std::sort(paths.begin(), paths.end());
  return paths;
}

struct Instance {
  std::string name, type;
  std::optional<int64_t> bytes;
  std::vector<int64_t> start, end, wait;  // by rank position, aligned
  int64_t first = 0, last_start = 0, skew = 0, transfer = 0, last_rank = 0;
  std::optional<double> algo, bus;
};

struct Expected {
  std::vector<int64_t> offset, uncertainty;  // by rank position
  std::vector<Instance> instances;
  std::vector<int64_t> suffered, caused, times_last;
};

Expected Recompute(bool align) {
  const std::vector<RankTrace>& ranks = Ranks();
  const size_t n = ranks.size();
  Expected x;
  std::vector<Key> keys;
  for (const auto& [key, kernel] : ranks[0].kernels) {
    bool everywhere = true;
    for (const RankTrace& r : ranks) everywhere = everywhere && r.kernels.count(key) > 0;
    if (everywhere) keys.push_back(key);
  }
  for (const RankTrace& r : ranks) {
    std::vector<int64_t> d;
    for (const Key& k : keys) d.push_back(r.kernels.at(k).end - ranks[0].kernels.at(k).end);
    const int64_t offset = d.empty() ? 0 : Median(d);
    std::vector<int64_t> deviation;
    for (int64_t v : d) deviation.push_back(std::llabs(v - offset));
    x.offset.push_back(align ? offset : 0);
    x.uncertainty.push_back(deviation.empty() ? 0 : std::llround(1.4826 * Median(deviation)));
  }
  for (const Key& key : keys) {
    Instance in;
    in.name = std::get<0>(key);
    in.type = ranks[0].kernels.at(key).type;
    for (size_t i = 0; i < n; ++i) {
      const Kernel& k = ranks[i].kernels.at(key);
      in.start.push_back(k.start - x.offset[i]);
      in.end.push_back(k.end - x.offset[i]);
      if (k.bytes) in.bytes = std::max(in.bytes.value_or(0), *k.bytes);
    }
    in.first = *std::min_element(in.start.begin(), in.start.end());
    in.last_start = *std::max_element(in.start.begin(), in.start.end());
    in.skew = in.last_start - in.first;
    in.transfer =
        std::max<int64_t>(0, *std::max_element(in.end.begin(), in.end.end()) - in.last_start);
    size_t last = 0;
    while (in.start[last] != in.last_start) ++last;  // ranks are sorted: the lowest on ties
    in.last_rank = ranks[last].rank;
    for (size_t i = 0; i < n; ++i) {
      in.wait.push_back(std::max<int64_t>(0, std::min(in.end[i], in.last_start) - in.start[i]));
    }
    if (in.bytes && in.transfer > 0) {
      in.algo = static_cast<double>(*in.bytes) / (static_cast<double>(in.transfer) * 1e-9);
      in.bus = *in.algo * BusFactor(in.type, static_cast<double>(n));
    }
    x.instances.push_back(std::move(in));
  }
  std::sort(x.instances.begin(), x.instances.end(), [](const Instance& a, const Instance& b) {
    return std::tie(a.first, a.name) < std::tie(b.first, b.name);
  });
  x.suffered.assign(n, 0);
  x.caused.assign(n, 0);
  x.times_last.assign(n, 0);
  for (const Instance& in : x.instances) {
    for (size_t i = 0; i < n; ++i) {
      x.suffered[i] += in.wait[i];
      if (ranks[i].rank != in.last_rank) continue;
      ++x.times_last[i];
      for (size_t j = 0; j < n; ++j) x.caused[i] += j == i ? 0 : in.wait[j];
    }
  }
  return x;
}

void ExpectRate(const json& got, std::optional<double> want, const std::string& what) {
  if (!want) {
    EXPECT_TRUE(got.is_null()) << what << ": " << got;
    return;
  }
  ASSERT_TRUE(got.is_number()) << what << ": " << got;
  EXPECT_NEAR(got.get<double>(), *want, 1e-9 * std::fabs(*want)) << what;
}

json RunJson(const std::vector<std::string>& extra, RunResult* run) {
  std::vector<std::string> args = {"collectives", "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  for (const std::string& p : SortedPaths()) args.push_back(p);
  *run = RunTensormorph(args);
  return json::parse(run->out, nullptr, /*allow_exceptions=*/false);
}

// The tool's ranks and instances against the recomputation (align: clock offsets applied).
void CheckOutput(const json& out, const Expected& x, bool align) {
  const std::vector<RankTrace>& ranks = Ranks();
  ASSERT_EQ(out.value("schema", ""), "tensormorph.collectives/1");
  ASSERT_EQ(out.at("ranks").size(), ranks.size());
  for (size_t i = 0; i < ranks.size(); ++i) {
    const json& r = out["ranks"][i];
    SCOPED_TRACE("rank " + std::to_string(ranks[i].rank));
    EXPECT_EQ(r.at("rank").get<int64_t>(), ranks[i].rank);
    EXPECT_EQ(r.at("input").get<std::string>(), ranks[i].path);
    EXPECT_EQ(r.at("clock_offset_ns").get<int64_t>(), x.offset[i]);
    if (!align) continue;
    const json& u = r.at("offset_uncertainty_ns");
    if (i == 0 && u.is_null()) continue;  // the reference rank may have no estimate
    EXPECT_EQ(u.get<int64_t>(), x.uncertainty[i]);
  }
  const json& got = out.at("collectives");
  ASSERT_EQ(got.size(), x.instances.size());
  for (size_t c = 0; c < got.size(); ++c) {
    const json& g = got[c];
    const Instance& in = x.instances[c];
    SCOPED_TRACE("instance " + std::to_string(c) + " " + in.name);
    EXPECT_EQ(g.at("index").get<size_t>(), c);
    EXPECT_EQ(g.at("name").get<std::string>(), in.name);
    EXPECT_EQ(g.at("type").get<std::string>(), in.type);
    EXPECT_TRUE(g.at("seq").is_null());  // DLRM records no Seq
    ASSERT_EQ(g.at("ranks").size(), ranks.size());
    for (size_t i = 0; i < ranks.size(); ++i) {
      const json& r = g["ranks"][i];
      EXPECT_EQ(r.at("rank").get<int64_t>(), ranks[i].rank);
      EXPECT_EQ(r.at("start_ns").get<int64_t>(), in.start[i]) << "rank " << ranks[i].rank;
      EXPECT_EQ(r.at("end_ns").get<int64_t>(), in.end[i]) << "rank " << ranks[i].rank;
      EXPECT_EQ(r.at("wait_ns").get<int64_t>(), in.wait[i]) << "rank " << ranks[i].rank;
    }
    EXPECT_EQ(g.at("skew_ns").get<int64_t>(), in.skew);
    EXPECT_EQ(g.at("transfer_ns").get<int64_t>(), in.transfer);
    EXPECT_EQ(g.at("last_rank").get<int64_t>(), in.last_rank);
    if (in.bytes) {
      EXPECT_EQ(g.at("bytes"), json(*in.bytes));
    } else {
      EXPECT_TRUE(g.at("bytes").is_null()) << g["bytes"];
    }
    ExpectRate(g.at("algo_bytes_per_s"), in.algo, "algo_bytes_per_s");
    ExpectRate(g.at("bus_bytes_per_s"), in.bus, "bus_bytes_per_s");
  }
}

TEST(CollectivesOracle, DlrmEightRanksMatchTheRecomputation) {
  const std::vector<RankTrace>& ranks = Ranks();
  ASSERT_EQ(ranks.size(), kWorld);
  for (size_t i = 0; i < kWorld; ++i) {
    EXPECT_EQ(ranks[i].rank, static_cast<int64_t>(i));
    EXPECT_EQ(ranks[i].world_size, static_cast<int64_t>(kWorld));
    EXPECT_EQ(ranks[i].kernels.size(), 8u) << ranks[i].path;  // "8 per rank"
  }
  const Expected x = Recompute(/*align=*/true);
  ASSERT_EQ(x.instances.size(), 8u);
  for (const Instance& in : x.instances) EXPECT_TRUE(in.bytes.has_value()) << in.type;
  RunResult run;
  const json out = RunJson({}, &run);
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  ASSERT_FALSE(out.is_discarded()) << run.Describe();
  EXPECT_TRUE(out.at("job").at("is_job").get<bool>());
  EXPECT_EQ(out["job"].at("world_size").get<int64_t>(), static_cast<int64_t>(kWorld));
  ASSERT_EQ(out.at("inputs").size(), kWorld);
  CheckOutput(out, x, /*align=*/true);

  const json& per_rank = out.at("per_rank");
  ASSERT_EQ(per_rank.size(), kWorld);
  for (size_t i = 0; i < kWorld; ++i) {
    const json& p = per_rank[i];
    SCOPED_TRACE("per_rank " + std::to_string(i));
    EXPECT_EQ(p.at("rank").get<int64_t>(), ranks[i].rank);
    EXPECT_EQ(p.at("wait_suffered_ns").get<int64_t>(), x.suffered[i]);
    EXPECT_EQ(p.at("wait_caused_ns").get<int64_t>(), x.caused[i]);
    EXPECT_EQ(p.at("times_last").get<int64_t>(), x.times_last[i]);
  }
  // by_type: whatever the buckets, each type's counts add up to its instances.
  std::map<std::string, size_t> want_types, got_types;
  for (const Instance& in : x.instances) ++want_types[in.type];
  for (const json& t : out.at("by_type")) {
    got_types[t.at("type").get<std::string>()] += t.at("count").get<size_t>();
  }
  EXPECT_EQ(got_types, want_types);
}

TEST(CollectivesOracle, NoClockAlignKeepsRawTimes) {
  const Expected x = Recompute(/*align=*/false);
  ASSERT_EQ(x.instances.size(), 8u);
  RunResult run;
  const json out = RunJson({"--no-clock-align"}, &run);
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  ASSERT_FALSE(out.is_discarded()) << run.Describe();
  for (const json& r : out.at("ranks")) EXPECT_EQ(r.at("clock_offset_ns").get<int64_t>(), 0);
  CheckOutput(out, x, /*align=*/false);
}

TEST(CollectivesOracle, CsvHasAHeaderAndARowPerInstanceAtLeast) {
  std::vector<std::string> args = {"collectives", "--format", "csv"};
  for (const std::string& p : SortedPaths()) args.push_back(p);
  const RunResult run = RunTensormorph(args);
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  std::vector<std::string> lines;
  size_t from = 0;
  while (from < run.out.size()) {
    size_t to = run.out.find('\n', from);
    if (to == std::string::npos) to = run.out.size();
    std::string line = run.out.substr(from, to - from);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) lines.push_back(line);
    from = to + 1;
  }
  ASSERT_FALSE(lines.empty()) << run.Describe();
  EXPECT_FALSE(lines[0].empty());
  EXPECT_GE(lines.size() - 1, 8u) << run.Describe();
}

}  // namespace TM_UNITY_ID
}  // namespace
