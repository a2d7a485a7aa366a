// End-to-end oracle for `tensormorph critical-path` (docs/critical-path.md) on the 8-rank PARAM
// DLRM Kineto job (shared/data/kineto/param_dlrm_8rank, one trace per rank, one ProfilerStep#10
// each), plus invariants on one rank of HTA's 2-rank NCCL trace (hta/nccl_2rank_rank0_a100).
//
// Shares no code with src/: each trace is inflated with zlib and parsed with nlohmann-json keeping
// floats as their text (support/kineto_events.h); every ts/dur is converted from its decimal µs
// text to integer ns (baseTimeNanoseconds added when present), and the walk is recomputed here:
//   * device work: ph "X", cat "kernel" / "gpu_memcpy" / "gpu_memset" (kind kernel / memcpy /
//     memset); [ts, ts + dur); stream = tid, device = args.device, else pid. Stream order: by
//     (device, stream, start, end, memcpy/memset after kernels, row in the file); the stream
//     predecessor is the item before in that order on the same (device, stream);
//   * host calls: cat "cuda_runtime" / "cuda_driver"; a host thread is the (pid, tid) of one; an
//     item's launch is the call with its args.correlation. Blocking calls: a sync call (name
//     contains "Synchronize") waited for the rank's item with the latest end in [start, end]
//     (ties: latest start, then first in stream order); a copy call (name starts with
//     cudaMemcpy/cudaMemset/hipMemcpy/hipMemset/cuMemcpy/cuMemset) waited for its own
//     memcpy/memset (same correlation) when that ended in [start, end]; other calls did not wait;
//   * outermost ops: cat "cpu_op" not time-enclosed ([s, e] within [s', e']) by another cpu_op on
//     the same (pid, tid);
//   * steps: cat "user_annotation" named "ProfilerStep#N" on a host thread;
//   * collectives, clocks and uncertainties exactly as tests/collectives_oracle_test.cc: kernels
//     whose name holds "nccl"/"rccl" (any case), matched by (name, stream, k-th occurrence by
//     start), offset = median of end differences against rank 0 (floored mean of the two middle
//     ones), uncertainty = llround(1.4826 x MAD); aligned time = raw - offset;
//   * the step window and the backward walk of docs/critical-path.md ("The graph", rules 1-4),
//     with pieces cut at the step start; on a rank's host the walk stops at that rank's own
//     ProfilerStep#N start, the rest back to the window's start being one step_not_started piece.
//
// Ambiguities of the spec and the reading taken here (the most literal one):
//   A1 JSON category strings are not spelled out: taken as the composition keys without "_ns":
//      "compute", "comm_transfer", "comm_wait", "host", "idle".
//   A2 Empty pieces: only some rules say "(if not empty)". The comparison drops zero-length pieces
//      on both sides (the tool may emit them or not); they must still be contiguous.
//   A3 Zero-duration outermost ops (DLRM has them, µs resolution) would split a "(no op)" gap in
//      two if split literally at their boundaries; adjacent `cpu` pieces of one rank are merged
//      on both sides before comparing.
//   A4 Ops with identical intervals enclose each other; the first in the file (the parent, as
//      Kineto writes it) is taken as the outermost and names the piece.
//   A5 Names of pieces: kernel/memcpy/memset and collective_transfer/collective_wait pieces carry
//      the device item's name as the trace spells it; launch and sync the call's; cpu_op the op's;
//      cpu "(no op)". idle pieces have no specified name: not compared.
//   A6 "Latest blocking call": the one with the latest end (then latest start) among the calls on
//      the thread that ended at or before t and waited for device work.
//   A7 Ties "then stream order" across streams (step end item, other-stream releaser, sync's
//      waited item): the lowest (device, stream), then the first in stream order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
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
const fs::path kNccl =
    fs::path(TM_SHARED_DATA) / "kineto" / "hta" / "nccl_2rank_rank0_a100.json.gz";
constexpr size_t kWorld = 8;
constexpr int64_t kDlrmStep = 10;
const std::vector<std::string> kCategories = {"compute", "comm_transfer", "comm_wait", "host",
                                              "idle"};

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// Median of integers: the middle one, or the floored mean of the two middle ones.
int64_t Median(std::vector<int64_t> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  if (n % 2 == 1) return v[n / 2];
  const int64_t sum = v[n / 2 - 1] + v[n / 2];
  return sum >= 0 ? sum / 2 : -((-sum + 1) / 2);  // floor, also for negative sums
}

// ---------------------------------------------------------------------------------------------
// One rank's trace, as the walk needs it.

using Thread = std::pair<int64_t, int64_t>;         // (pid, tid)
using Key = std::tuple<std::string, int64_t, int>;  // collective: name, stream, occurrence

struct DeviceItem {
  std::string name, kind;  // kind: kernel, memcpy or memset
  int64_t device = 0, stream = 0, start = 0, end = 0, row = 0;
  std::optional<int64_t> correlation;
  bool collective = false;
};

