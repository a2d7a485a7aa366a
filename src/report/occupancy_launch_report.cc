#include "report/occupancy_launch_report.h"

#include <fmt/format.h>

#include <span>

#include "report/columns.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

using LaunchRow = OccupancyLaunch;

bool IsAmd(const LaunchRow& l) {
  return l.arch.vendor == GpuVendor::kAmd;
}

// A field only one vendor's report has.
template <typename T>
Json AmdOnly(const LaunchRow& l, const T& value) {
  return IsAmd(l) ? Json(value) : Omit();
}
template <typename T>
Json NvidiaOnly(const LaunchRow& l, const T& value) {
  return IsAmd(l) ? Omit() : Json(value);
}

// A limit in blocks per SM; kNoLimit = the kernel uses none of that resource, so it sets no limit:
// null in JSON, empty in CSV, "-" in the table.
Json BlockLimitJson(int64_t blocks) {
  return blocks == kNoLimit ? Json(nullptr) : Json(blocks);
}
std::string BlockLimitCell(int64_t blocks) {
  return blocks == kNoLimit ? "" : std::to_string(blocks);
}
std::string BlockLimitText(int64_t blocks) {
  return blocks == kNoLimit ? "-" : fmt::format("{}", blocks);
}

int64_t SharedBytes(const LaunchConfig& launch) {
  return launch.static_shared_bytes + launch.dynamic_shared_bytes;
}

std::string ByteText(int64_t bytes) {
  return fmt::format("{} B", bytes);
}

std::string ComputeCapability(const GpuArch& arch) {
  return fmt::format("{}.{}", arch.nvidia.cc_major, arch.nvidia.cc_minor);
}

const char* Unconfirmed(const LaunchRow& l) {
  return IsAmd(l) ? l.arch.amd.unconfirmed : l.arch.nvidia.unconfirmed;
}

// The report's fields (docs/occupancy.md), in the order JSON and CSV write them, in sections: the
// "launch" and "limits" sections are JSON objects of their own, flattened into columns in CSV.
const Column<LaunchRow> kArchColumns[] = {
    {"arch", [](const LaunchRow& l) { return Json(l.arch.name); },
     [](const LaunchRow& l) { return l.arch.name; }},
    {"vendor", [](const LaunchRow& l) { return Json(IsAmd(l) ? "amd" : "nvidia"); }},
    {"description", [](const LaunchRow& l) { return Json(l.arch.description); }},
    {"compute_capability",
     [](const LaunchRow& l) { return NvidiaOnly(l, ComputeCapability(l.arch)); }},
};

// The launch as given.
const Column<LaunchRow> kLaunchColumns[] = {
    {"block_size", [](const LaunchRow& l) { return Json(l.launch.block_size); },
     [](const LaunchRow& l) { return std::to_string(l.launch.block_size); }},
    {"registers_per_thread", [](const LaunchRow& l) { return Json(l.launch.registers_per_thread); },
     [](const LaunchRow& l) { return std::to_string(l.launch.registers_per_thread); }},
    {"shared_memory_bytes", [](const LaunchRow& l) { return Json(SharedBytes(l.launch)); },
     [](const LaunchRow& l) { return std::to_string(SharedBytes(l.launch)); }},
    {"carveout_bytes",
     [](const LaunchRow& l) { return NvidiaOnly(l, OrNull(l.launch.carveout_bytes)); },
     [](const LaunchRow& l) {
       return l.launch.carveout_bytes ? std::to_string(*l.launch.carveout_bytes) : "";
     }},
    {"accum_registers", [](const LaunchRow& l) { return AmdOnly(l, l.launch.accum_registers); }},
    {"scalar_registers", [](const LaunchRow& l) { return AmdOnly(l, l.launch.scalar_registers); }},
};

const Column<LaunchRow> kSummaryColumns[] = {
    {"active_blocks_per_sm", [](const LaunchRow& l) { return Json(l.result.active_blocks_per_sm); },
     [](const LaunchRow& l) { return std::to_string(l.result.active_blocks_per_sm); }},
    {"active_warps_per_sm", [](const LaunchRow& l) { return Json(l.result.active_warps_per_sm); },
     [](const LaunchRow& l) { return std::to_string(l.result.active_warps_per_sm); }},
    {"max_warps_per_sm", [](const LaunchRow& l) { return Json(l.result.max_warps_per_sm); },
     [](const LaunchRow& l) { return std::to_string(l.result.max_warps_per_sm); }},
    {"occupancy", [](const LaunchRow& l) { return Json(l.result.occupancy); },
     [](const LaunchRow& l) { return fmt::format("{:.6f}", l.result.occupancy); }},
    {"limiter", [](const LaunchRow& l) { return Json(LimiterName(l.result.limiter)); },
     [](const LaunchRow& l) { return std::string(LimiterName(l.result.limiter)); }},
    {"limiters",
     [](const LaunchRow& l) {
       Json out = Json::array();
       for (OccupancyLimiter x : l.result.limiters) out.push_back(LimiterName(x));
       return out;
     }},
};

