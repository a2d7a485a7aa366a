#include "analysis/whatif/scenarios.h"

#include <fmt/format.h>

#include <optional>

#include "analysis/whatif/edits.h"

namespace tensormorph::whatif {
namespace {

// The edit of a finding's fix on its input's ranks; none for a rule without one.
std::function<GraphEdit(const StepGraph&)> FindingEdit(const Finding& f) {
  const int input = f.where.input;
  if (f.rule == "host_launch_gaps") {
    return [input](const StepGraph& g) { return GraphLaunchEdit(g, input); };
  }
  if (f.rule == "launch_bound_kernels") {
    return [input](const StepGraph& g) { return LaunchBoundEdit(g, input); };
  }
  if (f.rule == "synchronization") {
    return [input](const StepGraph& g) { return SynchronizationEdit(g, input); };
  }
  if (f.rule == "blocking_copies") {
    return [input](const StepGraph& g) { return BlockingCopiesEdit(g, input); };
  }
  if (f.rule == "exposed_communication") {
    return [input](const StepGraph& g) { return ExposedCommunicationEdit(g, input); };
  }
  if (f.rule == "stragglers") {
    return [input](const StepGraph& g) { return StragglerEdit(g, input); };
  }
  if (f.rule == "below_roof" || f.rule == "fp32_matmul" || f.rule == "slow_copies") {
    return [input, speedups = f.speedups](const StepGraph& g) {
      return WorkSpeedupEdit(g, input, speedups);
    };
  }
  return nullptr;
}

}  // namespace

const std::vector<RuleFix>& RuleFixes() {
  static const std::vector<RuleFix> fixes = {
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
  return fixes;
}

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
      for (const RuleFix& fix : RuleFixes()) {
        if (f.rule == fix.rule) s.out.description = fix.description;
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
         [](const StepGraph& g) { return GraphLaunchEdit(g, -1); });
  }
  for (const std::string& call : query.remove_syncs) {
    user("remove sync " + call, call + " no longer waits for the device",
         [call](const StepGraph& g) { return RemoveSyncEdit(g, call); });
  }
  for (const WhatIfSpeedup& speedup : query.speedups) {
    user(fmt::format("{}={:g}", speedup.pattern, speedup.factor),
         fmt::format("{} {:g}x faster", speedup.pattern, speedup.factor),
         [speedup](const StepGraph& g) { return SpeedupEdit(g, speedup); })
        .joins = kAllSpeedups;
  }
  if (query.speedups.size() > 1) {
    user("all speedups", "every --speedup at once", nullptr).accumulator = kAllSpeedups;
  }
  return out;
}

}  // namespace tensormorph::whatif
