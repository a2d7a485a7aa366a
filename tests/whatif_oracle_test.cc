// End-to-end oracle for `tensormorph whatif` (docs/whatif.md) on single-rank Kineto traces: the
// graph and its replay recomputed here from the raw events, and `--speedup` / `--remove-sync`
// scenarios compared step by step, to the nanosecond, with the command's JSON.
//
// Shares no code with src/: each trace is read with nlohmann-json keeping floats as their text
// (support/kineto_events.h), ts/dur converted from decimal µs text to integer ns. Read as the page
// states it:
//   * device items: ph "X", cat "kernel" / "gpu_memcpy" / "gpu_memset"; [ts, ts + dur); device =
//     args.device, else pid; stream = tid; stream order by (device, stream, start, end,
//     memcpy/memset after kernels, row in the file);
//   * host calls: cat "cuda_runtime" / "cuda_driver" on (pid, tid); an item's launch is the call
//     with its args.correlation; a sync call (name holds "Synchronize") waited for the item with
//     the latest end in [start, end] (then the latest start, then the first in stream order); a
//     copy call (cudaMemcpy..., no matter Async) for its own memcpy/memset when that ended in
//     [start, end];
//   * steps: cat "user_annotation" "ProfilerStep#N"; an item belongs to the step whose
//     [start, end] holds its launch call's start; a step's window runs from its start to the
//     latest of its end and the ends of its items;
//   * edges and delays as the page's table: host chain per thread over call starts/ends and step
//     starts/ends in time order (ends of calls with a duration, then starts, then ends of
//     zero-length calls), a blocking end's chain weight min(gap, its return), wait, launch (0),
//     stream (0), other-stream (the latest item of another stream of the device that started
//     before and ended by the start, when it ended after max(launch start, min(predecessor end,
//     start))), duration; delay = time - the latest dependency (0 when negative);
//   * replay per step: the events measured inside the window recomputed as the latest of their
//     dependencies plus their delay (an event with none keeps its time), every other event at its
//     measured time; here by iterating to the fixed point rather than in topological order.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
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

struct Dep {
  size_t from;
  int64_t weight;
};

// The graph: events with their measured time, dependencies and the speedup-able durations.
struct Graph {
  std::vector<int64_t> time;
  std::vector<std::vector<Dep>> deps;
  std::vector<int64_t> delay;
  std::vector<std::optional<size_t>> duration_dep;  // item end: index into deps of its duration
  std::vector<std::optional<size_t>> wait_dep;      // blocking call end: its wait edge
  std::vector<std::string> call_name;               // call end events: the call's name
  size_t Add(int64_t t) {
    time.push_back(t);
    deps.emplace_back();
    duration_dep.emplace_back();
    wait_dep.emplace_back();
    call_name.emplace_back();
    return time.size() - 1;
  }
};

struct Item {
  std::string kind;
  int64_t device = 0, stream = 0, start = 0, end = 0, row = 0;
  std::optional<int64_t> correlation;
  size_t start_event = 0;
};

struct Call {
  std::string name;
  std::pair<int64_t, int64_t> thread;
  int64_t start = 0, end = 0;
  std::optional<int64_t> correlation;
  size_t start_event = 0;
};

struct StepWindow {
  int64_t number = 0;
  std::pair<int64_t, int64_t> thread;
  int64_t start = 0, end = 0;
  size_t start_event = 0;
  std::vector<size_t> ends;  // its end event and its items' end events
  int64_t begin_ns = 0, end_ns = 0;
};

struct Model {
  Graph graph;
  std::vector<StepWindow> steps;
};

std::string Cat(const json& e) {
  return e.contains("cat") && e["cat"].is_string() ? e["cat"].get<std::string>() : "";
}

std::optional<int64_t> Correlation(const json& e) {
  if (!e.contains("args") || !e["args"].contains("correlation")) return std::nullopt;
  const json& c = e["args"]["correlation"];
  return c.is_number_integer() ? std::optional<int64_t>(c.get<int64_t>()) : std::nullopt;
}

int64_t Int(const json& e, const char* key) {
  return e.contains(key) && e[key].is_number_integer() ? e[key].get<int64_t>() : -1;
}

bool IsCopyCall(const std::string& name) {
  for (const char* p :
       {"cudaMemcpy", "cudaMemset", "hipMemcpy", "hipMemset", "cuMemcpy", "cuMemset"}) {
    if (name.rfind(p, 0) == 0) return true;
  }
  return false;
}