struct HostCall {
  std::string name;
  Thread thread;
  int64_t start = 0, end = 0;
  std::optional<int64_t> correlation;
  std::optional<size_t> waited;  // the device item a blocking call waited for
};

struct Op {
  std::string name;
  int64_t start = 0, end = 0;
};

struct StepRange {
  Thread thread;
  int64_t start = 0, end = 0;
};

struct Rank {
  std::string path;
  int64_t rank = -1, world_size = 0;
  int64_t offset = 0, uncertainty = 0;
  std::vector<DeviceItem> items;  // in stream order
  std::vector<HostCall> calls;
  std::map<int64_t, size_t> call_of;               // correlation -> calls index
  std::map<Thread, std::vector<size_t>> blocking;  // calls that waited, by thread
  std::map<Thread, std::vector<Op>> outermost;     // by start, disjoint in these traces
  std::map<int64_t, StepRange> steps;              // ProfilerStep#N
  std::map<size_t, Key> collective_key;            // items index -> key
  std::map<Key, size_t> collective_item;           // key -> items index
};

int64_t IntField(const json& e, const char* name) {
  return e.contains(name) && e[name].is_number_integer() ? e[name].get<int64_t>() : -1;
}

std::optional<int64_t> Correlation(const json& e) {
  if (!e.contains("args") || !e["args"].contains("correlation")) return std::nullopt;
  const json& c = e["args"]["correlation"];
  return c.is_number_integer() ? std::optional<int64_t>(c.get<int64_t>()) : std::nullopt;
}

std::string KindOfCat(const std::string& cat) {
  if (cat == "kernel") return "kernel";
  if (cat == "gpu_memcpy") return "memcpy";
  if (cat == "gpu_memset") return "memset";
  return "";
}

bool IsSyncCall(const std::string& name) {
  return name.find("Synchronize") != std::string::npos;
}

bool IsCopyCall(const std::string& name) {
  for (const char* p :
       {"cudaMemcpy", "cudaMemset", "hipMemcpy", "hipMemset", "cuMemcpy", "cuMemset"}) {
    if (StartsWith(name, p)) return true;
  }
  return false;
}

// "Later" for the tie rules: the latest end, then the latest start, then the first in stream
// order (items are stored in stream order, so the lower index).
bool Later(const std::vector<DeviceItem>& items, size_t a, std::optional<size_t> b) {
  if (!b) return true;
  const DeviceItem &x = items[a], &y = items[*b];
  if (x.end != y.end) return x.end > y.end;
  if (x.start != y.start) return x.start > y.start;
  return a < *b;
}

void SortInStreamOrder(std::vector<DeviceItem>* items) {
  std::sort(items->begin(), items->end(), [](const DeviceItem& a, const DeviceItem& b) {
    const int ka = a.kind == "kernel" ? 0 : 1, kb = b.kind == "kernel" ? 0 : 1;
    return std::tie(a.device, a.stream, a.start, a.end, ka, a.row) <
           std::tie(b.device, b.stream, b.start, b.end, kb, b.row);
  });
}

// Outermost ops of one thread: by (start, longest first, row); an op inside the current
// outermost one (both ends included) is enclosed; identical intervals: the first row wins (A4).
std::vector<Op> Outermost(std::vector<std::pair<Op, int64_t>> ops) {
  std::sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) {
    return std::make_tuple(a.first.start, -a.first.end, a.second) <
           std::make_tuple(b.first.start, -b.first.end, b.second);
  });
  std::vector<Op> out;
  for (const auto& [op, row] : ops) {
    if (!out.empty() && op.start >= out.back().start && op.end <= out.back().end) continue;
    out.push_back(op);
  }
  return out;
}

// The waited-for item of each blocking call (rule 3), and the blocking calls by thread.
void FindBlockingCalls(Rank* r) {
  std::map<int64_t, size_t> copy_item;  // correlation -> memcpy/memset item
  for (size_t i = 0; i < r->items.size(); ++i) {
    if (r->items[i].kind != "kernel" && r->items[i].correlation) {
      copy_item[*r->items[i].correlation] = i;
    }
  }
  for (size_t c = 0; c < r->calls.size(); ++c) {
    HostCall& call = r->calls[c];
    const auto ended_within = [&](size_t i) {
      return r->items[i].end >= call.start && r->items[i].end <= call.end;
    };
    if (IsSyncCall(call.name)) {
      for (size_t i = 0; i < r->items.size(); ++i) {
        if (ended_within(i) && Later(r->items, i, call.waited)) call.waited = i;
      }
    } else if (IsCopyCall(call.name)) {
      const auto item = call.correlation ? copy_item.find(*call.correlation) : copy_item.end();
      if (item != copy_item.end() && ended_within(item->second)) call.waited = item->second;
    }
    if (call.waited) r->blocking[call.thread].push_back(c);
  }
}

