// The scenarios of `whatif` (docs/whatif.md "Fixes as edits"): one per finding whose rule has a
// mechanical fix (on the finding's own input), "all findings", and the user's (--no-host-gaps,
// --remove-sync, --speedup, "all speedups"), each with the function that makes its edit on a
// group's graph.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "analysis/whatif/replay.h"
#include "tensormorph/analysis/whatif/whatif.h"

namespace tensormorph::whatif {

// The accumulators of the joined scenarios.
inline constexpr int kAllFindings = 0, kAllSpeedups = 1;

// A scenario that joins others ("all findings", "all speedups") has no edit of its own: it is the
// merge of the edits of the scenarios before it that name its accumulator in `joins`, each made
// once.
struct Scenario {
  WhatIfScenario out;  // its name, kind, rule, description, finding
  std::function<GraphEdit(const StepGraph&)> edit;
  int joins = -1;        // the accumulator this one's edit goes into
  int accumulator = -1;  // for a joined scenario: the accumulator it replays
};

// The findings rules whose fix `whatif` applies, each with what its fix changes.
struct RuleFix {
  const char* rule;
  const char* description;
};
const std::vector<RuleFix>& RuleFixes();

// The scenarios of `query` over `inputs`; the findings are query.found, or FindFindings with the
// query's as_job (and `collectives`, when the clocks are aligned).
std::vector<Scenario> ScenariosOf(const std::vector<const LinkedTrace*>& inputs,
                                  const WhatIfQuery& query, const CollectivesResult* collectives);

}  // namespace tensormorph::whatif