// Blocks per SM each resource allows (CSV: the first four, as limit_*).
const Column<LaunchRow> kLimitColumns[] = {
    {"warps", [](const LaunchRow& l) { return BlockLimitJson(l.result.limits.warps); },
     [](const LaunchRow& l) { return BlockLimitCell(l.result.limits.warps); }, "limit_warps"},
    {"registers", [](const LaunchRow& l) { return BlockLimitJson(l.result.limits.registers); },
     [](const LaunchRow& l) { return BlockLimitCell(l.result.limits.registers); },
     "limit_registers"},
    {"shared_memory",
     [](const LaunchRow& l) { return BlockLimitJson(l.result.limits.shared_memory); },
     [](const LaunchRow& l) { return BlockLimitCell(l.result.limits.shared_memory); },
     "limit_shared_memory"},
    {"blocks", [](const LaunchRow& l) { return BlockLimitJson(l.result.limits.blocks); },
     [](const LaunchRow& l) { return BlockLimitCell(l.result.limits.blocks); }, "limit_blocks"},
    {"vgprs",
     [](const LaunchRow& l) { return IsAmd(l) ? BlockLimitJson(l.result.limits.vgprs) : Omit(); }},
    {"sgprs",
     [](const LaunchRow& l) { return IsAmd(l) ? BlockLimitJson(l.result.limits.sgprs) : Omit(); }},
    // NVIDIA CC >= 9.0 only.
    {"barriers",
     [](const LaunchRow& l) {
       return IsAmd(l) || l.result.limits.barriers == kNoLimit ? Omit()
                                                               : Json(l.result.limits.barriers);
     }},
};

// JSON only: the figures behind the limits, in each vendor's terms.
const Column<LaunchRow> kDetailColumns[] = {
    {"warp_size", [](const LaunchRow& l) { return Json(l.result.warp_size); }},
    {"warps_per_block", [](const LaunchRow& l) { return Json(l.result.warps_per_block); }},
    {"wave_size", [](const LaunchRow& l) { return AmdOnly(l, l.result.warp_size); }},
    {"simds_per_cu", [](const LaunchRow& l) { return AmdOnly(l, l.result.simds_per_cu); }},
    {"waves_per_simd", [](const LaunchRow& l) { return AmdOnly(l, l.result.waves_per_simd); }},
    {"max_waves_per_simd",
     [](const LaunchRow& l) { return AmdOnly(l, l.result.max_waves_per_simd); }},
    {"waves_per_simd_vgpr",
     [](const LaunchRow& l) { return AmdOnly(l, l.result.waves_per_simd_vgpr); }},
    {"waves_per_simd_sgpr",
     [](const LaunchRow& l) { return AmdOnly(l, l.result.waves_per_simd_sgpr); }},
    {"vgprs_allocated",
     [](const LaunchRow& l) { return AmdOnly(l, l.result.registers_allocated); }},
    {"lds_per_workgroup", [](const LaunchRow& l) { return AmdOnly(l, l.result.shared_per_block); }},
    {"lds_per_cu", [](const LaunchRow& l) { return AmdOnly(l, l.result.shared_per_sm); }},
    {"registers_per_block",
     [](const LaunchRow& l) { return NvidiaOnly(l, l.result.registers_allocated); }},
    {"shared_memory_per_block",
     [](const LaunchRow& l) { return NvidiaOnly(l, l.result.shared_per_block); }},
    {"shared_memory_per_sm",
     [](const LaunchRow& l) { return NvidiaOnly(l, l.result.shared_per_sm); }},
    {"note",
     [](const LaunchRow& l) { return l.result.note.empty() ? Omit() : Json(l.result.note); }},
    {"unconfirmed",
     [](const LaunchRow& l) { return *Unconfirmed(l) == '\0' ? Omit() : Json(Unconfirmed(l)); }},
};

// A run of fields at the top level (object == nullptr) or one nested JSON object.
struct LaunchSection {
  const char* object;
  std::span<const Column<LaunchRow>> columns;
};
const LaunchSection kLaunchSections[] = {
    {nullptr, kArchColumns},   {"launch", kLaunchColumns}, {nullptr, kSummaryColumns},
    {"limits", kLimitColumns}, {nullptr, kDetailColumns},
};

void RenderLaunchJson(std::ostream& out, const LaunchRow& l) {
  Json doc = {{"schema", "tensormorph.occupancy/1"}};
  for (const LaunchSection& s : kLaunchSections) {
    if (s.object != nullptr) {
      doc[s.object] = ColumnsJson(s.columns, l);
    } else {
      AddJsonFields(s.columns, l, &doc);
    }
  }
  WriteJson(out, doc);
}

