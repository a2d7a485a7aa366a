#include "tensormorph/analysis/whatif/whatif.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <climits>
#include <functional>
#include <future>
#include <map>
#include <thread>

#include "analysis/whatif/edits.h"
#include "analysis/whatif/replay.h"
#include "analysis/whatif/step_graph.h"
#include "tensormorph/analysis/job/collectives.h"

namespace tensormorph {
namespace {

using whatif::GraphEdit;
using whatif::StepGraph;

// One step of a group of ranks (a ProfilerStep number every rank has, or the whole trace when
// they share none) and the events its replay recomputes: those measured inside its window,
// critical-path's (from the first rank's step start to the latest end of a rank's step or of the
// device work launched in it).
struct StepWindow {
  std::optional<int64_t> number;
  std::vector<int32_t> index;        // per rank: its steps() index (none for the whole trace)
  std::vector<uint32_t> begins;      // events whose earliest is the window's start
  std::vector<uint32_t> ends;        // events whose latest is its end
  int64_t begin_ns = 0, end_ns = 0;  // measured
  std::vector<uint32_t> events;      // in topological order
};

std::vector<StepWindow> WindowsOf(const StepGraph& graph) {
  std::vector<std::map<int64_t, int32_t>> index_of(graph.ranks.size());
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    const std::vector<Step>& steps = graph.ranks[r].work->linked().steps();
    for (size_t i = 0; i < steps.size(); ++i) {
      index_of[r].try_emplace(steps[i].number, static_cast<int32_t>(i));
    }
  }
  std::vector<StepWindow> out;
  // Per rank, per steps() index: the window it belongs to.
  std::vector<std::map<int32_t, size_t>> window_of(graph.ranks.size());
  for (const auto& [number, unused] : index_of[0]) {
    std::vector<int32_t> index;
    for (const auto& numbers : index_of) {
      const auto it = numbers.find(number);
      if (it == numbers.end()) break;
      index.push_back(it->second);
    }
    if (index.size() != index_of.size()) continue;
    StepWindow& w = out.emplace_back();
    w.number = number;
    for (size_t r = 0; r < index.size(); ++r) {
      const uint32_t start = graph.StepStart(r, static_cast<size_t>(index[r]));
      w.begins.push_back(start);
      w.ends.push_back(start + 1);
      window_of[r][index[r]] = out.size() - 1;
    }
    w.index = std::move(index);
  }
  int64_t whole_begin = INT64_MAX;  // the whole trace's: its first item's or outermost op's start
  if (out.empty()) {
    StepWindow& w = out.emplace_back();
    for (size_t r = 0; r < graph.ranks.size(); ++r) {
      const RankWork& work = *graph.ranks[r].work;
      const int64_t offset = graph.ranks[r].offset_ns;
      for (uint32_t i = 0; i < work.items().size(); ++i) {
        whole_begin = std::min(whole_begin, graph.time[graph.ItemStart(r, i)]);
        w.ends.push_back(graph.ItemStart(r, i) + 1);
      }
      for (const auto& [track, ops] : work.OutermostOpsByTrack()) {
        if (ops.empty()) continue;
        whole_begin = std::min(whole_begin, work.trace().slices[ops.front()].start_ns - offset);
      }
    }
  } else {
    for (size_t r = 0; r < graph.ranks.size(); ++r) {
      const std::vector<PathItem>& items = graph.ranks[r].work->items();
      for (uint32_t i = 0; i < items.size(); ++i) {
        const auto it = window_of[r].find(items[i].step);
        if (it != window_of[r].end()) out[it->second].ends.push_back(graph.ItemStart(r, i) + 1);
      }
    }
  }
  for (StepWindow& w : out) {
    w.begin_ns = w.begins.empty() ? whole_begin : INT64_MAX;
    w.end_ns = INT64_MIN;
    for (uint32_t e : w.begins) w.begin_ns = std::min(w.begin_ns, graph.time[e]);
    for (uint32_t e : w.ends) w.end_ns = std::max(w.end_ns, graph.time[e]);
  }
  // Each event into the windows that hold its measured time (windows of one job may overlap
  // where a rank's device work runs past the next step's start).
  std::vector<size_t> by_begin(out.size());
  for (size_t k = 0; k < out.size(); ++k) by_begin[k] = k;
  std::sort(by_begin.begin(), by_begin.end(),
            [&out](size_t a, size_t b) { return out[a].begin_ns < out[b].begin_ns; });
  std::vector<int64_t> max_end(out.size());  // the latest end among the first k by begin
  for (size_t k = 0; k < by_begin.size(); ++k) {
    max_end[k] = std::max(k > 0 ? max_end[k - 1] : INT64_MIN, out[by_begin[k]].end_ns);
  }
  for (const uint32_t e : graph.order) {
    const int64_t t = graph.time[e];
    auto it = std::upper_bound(by_begin.begin(), by_begin.end(), t,
                               [&out](int64_t v, size_t k) { return v < out[k].begin_ns; });
    for (size_t k = static_cast<size_t>(it - by_begin.begin()); k-- > 0 && max_end[k] >= t;) {
      StepWindow& w = out[by_begin[k]];
      if (t <= w.end_ns) w.events.push_back(e);
    }
  }
  return out;
}

// A window's length under the event times `t`.
int64_t LengthOf(const StepWindow& w, const std::vector<int64_t>& t) {
  // The whole trace begins where it was measured to: nothing before it moves.
  int64_t begin = w.begins.empty() ? w.begin_ns : INT64_MAX, end = INT64_MIN;
  for (uint32_t e : w.begins) begin = std::min(begin, t[e]);
  for (uint32_t e : w.ends) end = std::max(end, t[e]);
  return end > begin ? end - begin : 0;
}

// Each window's length replayed under `edit`; `scratch` holds the measured times on entry and
// on return.
std::vector<int64_t> ReplayWindows(const StepGraph& graph, const std::vector<StepWindow>& windows,
                                   const GraphEdit& edit, std::vector<int64_t>* scratch) {
  std::vector<int64_t> lengths;
  for (const StepWindow& w : windows) {
    whatif::ReplayEvents(graph, edit, w.events, scratch);
    lengths.push_back(LengthOf(w, *scratch));
    for (uint32_t e : w.events) (*scratch)[e] = graph.time[e];
  }
  return lengths;
}

// Per step: the device start delays beyond the median delay of their (rank, device, releasing
// edge kind), the time no recorded dependency explains.
std::vector<int64_t> UnexplainedPerStep(const StepGraph& graph,
                                        const std::vector<StepWindow>& windows) {
  struct Key {
    size_t rank;
    uint32_t device;
    whatif::EdgeKind kind;
    bool operator<(const Key& o) const {
      return std::tie(rank, device, kind) < std::tie(o.rank, o.device, o.kind);
    }
  };
  std::map<Key, std::vector<int64_t>> delays;
  std::vector<std::pair<Key, uint32_t>> keyed;  // (key, item start event)
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    const std::vector<PathItem>& items = graph.ranks[r].work->items();
    for (uint32_t i = 0; i < items.size(); ++i) {
      const uint32_t start = graph.ItemStart(r, i);
      const std::optional<whatif::EdgeKind> kind = whatif::ReleasingEdge(graph, start);
      if (!kind) continue;  // released by nothing recorded: not a delay
      const Key key{r, items[i].device, *kind};
      delays[key].push_back(graph.delay[start]);
      keyed.emplace_back(key, start);
    }
  }
  std::map<Key, int64_t> median;
  for (auto& [key, values] : delays) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    median[key] = values[values.size() / 2];
  }
  // Which step each item belongs to: its rank's steps() index -> position in `windows`.
  std::vector<std::map<int32_t, size_t>> position(graph.ranks.size());
  for (size_t s = 0; s < windows.size(); ++s) {
    for (size_t r = 0; r < windows[s].index.size(); ++r) position[r][windows[s].index[r]] = s;
  }
  const bool whole = !windows.front().number;
  std::vector<int64_t> out(windows.size(), 0);
  for (const auto& [key, start] : keyed) {
    const int64_t excess = graph.delay[start] - median[key];
    if (excess <= 0) continue;
    if (whole) {
      out[0] += excess;
      continue;
    }
    const uint32_t item = (start - graph.ranks[key.rank].first_item) / 2;
    const int32_t s = graph.ranks[key.rank].work->items()[item].step;
    const auto it = position[key.rank].find(s);
    if (it != position[key.rank].end()) out[it->second] += excess;
  }
  return out;
}

