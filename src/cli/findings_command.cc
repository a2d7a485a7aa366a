// `tensormorph findings TRACE...`: what to fix first, each finding with its estimated gain
// (analysis/findings/findings.h; the rules are the README's "Findings" table).
#include <cmath>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/findings_report.h"
#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/whatif/whatif.h"

namespace tensormorph {
namespace {

struct FindingsCommandOptions {
  CommonOptions common;
  FindingsQuery query;
  double gap_us = FindingsQuery{}.min_gap_ns / 1000.0;  // the library's default
  std::vector<std::string> spec_files;
  bool no_simulate = false;
};

}  // namespace

CommandRunner AddFindingsCommand(CLI::App* app) {
  auto options = std::make_shared<FindingsCommandOptions>();
  CLI::App* command = app->add_subcommand(
      "findings",
      "what to fix first: host gaps, synchronization, blocking copies, launch-bound kernels, ops "
      "below their roof, FP32 matmuls, low occupancy, exposed communication, stragglers, slow "
      "copies, a dominant op, memory near capacity, fragmentation, growth, allocation churn; each "
      "with its "
      "estimated gain");
  AddCommonOptions(command, &options->common);
  command
      ->add_option("--gap", options->gap_us,
                   "idle gaps longer than this many µs are the gap rules' evidence (timeline "
                   "--gap shows the same gaps)")
      ->check(CLI::Range(0.0, 1e12))
      ->capture_default_str();
  command
      ->add_option("--attainable-roof", options->query.attainable_roof_percent,
                   "percent of the roof (and of a copy's link) a well-tuned op reaches; the gain "
                   "is the time above it")
      ->check(CLI::Range(1.0, 100.0))
      ->capture_default_str();
  command
      ->add_option("--slow-copy", options->query.slow_copy_percent,
                   "copies below this percent of their link's peak are slow")
      ->check(CLI::Range(0.0, 100.0))
      ->capture_default_str();
  command
      ->add_option("--straggler-threshold", options->query.straggler_threshold_percent,
                   "a rank of a job is a straggler when the others' wait for it in collectives "
                   "exceeds this many percent of the median step (else of the median device span)")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  command->add_option("--top-items", options->query.top_items, "evidence items per finding")
      ->check(CLI::Range(size_t{1}, size_t{1000}))
      ->capture_default_str();
  AddAsJobOption(command, &options->query.as_job);
  command->add_flag("--no-simulate", options->no_simulate,
                    "skip the simulation of each fix (tensormorph whatif): no simulated gains, "
                    "findings ranked by their estimated gain");
  command->add_option("--device-spec", options->spec_files,
                      "JSON file adding or overriding device figures (docs/devices.md)");
  return [options]() {
    std::vector<DeviceSpec> devices;
    if (int rc = LoadDevices(options->spec_files, &devices); rc != kExitOk) return rc;
    std::vector<Trace> traces;
    if (int rc = LoadInputs(options->common, &traces); rc != kExitOk) return rc;
    PrintWarnings(traces);
    const std::vector<LinkedTrace> linked = LinkTraces(traces, LinkOptionsOf(options->common));
    FindingsQuery query = options->query;
    query.min_gap_ns = std::llround(options->gap_us * 1000.0);
    query.devices = &devices;
    query.concurrent = options->common.threads != 1;
    const FindingsResult result =
        FindSimulatedFindings(Pointers(linked), query, !options->no_simulate);
    RenderFindings(std::cout, Pointers(traces), result, FormatOf(options->common));
    return kExitOk;
  };
}

}  // namespace tensormorph