Model Build(const fs::path& path) {
  std::string error;
  const json root = tensormorph::testing::ReadTraceExact(path, &error);
  EXPECT_TRUE(error.empty()) << error;
  Model m;
  Graph& g = m.graph;
  std::vector<Item> items;
  std::vector<Call> calls;
  int64_t row = 0;
  for (const json& e : root["traceEvents"]) {
    ++row;
    if (!e.contains("ph") || e["ph"] != "X" || !e.contains("ts") || !e.contains("dur")) continue;
    const std::optional<int64_t> ts = FieldNanos(e["ts"]), dur = FieldNanos(e["dur"]);
    if (!ts || !dur) continue;
    const std::string cat = Cat(e), name = e.value("name", "");
    if (cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset") {
      Item it;
      it.kind = cat == "kernel" ? "kernel" : "copy";
      it.device = e.contains("args") && e["args"].contains("device") &&
                          e["args"]["device"].is_number_integer()
                      ? e["args"]["device"].get<int64_t>()
                      : Int(e, "pid");
      it.stream = Int(e, "tid");
      it.start = *ts;
      it.end = *ts + *dur;
      it.row = row;
      it.correlation = Correlation(e);
      items.push_back(it);
    } else if (cat == "cuda_runtime" || cat == "cuda_driver") {
      calls.push_back({name, {Int(e, "pid"), Int(e, "tid")}, *ts, *ts + *dur, Correlation(e), 0});
    } else if (cat == "user_annotation" && name.rfind("ProfilerStep#", 0) == 0) {
      StepWindow s;
      s.number = std::stoll(name.substr(13));
      s.thread = {Int(e, "pid"), Int(e, "tid")};
      s.start = *ts;
      s.end = *ts + *dur;
      m.steps.push_back(s);
    }
  }
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    const int ka = a.kind == "kernel" ? 0 : 1, kb = b.kind == "kernel" ? 0 : 1;
    return std::tie(a.device, a.stream, a.start, a.end, ka, a.row) <
           std::tie(b.device, b.stream, b.start, b.end, kb, b.row);
  });
  std::sort(m.steps.begin(), m.steps.end(),
            [](const StepWindow& a, const StepWindow& b) { return a.start < b.start; });
  for (Item& it : items) {
    it.start_event = g.Add(it.start);
    g.Add(it.end);
  }
  std::map<int64_t, size_t> call_of;
  for (size_t c = 0; c < calls.size(); ++c) {
    calls[c].start_event = g.Add(calls[c].start);
    const size_t end = g.Add(calls[c].end);
    g.call_name[end] = calls[c].name;
    if (calls[c].correlation) call_of.emplace(*calls[c].correlation, c);
  }
  for (StepWindow& s : m.steps) {
    s.start_event = g.Add(s.start);
    g.Add(s.end);
  }
  // Blocking calls: the item each waited for.
  std::map<size_t, size_t> waited_of_end;  // call end event -> item end event
  for (size_t c = 0; c < calls.size(); ++c) {
    const Call& call = calls[c];
    std::optional<size_t> waited;
    if (call.name.find("Synchronize") != std::string::npos) {
      for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].end < call.start || items[i].end > call.end) continue;
        if (!waited || items[i].end > items[*waited].end ||
            (items[i].end == items[*waited].end && items[i].start > items[*waited].start)) {
          waited = i;
        }
      }
    } else if (IsCopyCall(call.name) && call.correlation) {
      for (size_t i = 0; i < items.size(); ++i) {
        if (items[i].kind == "copy" && items[i].correlation == call.correlation &&
            items[i].end >= call.start && items[i].end <= call.end) {
          waited = i;
        }
      }
    }
    if (waited) waited_of_end[call.start_event + 1] = items[*waited].start_event + 1;
  }
  // Host chains.
  std::map<std::pair<int64_t, int64_t>, std::vector<std::tuple<int64_t, int, size_t>>> chains;
  for (const Call& c : calls) {
    chains[c.thread].emplace_back(c.start, 1, c.start_event);
    chains[c.thread].emplace_back(c.end, c.end > c.start ? 0 : 2, c.start_event + 1);
  }
  for (const StepWindow& s : m.steps) {
    chains[s.thread].emplace_back(s.start, 1, s.start_event);
    chains[s.thread].emplace_back(s.end, s.end > s.start ? 0 : 2, s.start_event + 1);
  }
  for (auto& [thread, points] : chains) {
    std::sort(points.begin(), points.end());
    for (size_t k = 0; k < points.size(); ++k) {
      const size_t e = std::get<2>(points[k]);
      int64_t back = INT64_MAX;
      if (const auto w = waited_of_end.find(e); w != waited_of_end.end()) {
        back = g.time[e] - g.time[w->second];
        g.wait_dep[e] = g.deps[e].size();
        g.deps[e].push_back({w->second, back});
      }
      if (k > 0) {
        const int64_t gap = std::get<0>(points[k]) - std::get<0>(points[k - 1]);
        g.deps[e].push_back({std::get<2>(points[k - 1]), std::min(gap, back)});
      }
    }
  }
  // Device edges.
  for (size_t i = 0; i < items.size(); ++i) {
    const Item& it = items[i];
    const size_t start = it.start_event;
    int64_t released = INT64_MIN;
    if (it.correlation) {
      if (const auto c = call_of.find(*it.correlation); c != call_of.end()) {
        g.deps[start].push_back({calls[c->second].start_event, 0});
        released = calls[c->second].start;
      }
    }
    if (i > 0 && items[i - 1].device == it.device && items[i - 1].stream == it.stream) {
      g.deps[start].push_back({items[i - 1].start_event + 1, 0});
      released = std::max(released, std::min(items[i - 1].end, it.start));
    }
    std::optional<size_t> other;
    for (size_t j = 0; j < items.size(); ++j) {
      const Item& o = items[j];
      if (o.device != it.device || o.stream == it.stream) continue;
      if (o.start >= it.start || o.end > it.start) continue;
      if (!other) {
        other = j;
        continue;
      }
      const Item& b = items[*other];
      // The latest end, then the latest start, then the lowest stream, then the first in order.
      if (std::make_tuple(o.end, o.start, -o.stream) > std::make_tuple(b.end, b.start, -b.stream)) {
        other = j;
      }
    }
    if (other && items[*other].end > released) {
      g.deps[start].push_back({items[*other].start_event + 1, 0});
    }
    g.duration_dep[start + 1] = g.deps[start + 1].size();
    g.deps[start + 1].push_back({start, it.end - it.start});
  }
  g.delay.assign(g.time.size(), 0);
  for (size_t e = 0; e < g.time.size(); ++e) {
    if (g.deps[e].empty()) continue;
    int64_t base = INT64_MIN;
    for (const Dep& d : g.deps[e]) base = std::max(base, g.time[d.from] + d.weight);
    g.delay[e] = std::max<int64_t>(0, g.time[e] - base);
  }
  // Steps: their items (by launch start) and windows.
  for (StepWindow& s : m.steps) s.ends.push_back(s.start_event + 1);
  for (const Item& it : items) {
    int64_t at = it.start;
    if (it.correlation) {
      if (const auto c = call_of.find(*it.correlation); c != call_of.end()) {
        at = calls[c->second].start;
      }
    }
    for (StepWindow& s : m.steps) {
      if (at >= s.start && at <= s.end) {
        s.ends.push_back(it.start_event + 1);
        break;
      }
    }
  }
  for (StepWindow& s : m.steps) {
    s.begin_ns = s.start;
    s.end_ns = INT64_MIN;
    for (size_t e : s.ends) s.end_ns = std::max(s.end_ns, g.time[e]);
  }
  return m;
}