// A scenario and how to make its edit on one group's graph.
// A scenario and how to make its edit on one group's graph. A scenario that joins others
// ("all findings", "all speedups") has no edit of its own: it is the merge of the edits of the
// scenarios before it that name it in `joins`, made once each.
struct Scenario {
  WhatIfScenario out;  // its name, kind, rule, description, finding
  std::function<GraphEdit(const StepGraph&)> edit;
  int joins = -1;        // the joined scenario this one's edit goes into (its accumulator)
  int accumulator = -1;  // for a joined scenario: the accumulator it replays
};
constexpr int kAllFindings = 0, kAllSpeedups = 1;

// One group's graph with its no-change replay.
struct Group {
  std::vector<RankWork> works;
  StepGraph graph;
  std::vector<StepWindow> windows;
  std::vector<int64_t> measured, replayed;
  int input = 0;
};

// The edit of a finding's fix on its input's ranks; none for a rule without one.
std::function<GraphEdit(const StepGraph&)> FindingEdit(const Finding& f) {
  const int input = f.where.input;
  if (f.rule == "host_launch_gaps") {
    return [input](const StepGraph& g) { return whatif::GraphLaunchEdit(g, input); };
  }
  if (f.rule == "launch_bound_kernels") {
    return [input](const StepGraph& g) { return whatif::LaunchBoundEdit(g, input); };
  }
  if (f.rule == "synchronization") {
    return [input](const StepGraph& g) { return whatif::SynchronizationEdit(g, input); };
  }
  if (f.rule == "blocking_copies") {
    return [input](const StepGraph& g) { return whatif::BlockingCopiesEdit(g, input); };
  }
  if (f.rule == "exposed_communication") {
    return [input](const StepGraph& g) { return whatif::ExposedCommunicationEdit(g, input); };
  }
  if (f.rule == "stragglers") {
    return [input](const StepGraph& g) { return whatif::StragglerEdit(g, input); };
  }
  if (!f.speedups.empty()) {
    return [input, speedups = f.speedups](const StepGraph& g) {
      return whatif::WorkSpeedupEdit(g, input, speedups);
    };
  }
  return nullptr;
}

