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
#include "report/csv.h"
#include "report/json_output.h"
#include "report/kernel_occupancy_report.h"
#include "report/output_format.h"
#include "report/table.h"
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

Json LimitJson(int64_t blocks) {
  return blocks == kNoLimit ? Json(nullptr) : Json(blocks);
}

std::string LimitText(int64_t blocks) {
  return blocks == kNoLimit ? "-" : fmt::format("{}", blocks);
}

std::string Bytes(int64_t bytes) {
  return fmt::format("{} B", bytes);
}

std::string CcText(const GpuArch& arch) {
  return fmt::format("{}.{}", arch.nvidia.cc_major, arch.nvidia.cc_minor);
}

Json LimitersJson(const OccupancyResult& r) {
  Json out = Json::array();
  for (OccupancyLimiter l : r.limiters) out.push_back(LimiterName(l));
  return out;
}

void RenderJson(std::ostream& out, const GpuArch& arch, const OccupancyOptions& o,
                const OccupancyResult& r) {
  const bool amd = arch.vendor == GpuVendor::kAmd;
  Json doc = {{"schema", "tensormorph.occupancy/1"},
              {"arch", arch.name},
              {"vendor", amd ? "amd" : "nvidia"},
              {"description", arch.description}};
  if (!amd) doc["compute_capability"] = CcText(arch);
  Json launch = {{"block_size", o.block_size},
                 {"registers_per_thread", o.registers},
                 {"shared_memory_bytes", o.shared_mem}};
  if (amd) {
    launch["accum_registers"] = o.agprs;
    launch["scalar_registers"] = o.sgprs;
  } else {
    launch["carveout_bytes"] = o.carveout ? Json(*o.carveout) : Json(nullptr);
  }
  doc["launch"] = std::move(launch);
  doc["active_blocks_per_sm"] = r.active_blocks_per_sm;
  doc["active_warps_per_sm"] = r.active_warps_per_sm;
  doc["max_warps_per_sm"] = r.max_warps_per_sm;
  doc["occupancy"] = r.occupancy;
  doc["limiter"] = LimiterName(r.limiter);
  doc["limiters"] = LimitersJson(r);
  // null = the kernel uses none of that resource, so it sets no limit.
  Json limits = {{"warps", LimitJson(r.limits.warps)},
                 {"registers", LimitJson(r.limits.registers)},
                 {"shared_memory", LimitJson(r.limits.shared_memory)},
                 {"blocks", LimitJson(r.limits.blocks)}};
  if (amd) {
    limits["vgprs"] = LimitJson(r.limits.vgprs);
    limits["sgprs"] = LimitJson(r.limits.sgprs);
  } else if (r.limits.barriers != kNoLimit) {
    limits["barriers"] = r.limits.barriers;
  }
  doc["limits"] = std::move(limits);
  doc["warp_size"] = r.warp_size;
  doc["warps_per_block"] = r.warps_per_block;
  if (amd) {
    doc["wave_size"] = r.warp_size;
    doc["simds_per_cu"] = r.simds_per_cu;
    doc["waves_per_simd"] = r.waves_per_simd;
    doc["max_waves_per_simd"] = r.max_waves_per_simd;
    doc["waves_per_simd_vgpr"] = r.waves_per_simd_vgpr;
    doc["waves_per_simd_sgpr"] = r.waves_per_simd_sgpr;
    doc["vgprs_allocated"] = r.registers_allocated;
    doc["lds_per_workgroup"] = r.shared_per_block;
    doc["lds_per_cu"] = r.shared_per_sm;
  } else {
    doc["registers_per_block"] = r.registers_allocated;
    doc["shared_memory_per_block"] = r.shared_per_block;
    doc["shared_memory_per_sm"] = r.shared_per_sm;
  }
  if (!r.note.empty()) doc["note"] = r.note;
  if (*(amd ? arch.amd.unconfirmed : arch.nvidia.unconfirmed) != '\0') {
    doc["unconfirmed"] = amd ? arch.amd.unconfirmed : arch.nvidia.unconfirmed;
  }
  WriteJson(out, doc);
}

