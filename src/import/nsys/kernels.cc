#include "import/nsys/kernels.h"

#include <fmt/format.h>

#include <algorithm>

namespace tensormorph::nsys {
namespace {

uint32_t ClampU32(int64_t value) {
  return static_cast<uint32_t>(std::clamp<int64_t>(value, 0, UINT32_MAX));
}

}  // namespace

Status ReadKernels(ImportContext& context) {
  if (!context.schema().HasTable(kKernelTable)) return Status::Ok();
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement rows,
      SelectColumns(context.db(), context.schema(), kKernelTable, {"start", "end", "deviceId"},
                    {"streamId", "correlationId", "globalPid", "demangledName", "shortName",
                     "mangledName", "gridX", "gridY", "gridZ", "blockX", "blockY", "blockZ",
                     "registersPerThread", "staticSharedMemory", "dynamicSharedMemory"}));
  const int start = rows.Index("start"), end = rows.Index("end");
  const int device = rows.Index("deviceId"), stream = rows.Index("streamId");
  const int correlation = rows.Index("correlationId"), global_pid = rows.Index("globalPid");
  // nsys reports name kernels by the demangled name ("Kernel function name w/ templates"); the
  // base and mangled names stand in only when a row's demangled string is missing.
  const int names[] = {rows.Index("demangledName"), rows.Index("shortName"),
                       rows.Index("mangledName")};
  if (std::all_of(std::begin(names), std::end(names), [](int i) { return i < 0; })) {
    return UnreadableInput(
        fmt::format("table {} has no kernel name column (demangledName, shortName or mangledName)",
                    kKernelTable));
  }
  const int grid[] = {rows.Index("gridX"), rows.Index("gridY"), rows.Index("gridZ")};
  const int block[] = {rows.Index("blockX"), rows.Index("blockY"), rows.Index("blockZ")};
  const int registers = rows.Index("registersPerThread");
  const int static_smem = rows.Index("staticSharedMemory");
  const int dynamic_smem = rows.Index("dynamicSharedMemory");

  Trace& trace = context.trace();
  trace.kernels.reserve(trace.kernels.size() + context.ReserveHint(kKernelTable));
  uint64_t row = 0, fallback_names = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, context.NextRow(rows, &row));
    if (!more) break;
    Kernel k;
    if (!context.CheckTimes(kKernelTable, row, rows.Int(start), rows.Int(end), &k.duration_ns))
      continue;
    k.start_ns = *rows.Int(start);
    std::optional<StringId> name;
    for (size_t i = 0; i < std::size(names) && !name; ++i) {
      std::optional<int64_t> id = rows.Int(names[i]);
      if (!id) continue;
      TM_ASSIGN_OR_RETURN(std::optional<StringId> text, context.String(*id));
      name = text;
      if (name && i > 0) ++fallback_names;
    }
    if (!name) {
      context.SkipRow(kKernelTable, row, "its name is not in StringIds");
      continue;
    }
    k.name = *name;
    if (!context.ReadPlacement(kKernelTable, row, rows, {device, stream, correlation, global_pid},
                               &k)) {
      continue;
    }
    k.grid = {ClampU32(rows.IntOr(grid[0], 0)), ClampU32(rows.IntOr(grid[1], 0)),
              ClampU32(rows.IntOr(grid[2], 0))};
    k.block = {ClampU32(rows.IntOr(block[0], 0)), ClampU32(rows.IntOr(block[1], 0)),
               ClampU32(rows.IntOr(block[2], 0))};
    k.registers_per_thread =
        static_cast<uint16_t>(std::clamp<int64_t>(rows.IntOr(registers, 0), 0, UINT16_MAX));
    // Kineto reports one shared-memory figure, static + dynamic; so does the model.
    k.shared_memory_bytes = ClampU32(std::max<int64_t>(0, rows.IntOr(static_smem, 0)) +
                                     std::max<int64_t>(0, rows.IntOr(dynamic_smem, 0)));
    ++trace.counts.kernels;  // kept rows only, as the Kineto importer counts
    trace.kernels.push_back(k);
  }
  if (fallback_names > 0) {
    trace.warnings.push_back(fmt::format(
        "{} kernels have no demangled name in StringIds; they are named by their base or mangled "
        "name instead",
        fallback_names));
  }
  return Status::Ok();
}

}  // namespace tensormorph::nsys
