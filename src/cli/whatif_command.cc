// `tensormorph whatif TRACE...`: the step after a fix, simulated from the trace's own dependencies
// (analysis/whatif/whatif.h, docs/whatif.md): the replay with no change per step, then each
// findings rule's fix and the user's scenarios (--speedup, --remove-sync, --no-host-gaps).
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/whatif_report.h"
#include "tensormorph/analysis/whatif/whatif.h"

namespace tensormorph {
namespace {

struct WhatIfCommandOptions {
  CommonOptions common;
  JobOptions job;
  std::vector<std::string> speedups;  // PATTERN=FACTOR
  std::vector<std::string> remove_syncs;
  bool no_host_gaps = false;
  bool no_findings = false;
};

// PATTERN=FACTOR, the factor a finite number above 0 (the last '=' splits: a pattern may hold
// one).
std::optional<WhatIfSpeedup> ParseSpeedup(const std::string& text) {
  const size_t eq = text.rfind('=');
  if (eq == std::string::npos || eq == 0) return std::nullopt;
  WhatIfSpeedup out;
  out.pattern = text.substr(0, eq);
  const std::string factor = text.substr(eq + 1);
  const char* end = factor.data() + factor.size();
  const auto [at, ec] = std::from_chars(factor.data(), end, out.factor);
  if (ec != std::errc() || at != end || !std::isfinite(out.factor) || out.factor <= 0) {
    return std::nullopt;
  }
  return out;
}

}  // namespace

CommandRunner AddWhatIfCommand(CLI::App* app) {
  auto options = std::make_shared<WhatIfCommandOptions>();
  CLI::App* command = app->add_subcommand(
      "whatif",
      "the step after a fix, simulated from the trace's own dependencies: the replay with no "
      "change per step, each findings rule's fix, and your scenarios (--speedup, --remove-sync, "
      "--no-host-gaps)");
  AddCommonOptions(command, &options->common);
  AddJobOptions(command, &options->job);
  command->add_option("--speedup", options->speedups,
                      "PATTERN=FACTOR: the matching work FACTOR times faster; PATTERN a category "
                      "(gemm, attention, elementwise, ...), kernel~TEXT (kernel names holding "
                      "TEXT) or an op name (aten::linear); repeatable");
  command->add_option("--remove-sync", options->remove_syncs,
                      "the blocking calls named so (cudaDeviceSynchronize, "
                      "cudaStreamSynchronize), or inside an op named so (aten::item), no longer "
                      "wait for the device; repeatable");
  command->add_flag("--no-host-gaps", options->no_host_gaps,
                    "the scenario: each step's kernels launched as one graph");
  command->add_flag("--no-findings", options->no_findings,
                    "only the scenarios given (no findings rules' fixes)");
  return [options]() {
    WhatIfQuery query;
    for (const std::string& text : options->speedups) {
      const std::optional<WhatIfSpeedup> s = ParseSpeedup(text);
      if (!s) {
        return PrintError(kExitUsage,
                          fmt::format("--speedup {}: write PATTERN=FACTOR with FACTOR a number "
                                      "above 0 (gemm=2, kernel~flash=1.5, aten::linear=3)",
                                      text),
                          "tensormorph whatif");
      }
      query.speedups.push_back(*s);
    }
    query.remove_syncs = options->remove_syncs;
    query.no_host_gaps = options->no_host_gaps;
    query.findings = !options->no_findings;
    query.as_job = options->job.as_job;
    query.align_clocks = !options->job.no_clock_align;
    query.concurrent = options->common.threads != 1;
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    const JobLayout job = DescribeJob(TracesOf(Pointers(linked)), options->job.as_job);
    const WhatIfResult result = SimulateWhatIf(Pointers(linked), job, query);
    for (const std::string& w : result.warnings) PrintWarning(w);
    RenderWhatIf(std::cout, Pointers(traces), result, FormatOf(options->common));
    return kExitOk;
  };
}

}  // namespace tensormorph