const char* const kFixes[][2] = {
    {"host_launch_gaps",
     "its steps launched as graphs: each item released by its step's first launch, the host "
     "time between the first and last launch gone"},
    {"launch_bound_kernels", "kernels shorter than their launch call launched in a graph"},
    {"synchronization", "no synchronising call waits for the device"},
    {"blocking_copies", "blocking copies made asynchronous from pinned memory"},
    {"below_roof", "its ops at the attainable fraction of their roof"},
    {"fp32_matmul", "its FP32 matrix ops on the tensor-core roof"},
    {"slow_copies", "its copies at the attainable share of their link's peak"},
    {"exposed_communication",
     "the computation overlaps the communication: no kernel waits for a collective before it"},
    {"stragglers", "the late rank arrives with the others: no rank waits for it"},
};

std::vector<Scenario> ScenariosOf(const std::vector<const LinkedTrace*>& inputs,
                                  const WhatIfQuery& query, const CollectivesResult* collectives) {
  std::vector<Scenario> out;
  if (query.findings) {
    std::optional<FindingsResult> computed;
    if (query.found == nullptr) {
      FindingsQuery findings_query;
      findings_query.as_job = query.as_job;
      // The timeline's ranks read the collectives with aligned clocks.
      if (query.align_clocks) findings_query.collectives = collectives;
      computed = FindFindings(inputs, findings_query);
    }
    const FindingsResult& found = query.found != nullptr ? *query.found : *computed;
    bool any = false;
    for (size_t i = 0; i < found.findings.size(); ++i) {
      const Finding& f = found.findings[i];
      std::function<GraphEdit(const StepGraph&)> edit = FindingEdit(f);
      if (!edit) continue;
      Scenario& s = out.emplace_back();
      s.out.name = f.rule;
      if (inputs.size() > 1) s.out.name += fmt::format(" input {}", f.where.input);
      if (!f.where.device.empty()) s.out.name += " " + f.where.device;
      s.out.kind = "finding";
      s.out.rule = f.rule;
      s.out.finding = i;
      for (const auto& [rule, what] : kFixes) {
        if (f.rule == rule) s.out.description = what;
      }
      s.edit = std::move(edit);
      s.joins = kAllFindings;
      any = true;
    }
    if (any) {
      Scenario& s = out.emplace_back();
      s.out.name = "all findings";
      s.out.kind = "all";
      s.out.description = "every finding's fix above at once";
      s.accumulator = kAllFindings;
    }
  }
  auto user = [&out](std::string name, std::string description,
                     std::function<GraphEdit(const StepGraph&)> edit) -> Scenario& {
    Scenario& s = out.emplace_back();
    s.out.name = std::move(name);
    s.out.kind = "user";
    s.out.description = std::move(description);
    s.edit = std::move(edit);
    return s;
  };
  if (query.no_host_gaps) {
    user("no host gaps", "each step's kernels launched as one graph",
         [](const StepGraph& g) { return whatif::GraphLaunchEdit(g, -1); });
  }
  for (const std::string& call : query.remove_syncs) {
    user("remove sync " + call, call + " no longer waits for the device",
         [call](const StepGraph& g) { return whatif::RemoveSyncEdit(g, call); });
  }
  for (const WhatIfSpeedup& speedup : query.speedups) {
    user(fmt::format("{}={:g}", speedup.pattern, speedup.factor),
         fmt::format("{} {:g}x faster", speedup.pattern, speedup.factor),
         [speedup](const StepGraph& g) { return whatif::SpeedupEdit(g, speedup); })
        .joins = kAllSpeedups;
  }
  if (query.speedups.size() > 1) {
    user("all speedups", "every --speedup at once", nullptr).accumulator = kAllSpeedups;
  }
  return out;
}