// One step's length with every item's duration divided by `factor` and the waits of the calls
// named `no_wait` dropped.
int64_t ReplayStep(const Graph& g, const StepWindow& s, double factor, const std::string& no_wait) {
  std::vector<int64_t> t = g.time;
  std::vector<size_t> inside;
  for (size_t e = 0; e < g.time.size(); ++e) {
    if (g.time[e] >= s.begin_ns && g.time[e] <= s.end_ns) inside.push_back(e);
  }
  // In measured-time order, most dependencies come first: the fixed point in a few passes.
  std::stable_sort(inside.begin(), inside.end(),
                   [&g](size_t a, size_t b) { return g.time[a] < g.time[b]; });
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t e : inside) {
      int64_t base = INT64_MIN;
      bool any = false;
      for (size_t k = 0; k < g.deps[e].size(); ++k) {
        if (g.wait_dep[e] == k && g.call_name[e] == no_wait) continue;
        int64_t w = g.deps[e][k].weight;
        if (g.duration_dep[e] == k && factor != 1) {
          w = std::llround(static_cast<double>(w) / factor);
        }
        base = std::max(base, t[g.deps[e][k].from] + w);
        any = true;
      }
      const int64_t next = any ? base + g.delay[e] : g.time[e];
      if (next != t[e]) {
        t[e] = next;
        changed = true;
      }
    }
  }
  int64_t end = INT64_MIN;
  for (size_t e : s.ends) end = std::max(end, t[e]);
  return end - t[s.start_event];
}