void RenderLaunchCsv(std::ostream& out, const LaunchRow& l) {
  std::vector<std::string> cells;
  for (const LaunchSection& s : kLaunchSections) AddCsvCells(s.columns, l, &cells);
  WriteCsvRow(out, OccupancyLaunchCsvHeader());
  WriteCsvRow(out, cells);
}

void RenderLaunchTable(std::ostream& out, const LaunchRow& l) {
  const GpuArch& arch = l.arch;
  const LaunchConfig& o = l.launch;
  const OccupancyResult& r = l.result;
  const bool amd = IsAmd(l);
  const char* warp = amd ? "wave" : "warp";
  const char* sm = amd ? "CU" : "SM";
  const char* block = amd ? "workgroup" : "block";
  if (amd) {
    out << fmt::format("{}  {}, wave{}\n", arch.name, arch.description, r.warp_size);
    out << fmt::format(
        "workgroup of {} work-items ({} waves), {} VGPRs + {} AGPRs, {} SGPRs, {} LDS\n\n",
        o.block_size, r.warps_per_block, o.registers_per_thread, o.accum_registers,
        o.scalar_registers, ByteText(SharedBytes(o)));
  } else {
    out << fmt::format("{}  {}, compute capability {}\n", arch.name, arch.description,
                       ComputeCapability(arch));
    out << fmt::format("block of {} threads ({} warps), {} registers/thread, {} shared memory\n\n",
                       o.block_size, r.warps_per_block, o.registers_per_thread,
                       ByteText(SharedBytes(o)));
  }
  TextTable table;
  using A = TextTable::Align;
  table.AddColumn("Limit", A::kLeft);
  table.AddColumn(amd ? "Workgroups/CU" : "Blocks/SM", A::kRight);
  table.AddColumn("From", A::kLeft);
  auto mark = [&r](OccupancyLimiter limiter) {
    for (OccupancyLimiter x : r.limiters) {
      if (x == limiter) return std::string("  <- limiter");
    }
    return std::string();
  };
  table.AddRow({"warps", BlockLimitText(r.limits.warps),
                fmt::format("{} {}s per {}, {} per {}", r.warps_per_block, warp, block,
                            r.max_warps_per_sm, sm) +
                    mark(OccupancyLimiter::kWarps)});
  const std::string regs_from =
      amd ? fmt::format("{} VGPRs allocated per lane: {} waves/SIMD (VGPRs), {} (SGPRs)",
                        r.registers_allocated, r.waves_per_simd_vgpr, r.waves_per_simd_sgpr)
          : fmt::format("{} registers allocated per block", r.registers_allocated);
  table.AddRow({"registers", BlockLimitText(r.limits.registers),
                regs_from + mark(OccupancyLimiter::kRegisters)});
  table.AddRow({amd ? "LDS" : "shared memory", BlockLimitText(r.limits.shared_memory),
                fmt::format("{} allocated per {}, {} per {}", ByteText(r.shared_per_block), block,
                            ByteText(r.shared_per_sm), sm) +
                    mark(OccupancyLimiter::kSharedMemory)});
  table.AddRow({amd ? "barriers" : "blocks", BlockLimitText(r.limits.blocks),
                (amd ? "workgroup barrier slots per CU" : "resident blocks per SM") +
                    mark(OccupancyLimiter::kBlocks)});
  if (!amd && r.limits.barriers != kNoLimit) {
    table.AddRow({"barriers", BlockLimitText(r.limits.barriers), "barrier slots (not limiting)"});
  }
  table.Print(out);
  out << fmt::format("\nactive {}s/{}: {}, active {}s/{}: {} of {}", block, sm,
                     r.active_blocks_per_sm, warp, sm, r.active_warps_per_sm, r.max_warps_per_sm);
  if (amd) out << fmt::format(" ({:.2f} per SIMD)", r.waves_per_simd);
  out << fmt::format("\ntheoretical occupancy: {:.2f} %, limited by {}\n", r.occupancy * 100,
                     LimiterName(r.limiter));
  if (!r.note.empty()) out << "note: " << r.note << '\n';
}

}  // namespace

std::vector<std::string> OccupancyLaunchCsvHeader() {
  std::vector<std::string> header;
  for (const LaunchSection& s : kLaunchSections) AddCsvHeader(s.columns, &header);
  return header;
}

void RenderOccupancyLaunch(std::ostream& out, const OccupancyLaunch& launch, OutputFormat format) {
  RenderAs(
      format, [&] { RenderLaunchTable(out, launch); }, [&] { RenderLaunchJson(out, launch); },
      [&] { RenderLaunchCsv(out, launch); });
}

}  // namespace tensormorph
