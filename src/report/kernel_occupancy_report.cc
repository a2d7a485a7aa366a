#include "report/kernel_occupancy_report.h"

#include <fmt/format.h>

#include "model/time.h"
#include "report/columns.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "report/table.h"

namespace tensormorph {
namespace {

constexpr size_t kNameWidth = 80;

Json LimitJson(int64_t blocks) {
  return blocks == kNoLimit ? Json(nullptr) : Json(blocks);
}

std::string LimitText(int64_t blocks) {
  return blocks == kNoLimit ? "-" : fmt::format("{}", blocks);
}

// Registers and shared memory are -1 when the trace does not say.
Json KnownJson(int64_t value) {
  return value < 0 ? Json(nullptr) : Json(value);
}

std::string KnownText(int64_t value, const char* unknown) {
  return value < 0 ? unknown : std::to_string(value);
}

std::string Dim3Text(const Dim3& d) {
  return fmt::format("{}x{}x{}", d.x, d.y, d.z);
}

// "1024" for one grid size, "512..1024" blocks when launches differ.
std::string GridText(const KernelOccupancyRow& r) {
  if (r.grid_blocks_min == r.grid_blocks_max) return Dim3Text(r.grid);
  return fmt::format("{}..{} blocks", r.grid_blocks_min, r.grid_blocks_max);
}

Json LimitsJson(const OccupancyResult& o) {
  Json limits = {{"warps", LimitJson(o.limits.warps)},
                 {"registers", LimitJson(o.limits.registers)},
                 {"shared_memory", LimitJson(o.limits.shared_memory)},
                 {"blocks", LimitJson(o.limits.blocks)}};
  if (o.vendor == GpuVendor::kAmd) {
    limits["vgprs"] = LimitJson(o.limits.vgprs);
    limits["sgprs"] = LimitJson(o.limits.sgprs);
  } else if (o.limits.barriers != kNoLimit) {
    limits["barriers"] = o.limits.barriers;
  }
  return limits;
}

using Occ = KernelOccupancyRow;

std::string LimitCell(int64_t blocks) {
  return blocks == kNoLimit ? "" : std::to_string(blocks);
}

// The fields of an occupancy row (docs/occupancy.md), in the order JSON and CSV write
// them: JSON has the grid and block as [x, y, z] and the limits as one object, CSV the grid as text
// and each limit in a column.
const Column<Occ> kColumns[] = {
    {"name", [](const Occ& r) { return Json(r.name); }, [](const Occ& r) { return r.name; }},
    {"backend", [](const Occ& r) { return Json(BackendName(r.backend)); },
     [](const Occ& r) { return std::string(BackendName(r.backend)); }},
    {"arch", [](const Occ& r) { return Json(r.arch); }, [](const Occ& r) { return r.arch; }},
    {"count", [](const Occ& r) { return Json(r.count); },
     [](const Occ& r) { return std::to_string(r.count); }},
    {"total_ns", [](const Occ& r) { return Json(r.total_ns); },
     [](const Occ& r) { return std::to_string(r.total_ns); }},
    {"grid",
     [](const Occ& r) {
       return Json{r.grid.x, r.grid.y, r.grid.z};
     },
     [](const Occ& r) { return GridText(r); }},
    {"grid_blocks_min", [](const Occ& r) { return Json(r.grid_blocks_min); }},
    {"grid_blocks_max", [](const Occ& r) { return Json(r.grid_blocks_max); }},
    {"block",
     [](const Occ& r) {
       return Json{r.block.x, r.block.y, r.block.z};
     }},
    {"block_size", [](const Occ& r) { return Json(r.block_size); },
     [](const Occ& r) { return std::to_string(r.block_size); }},
    {"registers_per_thread", [](const Occ& r) { return KnownJson(r.registers_per_thread); },
     [](const Occ& r) { return KnownText(r.registers_per_thread, ""); }},
    {"shared_memory_bytes", [](const Occ& r) { return KnownJson(r.shared_memory_bytes); },
     [](const Occ& r) { return KnownText(r.shared_memory_bytes, ""); }},
    {"theoretical_occupancy", [](const Occ& r) { return Json(r.occupancy.occupancy); },
     [](const Occ& r) { return fmt::format("{:.6f}", r.occupancy.occupancy); }},
    {"theoretical_source",
     [](const Occ& r) { return Json(TheoreticalSourceName(r.theoretical_source)); }},
    {"active_blocks_per_sm", [](const Occ& r) { return Json(r.occupancy.active_blocks_per_sm); }},
    {"active_warps_per_sm", [](const Occ& r) { return Json(r.occupancy.active_warps_per_sm); },
     [](const Occ& r) { return std::to_string(r.occupancy.active_warps_per_sm); }},
    {"max_warps_per_sm", [](const Occ& r) { return Json(r.occupancy.max_warps_per_sm); },
     [](const Occ& r) { return std::to_string(r.occupancy.max_warps_per_sm); }},
    // JSON: null when Nsight Compute reported the occupancy without saying what limits it.
    {"limiter",
     [](const Occ& r) {
       return r.occupancy.limiters.empty() && r.theoretical_source != TheoreticalSource::kComputed
                  ? Json(nullptr)
                  : Json(LimiterName(r.occupancy.limiter));
     },
     [](const Occ& r) { return std::string(LimiterName(r.occupancy.limiter)); }},
    {"limits", [](const Occ& r) { return LimitsJson(r.occupancy); }},
    {"limit_warps", nullptr, [](const Occ& r) { return LimitCell(r.occupancy.limits.warps); }},
    {"limit_registers", nullptr,
     [](const Occ& r) { return LimitCell(r.occupancy.limits.registers); }},
    {"limit_shared_memory", nullptr,
     [](const Occ& r) { return LimitCell(r.occupancy.limits.shared_memory); }},
    {"limit_blocks", nullptr, [](const Occ& r) { return LimitCell(r.occupancy.limits.blocks); }},
    {"achieved_occupancy", [](const Occ& r) { return OrNull(r.achieved); },
     [](const Occ& r) { return r.achieved ? fmt::format("{:.6f}", *r.achieved) : ""; }},
    {"achieved_source", [](const Occ& r) { return OrNull(AchievedSourceName(r.achieved_source)); },
     [](const Occ& r) {
       const char* source = AchievedSourceName(r.achieved_source);
       return std::string(source != nullptr ? source : "");
     }},
    {"achieved_launches", [](const Occ& r) { return Json(r.achieved_launches); }},
    {"note",
     [](const Occ& r) { return r.occupancy.note.empty() ? Omit() : Json(r.occupancy.note); }},
};

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces,
                const KernelOccupancySummary& summary) {
  Json rows = Json::array();
  for (const KernelOccupancyRow& r : summary.rows) rows.push_back(KernelOccupancyRowJson(r));
  Json skipped = Json::object();
  Json skipped_ns = Json::object();
  for (const auto& [reason, s] : summary.skipped) {
    skipped[SkipReasonName(reason)] = s.count;
    skipped_ns[SkipReasonName(reason)] = s.total_ns;
  }
  Json doc = {{"schema", "tensormorph.kernel_occupancy/1"},
              {"inputs", DescribeInputs(traces)},
              {"kernel_count", summary.kernel_count},
              {"computed_count", summary.computed_count},
              {"reported_count", summary.reported_count},
              {"row_count", summary.row_count_before_top},
              {"rows", std::move(rows)},
              {"skipped", std::move(skipped)},
              {"skipped_ns", std::move(skipped_ns)}};
  WriteJson(out, doc);
}

void RenderCsv(std::ostream& out, const KernelOccupancySummary& summary) {
  std::vector<std::string> header;
  AddCsvHeader<Occ>(kColumns, &header);
  WriteCsvRow(out, header);
  for (const KernelOccupancyRow& r : summary.rows) {
    std::vector<std::string> cells;
    AddCsvCells<Occ>(kColumns, r, &cells);
    WriteCsvRow(out, cells);
  }
}

void RenderTable(std::ostream& out, const KernelOccupancySummary& summary) {
  using A = TextTable::Align;
  TextTable table;
  table.AddColumn("Theor.%", A::kRight);
  table.AddColumn("Achv.%", A::kRight);
  table.AddColumn("Warps/SM", A::kRight);
  table.AddColumn("Limiter", A::kLeft);
  table.AddColumn("Blocks/SM w/r/s/b", A::kRight);
  table.AddColumn("Block", A::kRight);
  table.AddColumn("Regs", A::kRight);
  table.AddColumn("Smem", A::kRight);
  table.AddColumn("Grid", A::kRight);
  table.AddColumn("Count", A::kRight);
  table.AddColumn("Total", A::kRight);
  table.AddColumn("Arch", A::kLeft);
  table.AddColumn("Name", A::kLeft, kNameWidth);
  bool kineto = false, ncu = false;
  for (const KernelOccupancyRow& r : summary.rows) {
    const OccupancyResult& o = r.occupancy;
    std::string achieved = "-";
    if (r.achieved) {
      const bool estimate = r.achieved_source == AchievedSource::kKinetoEstimate;
      kineto |= estimate;
      ncu |= !estimate;
      achieved = fmt::format("{:.1f}{}", *r.achieved * 100, estimate ? "*" : "");
    }
    table.AddRow(
        {fmt::format("{:.1f}", o.occupancy * 100), achieved,
         fmt::format("{}/{}", o.active_warps_per_sm, o.max_warps_per_sm), LimiterName(o.limiter),
         fmt::format("{}/{}/{}/{}", LimitText(o.limits.warps), LimitText(o.limits.registers),
                     LimitText(o.limits.shared_memory), LimitText(o.limits.blocks)),
         std::to_string(r.block_size), KnownText(r.registers_per_thread, "-"),
         KnownText(r.shared_memory_bytes, "-"), GridText(r), std::to_string(r.count),
         FormatDuration(r.total_ns), r.arch, r.name});
  }
  if (!summary.rows.empty()) {
    table.Print(out);
    out << '\n';
  }
  out << fmt::format("{} of {} kernel launches with a launch configuration", summary.computed_count,
                     summary.kernel_count);
  if (summary.rows.size() < summary.row_count_before_top) {
    out << fmt::format("; showing the top {} of {} rows", summary.rows.size(),
                       summary.row_count_before_top);
  }
  out << '\n';
  if (summary.reported_count > 0) {
    out << fmt::format(
        "{} of them as Nsight Compute's Occupancy section reports it: the export has no launch "
        "statistics (registers per thread, shared memory per block) to compute it again\n",
        summary.reported_count);
  }
  if (kineto) {
    out << "* achieved: Kineto's estimate (from theoretical blocks and the grid), not a "
           "measurement\n";
  }
  if (ncu) out << "achieved: measured by Nsight Compute\n";
  for (const auto& [reason, s] : summary.skipped) {
    out << fmt::format(
        "skipped {} launches ({}): {}; e.g. {}\n", s.count, FormatDuration(s.total_ns),
        SkipReasonText(reason),
        s.example.size() > kNameWidth ? s.example.substr(0, kNameWidth) + "..." : s.example);
  }
}

}  // namespace

Json KernelOccupancyRowJson(const KernelOccupancyRow& row) {
  return ColumnsJson<Occ>(kColumns, row);
}

void RenderKernelOccupancy(std::ostream& out, const std::vector<const Trace*>& traces,
                           const KernelOccupancySummary& summary, OutputFormat format) {
  RenderAs(
      format, [&] { RenderTable(out, summary); }, [&] { RenderJson(out, traces, summary); },
      [&] { RenderCsv(out, summary); });
}

}  // namespace tensormorph
