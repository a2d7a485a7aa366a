#include "report/kernel_occupancy_report.h"

#include <fmt/format.h>

#include "model/time.h"
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

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces,
                const KernelOccupancySummary& summary) {
  Json rows = Json::array();
  for (const KernelOccupancyRow& r : summary.rows) {
    const OccupancyResult& o = r.occupancy;
    const char* source = AchievedSourceName(r.achieved_source);
    rows.push_back(Json{
        {"name", r.name},
        {"backend", BackendName(r.backend)},
        {"arch", r.arch},
        {"count", r.count},
        {"total_ns", r.total_ns},
        {"grid", {r.grid.x, r.grid.y, r.grid.z}},
        {"grid_blocks_min", r.grid_blocks_min},
        {"grid_blocks_max", r.grid_blocks_max},
        {"block", {r.block.x, r.block.y, r.block.z}},
        {"block_size", r.block_size},
        {"registers_per_thread", KnownJson(r.registers_per_thread)},
        {"shared_memory_bytes", KnownJson(r.shared_memory_bytes)},
        {"theoretical_occupancy", o.occupancy},
        {"theoretical_source", TheoreticalSourceName(r.theoretical_source)},
        {"active_blocks_per_sm", o.active_blocks_per_sm},
        {"active_warps_per_sm", o.active_warps_per_sm},
        {"max_warps_per_sm", o.max_warps_per_sm},
        {"limiter", o.limiters.empty() && r.theoretical_source != TheoreticalSource::kComputed
                        ? Json(nullptr)
                        : Json(LimiterName(o.limiter))},
        {"limits", LimitsJson(o)},
        {"achieved_occupancy", r.achieved ? Json(*r.achieved) : Json(nullptr)},
        {"achieved_source", source != nullptr ? Json(source) : Json(nullptr)},
        {"achieved_launches", r.achieved_launches},
    });
    if (!o.note.empty()) rows.back()["note"] = o.note;
  }
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
  WriteCsvRow(
      out, {"name", "backend", "arch", "count", "total_ns", "grid", "block_size",
            "registers_per_thread", "shared_memory_bytes", "theoretical_occupancy",
            "active_warps_per_sm", "max_warps_per_sm", "limiter", "limit_warps", "limit_registers",
            "limit_shared_memory", "limit_blocks", "achieved_occupancy", "achieved_source"});
  auto cell = [](int64_t blocks) { return blocks == kNoLimit ? "" : std::to_string(blocks); };
  for (const KernelOccupancyRow& r : summary.rows) {
    const OccupancyResult& o = r.occupancy;
    const char* source = AchievedSourceName(r.achieved_source);
    WriteCsvRow(out, {r.name, BackendName(r.backend), r.arch, std::to_string(r.count),
                      std::to_string(r.total_ns), GridText(r), std::to_string(r.block_size),
                      KnownText(r.registers_per_thread, ""), KnownText(r.shared_memory_bytes, ""),
                      fmt::format("{:.6f}", o.occupancy), std::to_string(o.active_warps_per_sm),
                      std::to_string(o.max_warps_per_sm), LimiterName(o.limiter),
                      cell(o.limits.warps), cell(o.limits.registers), cell(o.limits.shared_memory),
                      cell(o.limits.blocks), r.achieved ? fmt::format("{:.6f}", *r.achieved) : "",
                      source != nullptr ? source : ""});
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

void RenderKernelOccupancy(std::ostream& out, const std::vector<const Trace*>& traces,
                           const KernelOccupancySummary& summary, OutputFormat format) {
  switch (format) {
    case OutputFormat::kJson:
      RenderJson(out, traces, summary);
      return;
    case OutputFormat::kCsv:
      RenderCsv(out, summary);
      return;
    case OutputFormat::kTable:
      RenderTable(out, summary);
      return;
  }
}

}  // namespace tensormorph