void ExpectSameAsCommand(const fs::path& path, const std::string& sync_call) {
  const Model m = Build(path);
  ASSERT_FALSE(m.steps.empty()) << path;
  const RunResult run =
      RunTensormorph({"whatif", "--quiet", "--format", "json", "--no-findings", "--speedup",
                      "kernel~=3", "--remove-sync", sync_call, path.string()});
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json doc = json::parse(run.out);
  ASSERT_EQ(doc["steps"].size(), m.steps.size());
  std::map<std::string, const json*> scenario;
  for (const json& s : doc["scenarios"]) scenario[s["name"].get<std::string>()] = &s;
  ASSERT_TRUE(scenario.count("kernel~=3") && scenario.count("remove sync " + sync_call));
  for (size_t k = 0; k < m.steps.size(); ++k) {
    const StepWindow& s = m.steps[k];
    const int64_t measured = s.end_ns - s.begin_ns;
    EXPECT_EQ(doc["steps"][k]["step"].get<int64_t>(), s.number);
    EXPECT_EQ(doc["steps"][k]["measured_ns"].get<int64_t>(), measured);
    const int64_t base = ReplayStep(m.graph, s, 1, "");
    EXPECT_EQ(doc["steps"][k]["replayed_ns"].get<int64_t>(), base) << "step " << s.number;
    const int64_t faster = ReplayStep(m.graph, s, 3, "");
    EXPECT_EQ((*scenario["kernel~=3"])["steps"][k]["simulated_ns"].get<int64_t>(),
              measured + (faster - base))
        << "step " << s.number;
    const int64_t unsynced = ReplayStep(m.graph, s, 1, sync_call);
    EXPECT_EQ((*scenario["remove sync " + sync_call])["steps"][k]["simulated_ns"].get<int64_t>(),
              measured + (unsynced - base))
        << "step " << s.number;
  }
  // The scenarios do something here: the speedup shortens at least one step.
  EXPECT_LT((*scenario["kernel~=3"])["simulated_ns"].get<int64_t>(),
            (*scenario["kernel~=3"])["measured_ns"].get<int64_t>());
}

// HTA's trace_diff control trace: six ProfilerSteps on one GPU.
TEST(WhatIfOracle, HtaTraceDiffControl) {
  ExpectSameAsCommand(fs::path(TM_SHARED_DATA) / "kineto/hta/trace_diff/control.json.gz",
                      "cudaStreamSynchronize");
}

// The H100 Qwen inference: one step, GPU-bound.
TEST(WhatIfOracle, QwenH100) {
  ExpectSameAsCommand(
      fs::path(TM_SHARED_DATA) / "kineto/tracelens_pairs/h100_qwen1.5-0.5b_inference.json.gz",
      "cudaStreamSynchronize");
}

// Every file of the shared data: `whatif` either refuses it with a message naming the file (not a
// trace, unreadable) or replays every step within 0.1 % of the measured one, and neither its
// findings' fixes nor a speedup of every device item lengthens a step. Never a crash, a hang or
// an internal error.
TEST(WhatIfOracle, EverySharedFile) {
  size_t replayed = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(TM_SHARED_DATA))) {
    if (!entry.is_regular_file()) continue;
    const RunResult run = RunTensormorph(
        {"whatif", "--quiet", "--format", "json", "--speedup", "kernel~=2", entry.path().string()});
    ASSERT_FALSE(run.crashed || run.timed_out) << entry.path();
    if (run.exit_code != 0) {
      EXPECT_EQ(run.err.find("internal error"), std::string::npos) << entry.path() << run.err;
      EXPECT_NE(run.err.find(entry.path().filename().string()), std::string::npos)
          << entry.path() << ": " << run.err;
      continue;
    }
    const json doc = json::parse(run.out);
    for (const json& step : doc["steps"]) {
      const int64_t measured = step["measured_ns"], replayed_ns = step["replayed_ns"];
      EXPECT_LE(std::abs(static_cast<double>(replayed_ns - measured)),
                0.001 * static_cast<double>(measured))
          << entry.path();
    }
    for (const json& scenario : doc["scenarios"]) {  // the findings' fixes and the speedup
      for (const json& step : scenario["steps"]) {
        EXPECT_LE(step["simulated_ns"].get<int64_t>(), step["measured_ns"].get<int64_t>())
            << entry.path() << " " << scenario["name"];
      }
    }
    if (!doc["steps"].empty()) ++replayed;
  }
  EXPECT_GE(replayed, 70u);  // the files with device work (docs/whatif.md's table)
}

}  // namespace TM_UNITY_ID
}  // namespace