// Collective kernels keyed by (name, stream, k-th occurrence by start), as collectives_oracle.
void KeyCollectives(Rank* r) {
  std::map<std::pair<std::string, int64_t>, int> seen;
  std::vector<size_t> order;
  for (size_t i = 0; i < r->items.size(); ++i) {
    if (r->items[i].collective) order.push_back(i);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return r->items[a].start < r->items[b].start; });
  for (size_t i : order) {
    const DeviceItem& k = r->items[i];
    const Key key{k.name, k.stream, seen[{k.name, k.stream}]++};
    r->collective_key[i] = key;
    r->collective_item[key] = i;
  }
}

Rank ReadRank(const fs::path& path) {
  Rank r;
  r.path = path.string();
  std::string error;
  const json doc = tensormorph::testing::ReadTraceExact(path, &error);
  EXPECT_TRUE(error.empty()) << path << ": " << error;
  if (!error.empty()) return r;
  r.rank = doc.at("distributedInfo").at("rank").get<int64_t>();
  r.world_size = doc.at("distributedInfo").at("world_size").get<int64_t>();
  int64_t base = 0;
  if (doc.contains("baseTimeNanoseconds")) base = std::stoll(doc["baseTimeNanoseconds"].dump());

  std::map<Thread, std::vector<std::pair<Op, int64_t>>> ops;
  std::vector<std::pair<std::string, StepRange>> annotations;  // ProfilerStep#* ranges
  int64_t row = 0;
  for (const json& e : doc.at("traceEvents")) {
    ++row;
    if (e.value("ph", "") != "X" || !e.contains("ts")) continue;
    const int64_t ts = FieldNanos(e["ts"]).value() + base;
    const int64_t dur = e.contains("dur") ? FieldNanos(e["dur"]).value_or(0) : 0;
    const std::string cat = e.value("cat", ""), name = e.value("name", "");
    const Thread thread{IntField(e, "pid"), IntField(e, "tid")};
    if (const std::string kind = KindOfCat(cat); !kind.empty()) {
      DeviceItem item;
      item.name = name;
      item.kind = kind;
      item.stream = thread.second;
      item.device = thread.first;
      if (e.contains("args") && e["args"].contains("device") &&
          e["args"]["device"].is_number_integer()) {
        item.device = e["args"]["device"].get<int64_t>();
      }
      item.start = ts;
      item.end = ts + dur;
      item.row = row;
      item.correlation = Correlation(e);
      const std::string lower = Lower(name);
      item.collective = kind == "kernel" && (lower.find("nccl") != std::string::npos ||
                                             lower.find("rccl") != std::string::npos);
      r.items.push_back(std::move(item));
    } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
      const std::optional<int64_t> corr = Correlation(e);
      if (corr) r.call_of[*corr] = r.calls.size();
      r.calls.push_back(HostCall{name, thread, ts, ts + dur, corr, std::nullopt});
    } else if (cat == "cpu_op") {
      ops[thread].push_back({Op{name, ts, ts + dur}, row});
    } else if (cat == "user_annotation" && StartsWith(name, "ProfilerStep#")) {
      annotations.push_back({name, StepRange{thread, ts, ts + dur}});
    }
  }
  SortInStreamOrder(&r.items);
  for (auto& [thread, list] : ops) r.outermost[thread] = Outermost(std::move(list));
  std::set<Thread> host_threads;
  for (const HostCall& c : r.calls) host_threads.insert(c.thread);
  for (const auto& [name, range] : annotations) {
    if (host_threads.count(range.thread) == 0) continue;
    r.steps[std::stoll(name.substr(std::string("ProfilerStep#").size()))] = range;
  }
  FindBlockingCalls(&r);
  KeyCollectives(&r);
  return r;
}

void Shift(Rank* r, int64_t by) {
  for (DeviceItem& i : r->items) i.start += by, i.end += by;
  for (HostCall& c : r->calls) c.start += by, c.end += by;
  for (auto& [thread, list] : r->outermost) {
    for (Op& o : list) o.start += by, o.end += by;
  }
  for (auto& [n, s] : r->steps) s.start += by, s.end += by;
}

// ---------------------------------------------------------------------------------------------
// The job: ranks by rank, clocks aligned on the collectives matched on every rank.

struct Job {
  std::vector<Rank> ranks;  // by rank
  std::vector<Key> matched;
};