// One scenario on one group: the events its edit touched and its windows' lengths.
struct ScenarioRun {
  size_t changed = 0;
  std::vector<int64_t> lengths;
};

ScenarioRun RunOne(const Group& g, const GraphEdit& edit) {
  ScenarioRun run;
  run.changed = edit.empty() ? 0 : edit.Changed(g.graph);
  if (edit.empty()) {
    run.lengths = g.replayed;
  } else {
    std::vector<int64_t> scratch = g.graph.time;
    run.lengths = ReplayWindows(g.graph, g.windows, edit, &scratch);
  }
  return run;
}

// Every scenario on group `g`: the ones with their own edit split over the workers (each worker
// merging the edits it made into its own joined edits), then the joined scenarios from the
// workers' joined edits merged. The result is the same on any number of workers.
std::vector<ScenarioRun> RunScenarios(const Group& g, const std::vector<Scenario>& scenarios,
                                      bool concurrent) {
  std::vector<ScenarioRun> runs(scenarios.size());
  const size_t workers =
      concurrent ? std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8) : 1;
  auto work = [&](size_t first) {
    std::array<GraphEdit, 2> joined;  // kAllFindings, kAllSpeedups
    for (size_t i = first; i < scenarios.size(); i += workers) {
      const Scenario& s = scenarios[i];
      if (s.accumulator >= 0) continue;
      const GraphEdit edit = s.edit(g.graph);
      if (s.joins >= 0) joined[static_cast<size_t>(s.joins)].Merge(g.graph, edit);
      runs[i] = RunOne(g, edit);
    }
    return joined;
  };
  std::vector<std::future<std::array<GraphEdit, 2>>> others;
  for (size_t w = 1; w < workers; ++w) others.push_back(std::async(std::launch::async, work, w));
  std::array<GraphEdit, 2> joined = work(0);
  for (auto& other : others) {
    const std::array<GraphEdit, 2> theirs = other.get();
    for (size_t j = 0; j < joined.size(); ++j) joined[j].Merge(g.graph, theirs[j]);
  }
  for (size_t i = 0; i < scenarios.size(); ++i) {
    if (scenarios[i].accumulator >= 0) {
      runs[i] = RunOne(g, joined[static_cast<size_t>(scenarios[i].accumulator)]);
    }
  }
  return runs;
}

}  // namespace