void RenderCsv(std::ostream& out, const GpuArch& arch, const OccupancyOptions& o,
               const OccupancyResult& r) {
  auto cell = [](int64_t blocks) { return blocks == kNoLimit ? "" : std::to_string(blocks); };
  WriteCsvRow(
      out, {"arch", "block_size", "registers_per_thread", "shared_memory_bytes", "carveout_bytes",
            "active_blocks_per_sm", "active_warps_per_sm", "max_warps_per_sm", "occupancy",
            "limiter", "limit_warps", "limit_registers", "limit_shared_memory", "limit_blocks"});
  WriteCsvRow(out, {arch.name, std::to_string(o.block_size), std::to_string(o.registers),
                    std::to_string(o.shared_mem), o.carveout ? std::to_string(*o.carveout) : "",
                    std::to_string(r.active_blocks_per_sm), std::to_string(r.active_warps_per_sm),
                    std::to_string(r.max_warps_per_sm), fmt::format("{:.6f}", r.occupancy),
                    LimiterName(r.limiter), cell(r.limits.warps), cell(r.limits.registers),
                    cell(r.limits.shared_memory), cell(r.limits.blocks)});
}

void RenderTable(std::ostream& out, const GpuArch& arch, const OccupancyOptions& o,
                 const OccupancyResult& r) {
  const bool amd = arch.vendor == GpuVendor::kAmd;
  const char* warp = amd ? "wave" : "warp";
  const char* sm = amd ? "CU" : "SM";
  const char* block = amd ? "workgroup" : "block";
  if (amd) {
    out << fmt::format("{}  {}, wave{}\n", arch.name, arch.description, r.warp_size);
    out << fmt::format(
        "workgroup of {} work-items ({} waves), {} VGPRs + {} AGPRs, {} SGPRs, {} LDS\n\n",
        o.block_size, r.warps_per_block, o.registers, o.agprs, o.sgprs, Bytes(o.shared_mem));
  } else {
    out << fmt::format("{}  {}, compute capability {}\n", arch.name, arch.description,
                       CcText(arch));
    out << fmt::format("block of {} threads ({} warps), {} registers/thread, {} shared memory\n\n",
                       o.block_size, r.warps_per_block, o.registers, Bytes(o.shared_mem));
  }
  TextTable table;
  using A = TextTable::Align;
  table.AddColumn("Limit", A::kLeft);
  table.AddColumn(amd ? "Workgroups/CU" : "Blocks/SM", A::kRight);
  table.AddColumn("From", A::kLeft);
  auto mark = [&r](OccupancyLimiter l) {
    for (OccupancyLimiter x : r.limiters) {
      if (x == l) return std::string("  <- limiter");
    }
    return std::string();
  };
  table.AddRow({"warps", LimitText(r.limits.warps),
                fmt::format("{} {}s per {}, {} per {}", r.warps_per_block, warp, block,
                            r.max_warps_per_sm, sm) +
                    mark(OccupancyLimiter::kWarps)});
  const std::string regs_from =
      amd ? fmt::format("{} VGPRs allocated per lane: {} waves/SIMD (VGPRs), {} (SGPRs)",
                        r.registers_allocated, r.waves_per_simd_vgpr, r.waves_per_simd_sgpr)
          : fmt::format("{} registers allocated per block", r.registers_allocated);
  table.AddRow(
      {"registers", LimitText(r.limits.registers), regs_from + mark(OccupancyLimiter::kRegisters)});
  table.AddRow({amd ? "LDS" : "shared memory", LimitText(r.limits.shared_memory),
                fmt::format("{} allocated per {}, {} per {}", Bytes(r.shared_per_block), block,
                            Bytes(r.shared_per_sm), sm) +
                    mark(OccupancyLimiter::kSharedMemory)});
  table.AddRow({amd ? "barriers" : "blocks", LimitText(r.limits.blocks),
                (amd ? "workgroup barrier slots per CU" : "resident blocks per SM") +
                    mark(OccupancyLimiter::kBlocks)});
  if (!amd && r.limits.barriers != kNoLimit) {
    table.AddRow({"barriers", LimitText(r.limits.barriers), "barrier slots (not limiting)"});
  }
  table.Print(out);
  out << fmt::format("\nactive {}s/{}: {}, active {}s/{}: {} of {}", block, sm,
                     r.active_blocks_per_sm, warp, sm, r.active_warps_per_sm, r.max_warps_per_sm);
  if (amd) out << fmt::format(" ({:.2f} per SIMD)", r.waves_per_simd);
  out << fmt::format("\ntheoretical occupancy: {:.2f} %, limited by {}\n", r.occupancy * 100,
                     LimiterName(r.limiter));
  if (!r.note.empty()) out << "note: " << r.note << '\n';
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
  RenderAs(
      ParseOutputFormat(o.format).value_or(OutputFormat::kTable),
      [&] { RenderTable(std::cout, *arch, o, *result); },
      [&] { RenderJson(std::cout, *arch, o, *result); },
      [&] { RenderCsv(std::cout, *arch, o, *result); });
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