void AlignClocks(Job* job) {
  std::vector<Rank>& ranks = job->ranks;
  for (const auto& [key, item] : ranks[0].collective_item) {
    bool everywhere = true;
    for (const Rank& r : ranks) everywhere = everywhere && r.collective_item.count(key) > 0;
    if (everywhere) job->matched.push_back(key);
  }
  const auto end_of = [](const Rank& r, const Key& k) {
    return r.items[r.collective_item.at(k)].end;
  };
  for (Rank& r : ranks) {
    std::vector<int64_t> d;
    for (const Key& k : job->matched) d.push_back(end_of(r, k) - end_of(ranks[0], k));
    r.offset = d.empty() ? 0 : Median(d);
    std::vector<int64_t> deviation;
    for (int64_t v : d) deviation.push_back(std::llabs(v - r.offset));
    r.uncertainty = deviation.empty() ? 0 : std::llround(1.4826 * Median(deviation));
  }
  for (Rank& r : ranks) Shift(&r, -r.offset);  // every offset is from the raw times
}

// The 8 DLRM ranks, by rank, aligned, read once.
const Job& Dlrm() {
  static const Job job = [] {
    Job j;
    for (const auto& entry : fs::directory_iterator(kDlrm)) {
      const std::string name = entry.path().filename().string();
      if (name.size() > 8 && name.substr(name.size() - 8) == ".json.gz") {
        j.ranks.push_back(ReadRank(entry.path()));
      }
    }
    std::sort(j.ranks.begin(), j.ranks.end(),
              [](const Rank& a, const Rank& b) { return a.rank < b.rank; });
    if (!j.ranks.empty()) AlignClocks(&j);
    return j;
  }();
  return job;
}

// ---------------------------------------------------------------------------------------------
// The step window ("The step").

struct Window {
  int64_t start = 0, end = 0;
  size_t end_rank = 0;               // index in the job's ranks
  std::optional<size_t> end_item;    // the walk starts at its end when set,
  std::optional<Thread> end_thread;  // else at `end` on this host thread
  int64_t step = 0;
  std::vector<int64_t> rank_start;  // each rank's own ProfilerStep#N start, by index
};

// The latest-ending item whose launch (or, without one, itself) starts within [s, e].
std::optional<size_t> LatestLaunchedWithin(const Rank& r, int64_t s, int64_t e) {
  std::optional<size_t> best;
  for (size_t i = 0; i < r.items.size(); ++i) {
    const DeviceItem& item = r.items[i];
    int64_t from = item.start;
    if (item.correlation && r.call_of.count(*item.correlation) > 0) {
      from = r.calls[r.call_of.at(*item.correlation)].start;
    }
    if (from >= s && from <= e && Later(r.items, i, best)) best = i;
  }
  return best;
}

std::optional<Window> StepWindow(const std::vector<Rank>& ranks, int64_t step) {
  Window w;
  bool first = true;
  for (size_t k = 0; k < ranks.size(); ++k) {
    const auto it = ranks[k].steps.find(step);
    if (it == ranks[k].steps.end()) return std::nullopt;  // not on every rank
    const StepRange& s = it->second;
    w.rank_start.push_back(s.start);
    const std::optional<size_t> d = LatestLaunchedWithin(ranks[k], s.start, s.end);
    const bool device_later = d && ranks[k].items[*d].end > s.end;
    const int64_t end = device_later ? ranks[k].items[*d].end : s.end;
    if (first || s.start < w.start) w.start = s.start;
    if (first || end > w.end) {  // ties: the lowest rank keeps it
      w.end = end;
      w.end_rank = k;
      w.end_item = device_later ? d : std::nullopt;
      w.end_thread = device_later ? std::nullopt : std::optional<Thread>(s.thread);
    }
    first = false;
  }
  w.step = step;
  return w;
}

// ---------------------------------------------------------------------------------------------
// The backward walk ("The graph").

struct Piece {
  int64_t rank = 0;
  std::string kind, category, name;
  int64_t start = 0, end = 0;
};

std::string CategoryOf(const std::string& kind) {
  if (kind == "kernel" || kind == "memcpy" || kind == "memset") return "compute";
  if (kind == "collective_transfer") return "comm_transfer";
  if (kind == "collective_wait") return "comm_wait";
  if (kind == "cpu_op" || kind == "cpu" || kind == "launch" || kind == "sync" ||
      kind == "step_not_started") {
    return "host";
  }
  if (kind == "idle") return "idle";
  return "?";
}

class Walk {
 public:
  Walk(const Job& job, const Window& window) : job_(job), window_(window), now_(window.end) {}

  // The path in time order.
  std::vector<Piece> Run() {
    State s{window_.end_item ? At::kEnd : At::kHost, window_.end_rank, window_.end_item.value_or(0),
            window_.end_thread.value_or(Thread{}), window_.end};
    size_t budget = 64;
    for (const Rank& r : job_.ranks) {
      budget += 8 * r.items.size();
      for (const auto& [t, b] : r.blocking) budget += 8 * b.size();
    }
    for (size_t moves = 0; !done_ && moves < budget; ++moves) {
      if (s.at == At::kEnd) s = FromEnd(s);
      if (!done_ && s.at == At::kStart) s = FromStart(s);
      if (!done_ && s.at == At::kHost) s = FromHost(s);
    }
    EXPECT_TRUE(done_) << "the oracle's walk did not reach the step start";
    if (!done_) Emit(s.rank, "idle", "", window_.start, now_);
    std::reverse(backward_.begin(), backward_.end());
    return backward_;
  }

