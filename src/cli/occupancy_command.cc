// `tensormorph occupancy --arch ARCH --block-size N --registers N [...]`: the theoretical occupancy
// of one launch configuration, as Nsight Compute's Occupancy section (NVIDIA) or LLVM's occupancy
// rules (AMD) give it. `tensormorph occupancy TRACE... [--arch ARCH] [--top N]`: the same for every
// launch configuration of the traces' kernels (analysis/occupancy/kernel_occupancy.h). The two
// forms share one subcommand, so the launch options are checked here rather than by CLI11: they
// are required without a TRACE and a usage error with one.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "cli/commands.h"
#include "cli/common.h"
#include "report/kernel_occupancy_report.h"
#include "report/occupancy_launch_report.h"
#include "report/output_format.h"
#include "tensormorph/analysis/occupancy/gpu_limits.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/analysis/occupancy/occupancy.h"

namespace tensormorph {
namespace {

struct OccupancyOptions {
  std::string arch;
  int64_t block_size = 0;
  int64_t registers = 0;
  int64_t shared_mem = 0;
  std::optional<int64_t> carveout;
  int64_t agprs = 0;
  int64_t sgprs = 0;
  int wave_size = 0;
  std::string format = "table";
  // The trace form.
  KernelOccupancyQuery query;  // .arch is set from --arch, once parsed
  CommonOptions common;        // the inputs and the input options
};

// A count or a byte size: digits only, so that "-1", "1.5" and "64k" are usage errors with a
// plain message instead of a conversion or range error.
CLI::Validator Count() {
  return {[](std::string& text) {
            const bool digits = !text.empty() && text.size() <= 18 &&
                                text.find_first_not_of("0123456789") == std::string::npos;
            return digits ? std::string() : "'" + text + "' is not a non-negative integer";
          },
          "N"};
}

int Usage(const std::string& message) {
  return PrintError(kExitUsage, message, "tensormorph occupancy");
}

int RunTraceForm(const OccupancyOptions& o) {
  KernelOccupancyQuery query = o.query;
  if (!o.arch.empty()) {
    StatusOr<GpuArch> arch = ParseArch(o.arch);
    if (!arch.ok()) return Usage(arch.status().message());
    query.arch = std::move(arch).value();
  }
  CommonOptions common = o.common;
  common.format = o.format;
  common.host_rows = false;  // launch configurations are on the device rows
  std::vector<Trace> traces;
  if (int rc = LoadInputs(common, &traces); rc != kExitOk) return rc;
  PrintWarnings(traces);
  const std::vector<const Trace*> inputs = Pointers(traces);
  const KernelOccupancySummary summary =
      SummarizeKernelOccupancy(Pointers(LinkTraces(traces, LinkOptionsOf(common))), query);
  RenderKernelOccupancy(std::cout, inputs, summary, FormatOf(common));
  return kExitOk;
}

int RunLaunchForm(const OccupancyOptions& o) {
  StatusOr<GpuArch> arch = ParseArch(o.arch);
  if (!arch.ok()) return PrintError(kExitUsage, arch.status().message());
  LaunchConfig launch;
  launch.block_size = o.block_size;
  launch.registers_per_thread = o.registers;
  launch.dynamic_shared_bytes = o.shared_mem;
  launch.carveout_bytes = o.carveout;
  launch.accum_registers = o.agprs;
  launch.scalar_registers = o.sgprs;
  launch.wave_size = o.wave_size;
  StatusOr<OccupancyResult> result = ComputeOccupancy(*arch, launch);
  if (!result.ok()) return PrintError(kExitUsage, result.status().message());
  RenderOccupancyLaunch(std::cout, {*arch, launch, *result},
                        ParseOutputFormat(o.format).value_or(OutputFormat::kTable));
  return kExitOk;
}

}  // namespace

CommandRunner AddOccupancyCommand(CLI::App* app) {
  auto o = std::make_shared<OccupancyOptions>();
  CLI::App* command = app->add_subcommand(
      "occupancy",
      "theoretical occupancy of a launch, or of every kernel of TRACE...: blocks per SM each "
      "resource allows, active warps, limiter");
  command->add_option("TRACE", o->common.inputs,
                      TraceArgumentHelp("traces: per-kernel occupancy from their launch "
                                        "configurations (then no --block-size etc.);"));
  command->add_option("--arch", o->arch,
                      "sm_70 ... sm_121 (or 9.0, 90), gfx908 ... gfx1100; with TRACE: overrides "
                      "the devices' architecture");
  // The launch options of the single-launch form; every one of them is a usage error with TRACE.
  std::vector<CLI::Option*> launch_options;
  launch_options.push_back(
      command->add_option("--block-size", o->block_size, "threads per block (workgroup size)")
          ->check(Count()));
  launch_options.push_back(
      command
          ->add_option("--registers", o->registers,
                       "registers per thread (AMD: architectural VGPRs per lane)")
          ->check(Count()));
  launch_options.push_back(command
                               ->add_option("--shared-mem", o->shared_mem,
                                            "static + dynamic shared memory (LDS) per block, bytes")
                               ->check(Count())
                               ->capture_default_str());
  launch_options.push_back(
      command
          ->add_option("--carveout", o->carveout,
                       "NVIDIA: the SM's shared memory capacity in bytes, rounded up to a "
                       "supported step (default: the largest; Nsight Compute uses the launch's "
                       "\"Shared Memory Configuration Size\")")
          ->check(Count()));
  launch_options.push_back(
      command->add_option("--agprs", o->agprs, "AMD: accumulation VGPRs (AGPRs) per lane")
          ->check(Count()));
  launch_options.push_back(
      command->add_option("--sgprs", o->sgprs, "AMD: SGPRs per wave (0 = not counted)")
          ->check(Count()));
  launch_options.push_back(
      command->add_option("--wave-size", o->wave_size, "AMD: 32 or 64 (default: the target's)")
          ->check(CLI::IsMember({32, 64})));
  command->add_option("--format", o->format, "output format")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  // The trace form's options (as every trace command has them).
  std::vector<CLI::Option*> trace_options;
  trace_options.push_back(
      command->add_option("--top", o->query.top, "with TRACE: only the N rows with the most time"));
  AddInputOptions(command, &o->common, &trace_options);
  return [o, command, launch_options, trace_options]() {
    if (!o->common.inputs.empty()) {
      for (const CLI::Option* opt : launch_options) {
        if (opt->count() > 0) {
          return Usage(
              fmt::format("{} describes one launch; with TRACE the launch "
                          "configurations come from the trace (drop one or the other)",
                          opt->get_name()));
        }
      }
      return RunTraceForm(*o);
    }
    for (const CLI::Option* opt : trace_options) {
      if (opt->count() > 0) return Usage(fmt::format("{} needs a TRACE", opt->get_name()));
    }
    // CLI11 cannot require these itself: the trace form does without them.
    for (const char* name : {"--arch", "--block-size", "--registers"}) {
      if (command->count(name) == 0) {
        return Usage(fmt::format("{} is required (or give a TRACE)", name));
      }
    }
    return RunLaunchForm(*o);
  };
}

}  // namespace tensormorph
