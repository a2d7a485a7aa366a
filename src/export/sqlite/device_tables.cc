// Writers of the device-side tables: kernels, memcpy (copies and sets), kernel_counters.
#include "export/sqlite/tables.h"

namespace tensormorph::sqlite_export {
namespace {

std::optional<int64_t> Present(int64_t value, int64_t absent) {
  return value == absent ? std::nullopt : std::optional<int64_t>(value);
}

// Binds the columns shared by kernels and memcpy rows that come from linking: launch_id, op_id,
// annotation_id and link, at `first` and the three positions after it.
void BindLink(Statement& insert, int first, const WorkLink& link) {
  const auto row = [](uint32_t index) {
    return index == kNoRow ? std::nullopt : std::optional<int64_t>(index);
  };
  insert.OptionalInt(first, row(link.launch))
      .OptionalInt(first + 1, link.origin == WorkOrigin::kOp ? row(link.op) : std::nullopt)
      .OptionalInt(first + 2, link.origin == WorkOrigin::kAnnotation ? row(link.op) : std::nullopt)
      .Text(first + 3, WorkOriginName(link.origin));
}

}  // namespace

void WriteKernels(Database& db, const Trace& trace, const TraceLinks& links,
                  const StreamIds& streams) {
  Statement insert(&db,
                   "INSERT INTO kernels VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                   "?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25, ?26, ?27)");
  for (size_t i = 0; i < trace.kernels.size(); ++i) {
    const Kernel& k = trace.kernels[i];
    insert.Int(1, static_cast<int64_t>(i))
        .Text(2, trace.str(k.name))
        .OptionalInt(
            3, k.device < trace.devices.size() ? std::optional<int64_t>(k.device) : std::nullopt)
        .Int(4, k.stream)
        .Int(5, streams.kernels[i])
        .Int(6, k.start_ns)
        .Int(7, k.end_ns())
        .Int(8, k.duration_ns)
        .OptionalInt(9, Present(static_cast<int64_t>(k.link.correlation), 0))
        .OptionalInt(10, Present(k.link.external_id, -1));
    // Launch configuration: NULL when the trace did not record it.
    const bool has_grid = !k.grid.empty(), has_block = !k.block.empty();
    insert.OptionalInt(11, has_grid ? std::optional<int64_t>(k.grid.x) : std::nullopt)
        .OptionalInt(12, has_grid ? std::optional<int64_t>(k.grid.y) : std::nullopt)
        .OptionalInt(13, has_grid ? std::optional<int64_t>(k.grid.z) : std::nullopt)
        .OptionalInt(14, has_block ? std::optional<int64_t>(k.block.x) : std::nullopt)
        .OptionalInt(15, has_block ? std::optional<int64_t>(k.block.y) : std::nullopt)
        .OptionalInt(16, has_block ? std::optional<int64_t>(k.block.z) : std::nullopt)
        .OptionalInt(17, Present(k.registers_per_thread, 0))
        .OptionalInt(18, Present(k.shared_memory_bytes, 0))
        .OptionalInt(19, Present(k.accum_registers_per_thread, 0))
        .OptionalInt(20, Present(k.scalar_registers, 0))
        .OptionalInt(21, Present(k.wave_size, 0))
        .OptionalInt(22, Present(k.achieved_occupancy_percent, -1));
    const WorkLink link = i < links.kernels.size() ? links.kernels[i] : WorkLink{};
    BindLink(insert, 23, link);
    insert.Int(27, link.graph ? 1 : 0).Insert();
  }
}

void WriteMemcpy(Database& db, const Trace& trace, const TraceLinks& links,
                 const StreamIds& streams) {
  Statement insert(&db,
                   "INSERT INTO memcpy VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                   "?13, ?14, ?15, ?16)");
  for (size_t i = 0; i < trace.transfers.size(); ++i) {
    const Transfer& t = trace.transfers[i];
    insert.Int(1, static_cast<int64_t>(i))
        .Text(2, t.kind == TransferKind::kMemset ? "memset" : "memcpy")
        .Text(3, trace.str(t.name))
        .OptionalInt(
            4, t.device < trace.devices.size() ? std::optional<int64_t>(t.device) : std::nullopt)
        .Int(5, t.stream)
        .Int(6, streams.transfers[i])
        .Int(7, t.start_ns)
        .Int(8, t.start_ns + t.duration_ns)
        .Int(9, t.duration_ns)
        .Int(10, static_cast<int64_t>(t.bytes))
        .OptionalInt(11, Present(static_cast<int64_t>(t.link.correlation), 0))
        .OptionalInt(12, Present(t.link.external_id, -1));
    BindLink(insert, 13, i < links.transfers.size() ? links.transfers[i] : WorkLink{});
    insert.Insert();
  }
}

void WriteKernelCounters(Database& db, const Trace& trace) {
  Statement insert(&db, "INSERT INTO kernel_counters VALUES (?1, ?2, ?3, ?4, ?5)");
  for (const KernelCounters& counters : trace.kernel_counters) {
    if (counters.kernel >= trace.kernels.size()) continue;  // no kernel row to refer to
    const int64_t kernel_id = counters.kernel;
    for (const CounterValue& metric : counters.metrics) {
      insert.Int(1, kernel_id)
          .Text(2, trace.str(metric.section))
          .Text(3, trace.str(metric.name))
          .Text(4, trace.str(metric.unit))
          .Real(5, metric.value)
          .Insert();
    }
    // The values the importer derived from the metrics (FLOPs per precision, DRAM bytes, ...).
    const auto derived = [&](const char* name, const char* unit, std::optional<double> value) {
      if (!value) return;
      insert.Int(1, kernel_id).Text(2, "derived").Text(3, name).Text(4, unit).Real(5, *value);
      insert.Insert();
    };
    derived("fp64_flops", "flop", counters.fp64_flops);
    derived("fp32_flops", "flop", counters.fp32_flops);
    derived("fp16_flops", "flop", counters.fp16_flops);
    derived("tensor_ops", "op", counters.tensor_ops);
    derived("dram_bytes", "byte", counters.dram_bytes);
    derived("achieved_occupancy_percent", "%", counters.achieved_occupancy_percent);
    if (counters.registers_per_thread)
      derived("registers_per_thread", "register", double(*counters.registers_per_thread));
    if (counters.shared_memory_bytes)
      derived("shared_memory_bytes", "byte", double(*counters.shared_memory_bytes));
  }
}

}  // namespace tensormorph::sqlite_export