void SimulateFindings(const std::vector<const LinkedTrace*>& inputs, bool as_job,
                      FindingsResult* findings, const CollectivesResult* collectives) {
  WhatIfQuery query;
  query.found = findings;
  query.as_job = as_job;
  query.collectives = collectives;
  const WhatIfResult whatif = SimulateWhatIf(inputs, DescribeJob(TracesOf(inputs), as_job), query);
  AttachWhatIf(whatif, findings);
}

FindingsResult FindSimulatedFindings(const std::vector<const LinkedTrace*>& inputs,
                                     FindingsQuery query, bool simulate) {
  std::optional<CollectivesResult> collectives;
  if (query.collectives == nullptr) {
    const JobLayout job = DescribeJob(TracesOf(inputs), query.as_job);
    if (job.is_job && job.ranks.size() >= 2) {
      collectives = AnalyzeCollectives(inputs, job, CollectiveOptions{});
      query.collectives = &*collectives;
    }
  }
  FindingsResult found = FindFindings(inputs, query);
  if (simulate) SimulateFindings(inputs, query.as_job, &found, query.collectives);
  return found;
}

double WhatIfScenario::delta_percent() const {
  return measured_ns > 0 ? 100.0 * static_cast<double>(delta_ns()) / measured_ns : 0;
}

const std::vector<std::string>& WhatIfRules() {
  static const std::vector<std::string> rules = [] {
    std::vector<std::string> names;
    for (const auto& [rule, what] : kFixes) names.emplace_back(rule);
    return names;
  }();
  return rules;
}

void AttachWhatIf(const WhatIfResult& whatif, FindingsResult* findings) {
  for (const WhatIfScenario& s : whatif.scenarios) {
    if (!s.finding || *s.finding >= findings->findings.size()) continue;
    Finding& f = findings->findings[*s.finding];
    f.simulated_step_ns = s.simulated_ns;
    f.simulated_gain_ns = s.measured_ns - s.simulated_ns;
  }
  std::stable_sort(findings->findings.begin(), findings->findings.end(),
                   [](const Finding& a, const Finding& b) {
                     return a.simulated_gain_ns.value_or(a.estimated_gain_ns) >
                            b.simulated_gain_ns.value_or(b.estimated_gain_ns);
                   });
}

