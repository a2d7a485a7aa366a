#include "tensormorph/analysis/whatif/whatif.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <future>
#include <memory>
#include <optional>
#include <thread>

#include "analysis/whatif/replay.h"
#include "analysis/whatif/scenarios.h"
#include "analysis/whatif/step_graph.h"
#include "analysis/whatif/step_windows.h"
#include "tensormorph/analysis/job/collectives.h"

namespace tensormorph {
namespace {

using whatif::GraphEdit;
using whatif::Scenario;
using whatif::StepGraph;
using whatif::StepWindow;

// One group's graph with its no-change replay.
struct Group {
  std::vector<RankWork> works;
  StepGraph graph;
  std::vector<StepWindow> windows;
  whatif::WindowSlots slots;  // the windows' events
  std::vector<int64_t> measured, replayed;
  int input = 0;
};

// One scenario on one group: the events its edit touched and its windows' lengths.
struct ScenarioRun {
  size_t changed = 0;
  std::vector<int64_t> lengths;
};

// `scratch`: the worker's own, made at its first non-empty edit (once per worker rather than once
// per scenario: ReplayWindows leaves it as it found it).
ScenarioRun RunOne(const Group& g, const GraphEdit& edit,
                   std::optional<whatif::ReplayScratch>* scratch) {
  ScenarioRun run;
  run.changed = edit.empty() ? 0 : edit.Changed(g.graph);
  if (edit.empty()) {
    run.lengths = g.replayed;
  } else {
    if (!scratch->has_value()) scratch->emplace(g.graph, g.slots);
    run.lengths = whatif::ReplayWindows(g.windows, edit, &**scratch);
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
    std::optional<whatif::ReplayScratch> scratch;
    for (size_t i = first; i < scenarios.size(); i += workers) {
      const Scenario& s = scenarios[i];
      if (s.accumulator >= 0) continue;
      const GraphEdit edit = s.edit(g.graph);
      if (s.joins >= 0) joined[static_cast<size_t>(s.joins)].Merge(g.graph, edit);
      runs[i] = RunOne(g, edit, &scratch);
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
  std::optional<whatif::ReplayScratch> scratch;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    if (scenarios[i].accumulator >= 0) {
      runs[i] = RunOne(g, joined[static_cast<size_t>(scenarios[i].accumulator)], &scratch);
    }
  }
  return runs;
}

}  // namespace

// The groups and what SimulateWhatIf reports of them before any scenario.
struct WhatIfGraphs {
  std::vector<Group> groups;
  std::optional<CollectivesResult> analysed;
  const CollectivesResult* collectives = nullptr;  // the query's, or `analysed`
  std::vector<WhatIfStep> steps;
  std::vector<std::string> warnings;
};

void SimulateFindings(const std::vector<const LinkedTrace*>& inputs, bool as_job,
                      FindingsResult* findings, const CollectivesResult* collectives,
                      const WhatIfGraphs* graphs) {
  WhatIfQuery query;
  query.found = findings;
  query.as_job = as_job;
  query.collectives = collectives;
  std::shared_ptr<const WhatIfGraphs> built;
  if (graphs == nullptr) {
    built = BuildWhatIfGraphs(inputs, DescribeJob(TracesOf(inputs), as_job), query);
    graphs = built.get();
  }
  AttachWhatIf(RunWhatIf(inputs, *graphs, query), findings);
}

FindingsResult FindSimulatedFindings(const std::vector<const LinkedTrace*>& inputs,
                                     FindingsQuery query, bool simulate) {
  const JobLayout job = DescribeJob(TracesOf(inputs), query.as_job);
  std::optional<CollectivesResult> collectives;
  if (query.collectives == nullptr && job.is_job && job.ranks.size() >= 2) {
    collectives = AnalyzeCollectives(inputs, job, CollectiveOptions{});
    query.collectives = &*collectives;
  }
  // The what-if graphs need no finding: built beside the rules (not with --threads 1).
  std::future<std::shared_ptr<const WhatIfGraphs>> graphs;
  if (simulate) {
    graphs = std::async(query.concurrent ? std::launch::async : std::launch::deferred, [&] {
      WhatIfQuery graph_query;
      graph_query.as_job = query.as_job;
      graph_query.collectives = query.collectives;
      return BuildWhatIfGraphs(inputs, job, graph_query);
    });
  }
  FindingsResult found = FindFindings(inputs, query);
  if (simulate) {
    SimulateFindings(inputs, query.as_job, &found, query.collectives, graphs.get().get());
  }
  return found;
}

double WhatIfScenario::delta_percent() const {
  return measured_ns > 0 ? 100.0 * static_cast<double>(delta_ns()) / measured_ns : 0;
}

const std::vector<std::string>& WhatIfRules() {
  static const std::vector<std::string> rules = [] {
    std::vector<std::string> names;
    for (const whatif::RuleFix& fix : whatif::RuleFixes()) names.emplace_back(fix.rule);
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

std::shared_ptr<const WhatIfGraphs> BuildWhatIfGraphs(const std::vector<const LinkedTrace*>& inputs,
                                                      const JobLayout& job,
                                                      const WhatIfQuery& query) {
  auto built = std::make_shared<WhatIfGraphs>();
  // The groups: a job walked as one (its clocks aligned on its collectives), else each input.
  std::vector<Group>& groups = built->groups;
  std::optional<CollectivesResult>& analysed = built->analysed;
  const CollectivesResult*& collectives = built->collectives;
  collectives = query.collectives;
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
  for (Group& g : groups) {
    g.windows = whatif::WindowsOf(g.graph);
    for (const StepWindow& w : g.windows) g.measured.push_back(whatif::LengthOf(w, g.graph.time));
    g.slots = whatif::SlotsOf(g.graph, g.windows);
    whatif::ReplayScratch scratch(g.graph, g.slots);
    g.replayed = whatif::ReplayWindows(g.windows, GraphEdit{}, &scratch);
    const std::vector<int64_t> unexplained = whatif::UnexplainedPerStep(g.graph, g.windows);
    for (size_t s = 0; s < g.windows.size(); ++s) {
      WhatIfStep& step = built->steps.emplace_back();
      step.input = g.input;
      step.step = g.windows[s].number;
      step.measured_ns = g.measured[s];
      step.replayed_ns = g.replayed[s];
      step.unexplained_ns = unexplained[s];
    }
    const std::string who = job.is_job ? std::string("the job") : fmt::format("input {}", g.input);
    if (g.graph.contradictions > 0) {
      built->warnings.push_back(fmt::format(
          "{}: {} dependencies that the trace's times contradict (an item that starts before "
          "its launch call or before its stream predecessor ends): the replay starts them "
          "after it, which is its error",
          who, g.graph.contradictions));
    }
    if (g.graph.dropped_cycle_edges > 0) {
      built->warnings.push_back(fmt::format(
          "{}: {} dependencies closed a cycle (clocks that disagree across ranks) and were "
          "dropped",
          who, g.graph.dropped_cycle_edges));
    }
  }
  return built;
}

WhatIfResult RunWhatIf(const std::vector<const LinkedTrace*>& inputs, const WhatIfGraphs& graphs,
                       const WhatIfQuery& query) {
  WhatIfResult result;
  result.steps = graphs.steps;
  result.warnings = graphs.warnings;
  const std::vector<Scenario> scenarios = whatif::ScenariosOf(inputs, query, graphs.collectives);
  for (const Scenario& s : scenarios) result.scenarios.push_back(s.out);
  for (const Group& g : graphs.groups) {
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

WhatIfResult SimulateWhatIf(const std::vector<const LinkedTrace*>& inputs, const JobLayout& job,
                            const WhatIfQuery& query) {
  return RunWhatIf(inputs, *BuildWhatIfGraphs(inputs, job, query), query);
}

}  // namespace tensormorph