 private:
  enum class At { kEnd, kStart, kHost };
  struct State {
    At at;
    size_t rank;    // index in the job's ranks
    size_t item;    // kEnd, kStart
    Thread thread;  // kHost
    int64_t time;   // kHost
  };

  const Rank& R(size_t k) const { return job_.ranks[k]; }

  // Emits [start, end) backward: pieces are contiguous, empty ones dropped (A2), the one that
  // crosses the step start is cut there and ends the walk.
  void Emit(size_t rank, const std::string& kind, const std::string& name, int64_t start,
            int64_t end) {
    if (done_ || end <= start) return;
    EXPECT_EQ(end, now_) << "oracle: non-contiguous " << kind << " " << name;
    start = std::max(start, window_.start);
    backward_.push_back(Piece{R(rank).rank, kind, CategoryOf(kind), name, start, end});
    now_ = start;
    if (start <= window_.start) done_ = true;
  }

  // Rule 1: at the end of device item w.
  State FromEnd(const State& s) {
    const DeviceItem& w = R(s.rank).items[s.item];
    const auto key = R(s.rank).collective_key.find(s.item);
    const bool matched =
        key != R(s.rank).collective_key.end() &&
        std::find(job_.matched.begin(), job_.matched.end(), key->second) != job_.matched.end();
    if (!w.collective || !matched) {
      Emit(s.rank, w.collective ? "collective_transfer" : w.kind, w.name, w.start, w.end);
      return State{At::kStart, s.rank, s.item, {}, 0};
    }
    // The last arrival: the latest aligned start (ties: the lowest rank).
    size_t last = 0;
    int64_t arrival = 0;
    for (size_t k = 0; k < job_.ranks.size(); ++k) {
      const int64_t start = R(k).items[R(k).collective_item.at(key->second)].start;
      if (k == 0 || start > arrival) arrival = start, last = k;
    }
    const int64_t clamped = std::clamp(arrival, w.start, w.end);
    Emit(s.rank, "collective_transfer", w.name, clamped, w.end);
    const double tolerance = std::sqrt(std::pow(double(R(s.rank).uncertainty), 2) +
                                       std::pow(double(R(last).uncertainty), 2));
    if (last != s.rank && arrival <= w.end && double(clamped - w.start) > tolerance) {
      return State{At::kStart, last, R(last).collective_item.at(key->second), {}, 0};
    }
    Emit(s.rank, "collective_wait", w.name, w.start, clamped);
    return State{At::kStart, s.rank, s.item, {}, 0};
  }

  // Rule 2: at the start of device item w.
  State FromStart(const State& s) {
    const Rank& r = R(s.rank);
    const DeviceItem& w = r.items[s.item];
    std::optional<size_t> launch, pred, other;
    if (w.correlation && r.call_of.count(*w.correlation) > 0) launch = r.call_of.at(*w.correlation);
    if (s.item > 0 && r.items[s.item - 1].device == w.device &&
        r.items[s.item - 1].stream == w.stream) {
      pred = s.item - 1;
    }
    for (size_t i = 0; i < r.items.size(); ++i) {
      const DeviceItem& o = r.items[i];
      if (o.device == w.device && o.stream != w.stream && o.start < w.start && o.end <= w.start &&
          Later(r.items, i, other)) {
        other = i;
      }
    }
    if (!launch && !pred && !other) {
      Emit(s.rank, "idle", "", window_.start, w.start);
      done_ = true;
      return s;
    }
    const int64_t pred_release = pred ? std::min(r.items[*pred].end, w.start) : 0;
    int64_t release = INT64_MIN;
    if (launch) release = r.calls[*launch].start;
    if (pred) release = std::max(release, pred_release);
    if (other && r.items[*other].end > release) {
      Emit(s.rank, "idle", "", r.items[*other].end, w.start);
      return State{At::kEnd, s.rank, *other, {}, 0};
    }
    if (pred && (!launch || r.items[*pred].end >= r.calls[*launch].start)) {
      Emit(s.rank, "idle", "", pred_release, w.start);
      return State{At::kEnd, s.rank, *pred, {}, 0};
    }
    const HostCall& c = r.calls[*launch];
    Emit(s.rank, "launch", c.name, c.start, w.start);
    return State{At::kHost, s.rank, 0, c.thread, std::min(c.start, w.start)};
  }