WhatIfResult SimulateWhatIf(const std::vector<const LinkedTrace*>& inputs, const JobLayout& job,
                            const WhatIfQuery& query) {
  WhatIfResult result;
  // The groups: a job walked as one (its clocks aligned on its collectives), else each input.
  std::vector<Group> groups;
  std::optional<CollectivesResult> analysed;
  const CollectivesResult* collectives = query.collectives;
  if (job.is_job) {
    // One rank of a job alone: no collective can be matched, its clock is its own.
    CollectiveOptions options;
    options.align_clocks = query.align_clocks;
    if (job.ranks.size() >= 2 && collectives == nullptr) {
      analysed = AnalyzeCollectives(inputs, job, options);
      collectives = &*analysed;
    }
    Group& g = groups.emplace_back();
    g.works.reserve(job.ranks.size());
    std::vector<whatif::GraphRank> ranks;
    for (size_t r = 0; r < job.ranks.size(); ++r) {
      g.works.emplace_back(*inputs[job.ranks[r].input], job.ranks[r]);
      whatif::GraphRank& rank = ranks.emplace_back();
      rank.input = job.ranks[r].input;
      rank.label = job.ranks[r].rank;
      rank.offset_ns = collectives != nullptr ? collectives->clocks[r].offset_ns : 0;
    }
    for (size_t r = 0; r < ranks.size(); ++r) ranks[r].work = &g.works[r];
    g.input = job.ranks.front().input;
    g.graph = whatif::BuildStepGraph(std::move(ranks),
                                     collectives != nullptr ? &collectives->collectives : nullptr);
  } else {
    groups.resize(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      Group& g = groups[i];
      JobRank alone;
      alone.input = static_cast<int>(i);
      g.works.emplace_back(*inputs[i], alone);
      std::vector<whatif::GraphRank> ranks(1);
      ranks[0].work = &g.works[0];
      ranks[0].input = alone.input;
      g.input = alone.input;
      g.graph = whatif::BuildStepGraph(std::move(ranks), nullptr);
    }
  }
  std::vector<int64_t> scratch;  // measured times between replays
  for (Group& g : groups) {
    g.windows = WindowsOf(g.graph);
    scratch = g.graph.time;
    for (const StepWindow& w : g.windows) g.measured.push_back(LengthOf(w, g.graph.time));
    g.replayed = ReplayWindows(g.graph, g.windows, GraphEdit{}, &scratch);
    const std::vector<int64_t> unexplained = UnexplainedPerStep(g.graph, g.windows);
    for (size_t s = 0; s < g.windows.size(); ++s) {
      WhatIfStep& step = result.steps.emplace_back();
      step.input = g.input;
      step.step = g.windows[s].number;
      step.measured_ns = g.measured[s];
      step.replayed_ns = g.replayed[s];
      step.unexplained_ns = unexplained[s];
    }
    const std::string who = job.is_job ? std::string("the job") : fmt::format("input {}", g.input);
    if (g.graph.contradictions > 0) {
      result.warnings.push_back(fmt::format(
          "{}: {} dependencies that the trace's times contradict (an item that starts before "
          "its launch call or before its stream predecessor ends): the replay starts them "
          "after it, which is its error",
          who, g.graph.contradictions));
    }
    if (g.graph.dropped_cycle_edges > 0) {
      result.warnings.push_back(fmt::format(
          "{}: {} dependencies closed a cycle (clocks that disagree across ranks) and were "
          "dropped",
          who, g.graph.dropped_cycle_edges));
    }
  }
  const std::vector<Scenario> scenarios = ScenariosOf(inputs, query, collectives);
  for (const Scenario& s : scenarios) result.scenarios.push_back(s.out);
  for (const Group& g : groups) {
    std::vector<ScenarioRun> runs = RunScenarios(g, scenarios, query.concurrent);
    for (size_t i = 0; i < scenarios.size(); ++i) {
      WhatIfScenario& out = result.scenarios[i];
      out.changed_events += runs[i].changed;
      for (size_t k = 0; k < runs[i].lengths.size(); ++k) {
        WhatIfScenarioStep& step = out.steps.emplace_back();
        step.input = g.input;
        step.step = g.windows[k].number;
        step.measured_ns = g.measured[k];
        step.simulated_ns = g.measured[k] + (runs[i].lengths[k] - g.replayed[k]);
        out.measured_ns += step.measured_ns;
        out.simulated_ns += step.simulated_ns;
      }
    }
  }
  return result;
}

}  // namespace tensormorph
