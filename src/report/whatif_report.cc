#include "report/whatif_report.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdlib>

#include "model/time.h"
#include "report/collectives_report.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

std::string Duration(int64_t ns) {
  return FormatDuration(static_cast<double>(ns));
}

std::string Signed(int64_t ns) {
  return ns < 0 ? "-" + Duration(-ns) : "+" + Duration(ns);
}

std::string StepText(const std::optional<int64_t>& step) {
  return step ? std::to_string(*step) : std::string("-");
}

double ErrorPercent(const WhatIfStep& s) {
  return s.measured_ns > 0
             ? 100.0 * static_cast<double>(s.replayed_ns - s.measured_ns) / s.measured_ns
             : 0;
}

Json ScenarioStepsJson(const std::vector<const Trace*>& traces, const WhatIfScenario& s) {
  Json steps = Json::array();
  for (const WhatIfScenarioStep& k : s.steps) {
    steps.push_back({{"input", InputPathOf(traces, k.input)},
                     {"step", OrNull(k.step)},
                     {"measured_ns", k.measured_ns},
                     {"simulated_ns", k.simulated_ns},
                     {"delta_ns", k.simulated_ns - k.measured_ns}});
  }
  return steps;
}

void RenderCsv(std::ostream& out, const std::vector<const Trace*>& traces,
               const WhatIfResult& result) {
  WriteCsvRow(out, {"scenario", "kind", "rule", "input", "step", "measured_ns", "simulated_ns",
                    "delta_ns"});
  for (const WhatIfStep& s : result.steps) {
    WriteCsvRow(out,
                {"(no change)", "replay", "", InputPathOf(traces, s.input),
                 s.step ? std::to_string(*s.step) : "", std::to_string(s.measured_ns),
                 std::to_string(s.replayed_ns), std::to_string(s.replayed_ns - s.measured_ns)});
  }
  for (const WhatIfScenario& sc : result.scenarios) {
    for (const WhatIfScenarioStep& k : sc.steps) {
      WriteCsvRow(out,
                  {sc.name, sc.kind, sc.rule, InputPathOf(traces, k.input),
                   k.step ? std::to_string(*k.step) : "", std::to_string(k.measured_ns),
                   std::to_string(k.simulated_ns), std::to_string(k.simulated_ns - k.measured_ns)});
    }
  }
}

void RenderTable(std::ostream& out, const std::vector<const Trace*>& traces,
                 const WhatIfResult& result) {
  out << "replay with no change (the graph reproduces each step; unexplained: device start "
         "delays no recorded dependency explains)\n";
  TextTable replay;
  replay.AddColumn("  Input", TextTable::Align::kRight);
  replay.AddColumn("Step", TextTable::Align::kRight);
  replay.AddColumn("Measured", TextTable::Align::kRight);
  replay.AddColumn("Replayed", TextTable::Align::kRight);
  replay.AddColumn("Error %", TextTable::Align::kRight);
  replay.AddColumn("Unexplained", TextTable::Align::kRight);
  for (const WhatIfStep& s : result.steps) {
    replay.AddRow({std::to_string(s.input), StepText(s.step), Duration(s.measured_ns),
                   Duration(s.replayed_ns), fmt::format("{:.2f}", ErrorPercent(s)),
                   Duration(s.unexplained_ns)});
  }
  replay.Print(out);
  out << "\nscenarios (steps summed; simulated = measured + the change in the replay)\n";
  TextTable table;
  table.AddColumn("  Scenario", TextTable::Align::kLeft);
  table.AddColumn("Kind", TextTable::Align::kLeft);
  table.AddColumn("Measured", TextTable::Align::kRight);
  table.AddColumn("Simulated", TextTable::Align::kRight);
  table.AddColumn("Change", TextTable::Align::kRight);
  table.AddColumn("%", TextTable::Align::kRight);
  table.AddColumn("What changes", TextTable::Align::kLeft, 70);
  for (const WhatIfScenario& s : result.scenarios) {
    table.AddRow({"  " + s.name, s.kind, Duration(s.measured_ns), Duration(s.simulated_ns),
                  Signed(s.delta_ns()), fmt::format("{:.1f}", s.delta_percent()),
                  s.changed_events == 0 ? "nothing to change in this trace" : s.description});
  }
  table.Print(out);
  for (size_t i = 0; i < traces.size(); ++i) {
    out << fmt::format("{}input {}: {}\n", i == 0 ? "\n" : "", i, traces[i]->path);
  }
}

}  // namespace

Json WhatIfJson(const std::vector<const Trace*>& traces, const WhatIfResult& result) {
  Json steps = Json::array();
  for (const WhatIfStep& s : result.steps) {
    steps.push_back({{"input", InputPathOf(traces, s.input)},
                     {"step", OrNull(s.step)},
                     {"measured_ns", s.measured_ns},
                     {"replayed_ns", s.replayed_ns},
                     {"unexplained_ns", s.unexplained_ns}});
  }
  Json scenarios = Json::array();
  for (const WhatIfScenario& s : result.scenarios) {
    scenarios.push_back({{"name", s.name},
                         {"kind", s.kind},
                         {"rule", OrNull(s.rule)},
                         {"description", s.description},
                         {"changed_events", s.changed_events},
                         {"measured_ns", s.measured_ns},
                         {"simulated_ns", s.simulated_ns},
                         {"delta_ns", s.delta_ns()},
                         {"delta_percent", s.delta_percent()},
                         {"steps", ScenarioStepsJson(traces, s)}});
  }
  Json warnings = Json::array();
  for (const std::string& w : result.warnings) warnings.push_back(w);
  return {{"schema", "tensormorph.whatif/1"},
          {"inputs", DescribeInputs(traces)},
          {"steps", std::move(steps)},
          {"scenarios", std::move(scenarios)},
          {"warnings", std::move(warnings)}};
}

void RenderWhatIf(std::ostream& out, const std::vector<const Trace*>& traces,
                  const WhatIfResult& result, OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson:
      WriteJson(out, WhatIfJson(traces, result));
      return;
    case OutputFormat::kCsv:
      RenderCsv(out, traces, result);
      return;
    case OutputFormat::kTable:
      RenderTable(out, traces, result);
      return;
  }
}

}  // namespace tensormorph