  // Rule 3: at time t on host thread T.
  State FromHost(const State& s) {
    const Rank& r = R(s.rank);
    std::optional<size_t> latest;  // A6
    if (const auto b = r.blocking.find(s.thread); b != r.blocking.end()) {
      for (size_t c : b->second) {
        const HostCall& call = r.calls[c];
        if (call.end > s.time || call.end <= window_.rank_start[s.rank]) continue;
        if (!latest || std::tie(call.end, call.start) >
                           std::tie(r.calls[*latest].end, r.calls[*latest].start)) {
          latest = c;
        }
      }
    }
    if (!latest) {  // back to the rank's own step start; before it, the step had not begun
      const int64_t floor = std::min(window_.rank_start[s.rank], s.time);
      HostPieces(s.rank, s.thread, floor, s.time);
      Emit(s.rank, "step_not_started", "ProfilerStep#" + std::to_string(window_.step),
           window_.start, floor);
      done_ = true;
      return s;
    }
    const HostCall& b = r.calls[*latest];
    HostPieces(s.rank, s.thread, b.end, s.time);
    Emit(s.rank, "sync", b.name, r.items[*b.waited].end, b.end);
    return State{At::kEnd, s.rank, *b.waited, {}, 0};
  }

  // [a, t) on thread T split at the outermost ops' boundaries, emitted backward.
  void HostPieces(size_t rank, const Thread& thread, int64_t a, int64_t t) {
    int64_t cursor = t;
    const auto ops = R(rank).outermost.find(thread);
    if (ops != R(rank).outermost.end()) {
      for (auto op = ops->second.rbegin(); op != ops->second.rend() && !done_; ++op) {
        if (op->start >= cursor || op->end <= a) continue;
        Emit(rank, "cpu", "(no op)", std::max(op->end, a), cursor);
        Emit(rank, "cpu_op", op->name, std::max(op->start, a), std::min(op->end, cursor));
        cursor = std::max(op->start, a);
      }
    }
    Emit(rank, "cpu", "(no op)", a, cursor);
  }

  const Job& job_;
  const Window& window_;
  int64_t now_;
  bool done_ = false;
  std::vector<Piece> backward_;
};

struct Composition {
  std::map<std::string, int64_t> ns;  // by category
};

Composition Compose(const std::vector<Piece>& path) {
  Composition c;
  for (const std::string& cat : kCategories) c.ns[cat] = 0;
  for (const Piece& p : path) c.ns[p.category] += p.end - p.start;
  return c;
}

// ---------------------------------------------------------------------------------------------
// The tool's output.

json RunJson(const std::vector<std::string>& extra, const std::vector<std::string>& inputs,
             RunResult* run) {
  std::vector<std::string> args = {"critical-path", "--format", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  args.insert(args.end(), inputs.begin(), inputs.end());
  *run = RunTensormorph(args);
  return json::parse(run->out, nullptr, /*allow_exceptions=*/false);
}

std::vector<std::string> DlrmPaths() {
  std::vector<std::string> paths;
  for (const Rank& r : Dlrm().ranks) paths.push_back(r.path);
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::vector<Piece> PiecesOf(const json& step) {
  std::vector<Piece> path;
  for (const json& p : step.at("path")) {
    path.push_back(Piece{p.at("rank").is_number_integer() ? p["rank"].get<int64_t>() : -1,
                         p.at("kind").get<std::string>(), p.at("category").get<std::string>(),
                         p.at("name").get<std::string>(), p.at("start_ns").get<int64_t>(),
                         p.at("end_ns").get<int64_t>()});
  }
  return path;
}

// Drops empty pieces (A2) and merges adjacent `cpu` pieces of one rank (A3).
std::vector<Piece> Normalized(const std::vector<Piece>& path) {
  std::vector<Piece> out;
  for (const Piece& p : path) {
    if (p.end == p.start) continue;
    if (!out.empty() && p.kind == "cpu" && out.back().kind == "cpu" && out.back().rank == p.rank &&
        out.back().end == p.start) {
      out.back().end = p.end;
      continue;
    }
    out.push_back(p);
  }
  return out;
}

// What holds of any step the tool prints, whatever the walk: the pieces are contiguous, cover
// [start_ns, end_ns], sum by category to the composition, which sums to length_ns.
void CheckInvariants(const json& step) {
  const int64_t start = step.at("start_ns").get<int64_t>(), end = step.at("end_ns").get<int64_t>();
  EXPECT_EQ(step.at("length_ns").get<int64_t>(), end - start);
  const json& comp = step.at("composition");
  int64_t total = 0;
  for (const std::string& cat : kCategories) total += comp.at(cat + "_ns").get<int64_t>();
  EXPECT_EQ(total, end - start) << comp;
  const std::vector<Piece> path = PiecesOf(step);
  ASSERT_FALSE(path.empty());
  EXPECT_EQ(path.front().start, start);
  EXPECT_EQ(path.back().end, end);
  std::map<std::string, int64_t> sums;
  for (const std::string& cat : kCategories) sums[cat] = 0;
  for (size_t i = 0; i < path.size(); ++i) {
    const Piece& p = path[i];
    SCOPED_TRACE("piece " + std::to_string(i) + " " + p.kind + " " + p.name);
    EXPECT_LE(p.start, p.end);
    if (i + 1 < path.size()) {
      EXPECT_EQ(p.end, path[i + 1].start);
    }
    EXPECT_EQ(p.category, CategoryOf(p.kind));  // A1
    ASSERT_EQ(sums.count(p.category), 1u) << p.category;
    sums[p.category] += p.end - p.start;
    if (p.kind == "cpu") {
      EXPECT_EQ(p.name, "(no op)");
    }
  }
  for (const std::string& cat : kCategories) {
    EXPECT_EQ(sums[cat], comp.at(cat + "_ns").get<int64_t>()) << cat;
  }
}

std::string Describe(const Piece& p) {
  return "rank " + std::to_string(p.rank) + " " + p.kind + " [" + std::to_string(p.start) + ", " +
         std::to_string(p.end) + ") " + p.name;
}

// The tool's step against the recomputed window and walk.
void CheckStepAgainstOracle(const json& step, const Window& window,
                            const std::vector<Piece>& want) {
  const Job& job = Dlrm();
  EXPECT_EQ(step.at("step"), json(kDlrmStep));
  EXPECT_TRUE(step.at("input").is_null()) << step["input"];  // a job of several inputs
  EXPECT_EQ(step.at("start_ns").get<int64_t>(), window.start);
  EXPECT_EQ(step.at("end_ns").get<int64_t>(), window.end);
  EXPECT_EQ(step.at("end_rank"), json(job.ranks[window.end_rank].rank));
  CheckInvariants(step);

  const Composition c = Compose(want);
  for (const std::string& cat : kCategories) {
    EXPECT_EQ(step.at("composition").at(cat + "_ns").get<int64_t>(), c.ns.at(cat)) << cat;
  }
  const std::vector<Piece> got = Normalized(PiecesOf(step)), expected = Normalized(want);
  EXPECT_EQ(got.size(), expected.size());
  for (size_t i = 0; i < std::min(got.size(), expected.size()); ++i) {
    const Piece &g = got[i], &x = expected[i];
    const bool same = g.rank == x.rank && g.kind == x.kind && g.category == x.category &&
                      (x.kind == "idle" || g.name == x.name) && g.start == x.start &&
                      g.end == x.end;  // A5: idle names are not compared
    EXPECT_TRUE(same) << "piece " << i
                      << " (empty pieces dropped, cpu runs merged)\n  tool:   " << Describe(g)
                      << "\n  oracle: " << Describe(x);
    if (!same) break;  // the rest follows from the first divergence
  }
  std::set<int64_t> ranks;
  for (const Piece& p : want) ranks.insert(p.rank);
  EXPECT_EQ(step.at("ranks"), json(std::vector<int64_t>(ranks.begin(), ranks.end())));
  for (const json& p : step.at("path")) {
    const int64_t r = p.at("rank").get<int64_t>();
    ASSERT_TRUE(r >= 0 && r < static_cast<int64_t>(job.ranks.size())) << p;
    EXPECT_EQ(p.at("input"), json(job.ranks[r].path)) << p;
  }
}

void CheckRanks(const json& out) {
  const Job& job = Dlrm();
  ASSERT_EQ(out.at("ranks").size(), job.ranks.size());
  for (size_t i = 0; i < job.ranks.size(); ++i) {
    const json& r = out["ranks"][i];
    SCOPED_TRACE("rank " + std::to_string(job.ranks[i].rank));
    EXPECT_EQ(r.at("rank").get<int64_t>(), job.ranks[i].rank);
    EXPECT_EQ(r.at("input").get<std::string>(), job.ranks[i].path);
    EXPECT_EQ(r.at("clock_offset_ns").get<int64_t>(), job.ranks[i].offset);
    const json& u = r.at("offset_uncertainty_ns");
    if (i == 0 && u.is_null()) continue;  // the reference rank may have no estimate
    EXPECT_EQ(u.get<int64_t>(), job.ranks[i].uncertainty);
  }
}

// The recomputed window and path of DLRM's step 10.
struct Expected {
  Window window;
  std::vector<Piece> path;
};

const Expected& DlrmExpected() {
  static const Expected x = [] {
    Expected e;
    const std::optional<Window> w = StepWindow(Dlrm().ranks, kDlrmStep);
    EXPECT_TRUE(w.has_value());
    if (!w) return e;
    e.window = *w;
    e.path = Walk(Dlrm(), e.window).Run();
    return e;
  }();
  return x;
}

TEST(CriticalPathOracle, DlrmStepTenMatchesTheRecomputation) {
  const Job& job = Dlrm();
  ASSERT_EQ(job.ranks.size(), kWorld);
  for (size_t i = 0; i < kWorld; ++i) {
    EXPECT_EQ(job.ranks[i].rank, static_cast<int64_t>(i));
    EXPECT_EQ(job.ranks[i].steps.size(), 1u) << job.ranks[i].path;
  }
  ASSERT_EQ(job.matched.size(), 8u);  // as collectives_oracle_test
  const Expected& x = DlrmExpected();
  ASSERT_FALSE(x.path.empty());
  // The oracle's own path obeys what it asks of the tool's.
  EXPECT_EQ(x.path.front().start, x.window.start);
  EXPECT_EQ(x.path.back().end, x.window.end);

  RunResult run;
  const json out = RunJson({}, DlrmPaths(), &run);
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  ASSERT_FALSE(out.is_discarded()) << run.Describe();
  EXPECT_EQ(out.value("schema", ""), "tensormorph.critical_path/1");
  EXPECT_TRUE(out.at("job").at("is_job").get<bool>());
  EXPECT_EQ(out["job"].at("world_size").get<int64_t>(), static_cast<int64_t>(kWorld));
  CheckRanks(out);
  ASSERT_EQ(out.at("steps").size(), 1u) << run.Describe();
  CheckStepAgainstOracle(out["steps"][0], x.window, x.path);
}

TEST(CriticalPathOracle, StepOptionSelectsOneStep) {
  const Expected& x = DlrmExpected();
  RunResult run;
  const json all = RunJson({}, DlrmPaths(), &run);
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  const json ten = RunJson({"--step", "10"}, DlrmPaths(), &run);
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  ASSERT_FALSE(ten.is_discarded()) << run.Describe();
  ASSERT_EQ(ten.at("steps").size(), 1u) << run.Describe();
  EXPECT_EQ(ten["steps"][0], all.at("steps").at(0));
  CheckStepAgainstOracle(ten["steps"][0], x.window, x.path);

  // No ProfilerStep#11 anywhere: no steps, or a usage/input error that names the step.
  const json eleven = RunJson({"--step", "11"}, DlrmPaths(), &run);
  ASSERT_TRUE(run.Clean()) << run.Describe();
  if (run.exit_code == 0) {
    ASSERT_FALSE(eleven.is_discarded()) << run.Describe();
    EXPECT_TRUE(eleven.at("steps").is_array() && eleven["steps"].empty()) << run.Describe();
  } else {
    EXPECT_TRUE(run.exit_code == 2 || run.exit_code == 3) << run.Describe();
    EXPECT_NE(Lower(run.err).find("step"), std::string::npos) << run.Describe();
  }
}

// One rank of a 2-rank job: offsets are 0, collectives cannot be matched. Only the invariants,
// the windows, and the device pieces being the trace's own events.
TEST(CriticalPathOracle, SingleRankNcclStepsKeepTheInvariants) {
  std::vector<Rank> ranks;
  ranks.push_back(ReadRank(kNccl));
  const Rank& r = ranks[0];
  ASSERT_FALSE(r.steps.empty());
  std::set<std::tuple<std::string, int64_t, int64_t>> events;  // name, start, end
  for (const DeviceItem& i : r.items) events.insert({i.name, i.start, i.end});

  RunResult run;
  const json out = RunJson({}, {kNccl.string()}, &run);
  ASSERT_EQ(run.exit_code, 0) << run.Describe();
  ASSERT_FALSE(out.is_discarded()) << run.Describe();
  EXPECT_EQ(out.value("schema", ""), "tensormorph.critical_path/1");
  ASSERT_EQ(out.at("steps").size(), r.steps.size()) << run.Describe();
  size_t k = 0;
  for (const auto& [n, range] : r.steps) {
    const json& step = out["steps"][k++];
    SCOPED_TRACE("ProfilerStep#" + std::to_string(n));
    EXPECT_EQ(step.at("step"), json(n));
    const std::optional<Window> w = StepWindow(ranks, n);
    ASSERT_TRUE(w.has_value());
    EXPECT_EQ(step.at("start_ns").get<int64_t>(), w->start);
    EXPECT_EQ(step.at("end_ns").get<int64_t>(), w->end);
    EXPECT_EQ(step.at("length_ns").get<int64_t>(), w->end - w->start);
    CheckInvariants(step);
    for (const Piece& p : PiecesOf(step)) {
      if (CategoryOf(p.kind) != "compute" && p.kind != "collective_transfer") continue;
      if (p.start == w->start) {  // cut at the step start: an event that ends there
        bool found = false;
        for (const DeviceItem& i : r.items) {
          found = found || (i.name == p.name && i.end == p.end && i.start <= p.start);
        }
        EXPECT_TRUE(found) << Describe(p);
      } else {
        EXPECT_EQ(events.count({p.name, p.start, p.end}), 1u) << Describe(p);
      }
    }
  }
}

}  // namespace TM_UNITY_ID
}  // namespace
