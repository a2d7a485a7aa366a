#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "import/rocpd/readers.h"
#include "import/rocprof/compute/work.h"
#include "model/trace_order.h"

namespace tensormorph::rocpd {
namespace {

template <typename T>
T Clamp(int64_t v) {
  if (v <= 0) return 0;
  return static_cast<T>(
      std::min<uint64_t>(static_cast<uint64_t>(v), std::numeric_limits<T>::max()));
}

uint32_t Workgroups(int64_t items, uint32_t group) {
  if (items <= 0) return 0;
  if (group == 0) return Clamp<uint32_t>(items);
  return Clamp<uint32_t>((items - 1) / group + 1);
}

struct DispatchRow {
  Kernel kernel;
  int64_t dispatch_id = 0;
  std::map<std::string, double, std::less<>> counters;
};

std::string DispatchQuery(const RocpdSchema& s) {
  std::vector<std::string> list;
  for (std::string_view column :
       {"guid", "pid", "agent_id", "queue_id", "stream_id", "start", "end", "dispatch_id",
        "kernel_id", "event_id", "group_segment_size", "workgroup_size_x", "workgroup_size_y",
        "workgroup_size_z", "grid_size_x", "grid_size_y", "grid_size_z"}) {
    list.push_back(ColumnOrNull(s, kDispatches, "K", column, sqlite::QuoteIdentifier(column)));
  }
  std::string joins;
  const bool symbols = s.Has(kKernelSymbols) && s.HasColumn(kKernelSymbols, "id");
  for (std::string_view column :
       {"display_name", "kernel_name", "arch_vgpr_count", "accum_vgpr_count", "sgpr_count"}) {
    list.push_back(symbols ? ColumnOrNull(s, kKernelSymbols, "S", column, column)
                           : fmt::format("NULL AS {}", column));
  }
  if (symbols) {
    joins += fmt::format(" LEFT JOIN {} AS S ON {}", s.Source(kKernelSymbols),
                         JoinOn(s, kKernelSymbols, "S", kDispatches, "K", "kernel_id"));
  }
  const bool events =
      s.Has(kEvents) && s.HasColumn(kEvents, "id") && s.HasColumn(kDispatches, "event_id");
  list.push_back(events ? ColumnOrNull(s, kEvents, "E", "stack_id", "stack_id")
                        : "NULL AS stack_id");
  if (events) {
    joins += fmt::format(" LEFT JOIN {} AS E ON {}", s.Source(kEvents),
                         JoinOn(s, kEvents, "E", kDispatches, "K", "event_id"));
  }
  std::string select;
  for (const std::string& item : list) select += (select.empty() ? "" : ", ") + item;
  return fmt::format("SELECT {} FROM {} AS K{}", select, s.Source(kDispatches), joins);
}

// Sums rocpd_pmc_event values per (dispatch event, counter name) into the rows.
Status ReadCounters(Context& c, const std::map<std::pair<std::string, int64_t>, size_t>& by_event,
                    std::vector<DispatchRow>* rows) {
  const RocpdSchema& s = c.schema;
  if (!s.Has(kPmcEvents) || !s.HasColumn(kPmcEvents, "event_id") || by_event.empty()) {
    return Status::Ok();
  }
  TM_RETURN_IF_ERROR(RequireColumns(s, kPmcEvents, {"pmc_id", "value"}));
  const bool info = s.Has(kPmcInfo) && s.HasColumn(kPmcInfo, "id");
  std::string sql = fmt::format(
      "SELECT {}, P.event_id AS event_id, P.value AS value, {}, P.pmc_id AS pmc_id FROM {} AS P",
      ColumnOrNull(s, kPmcEvents, "P", "guid", "guid"),
      info ? ColumnOrNull(s, kPmcInfo, "I", "name", "name") : "NULL AS name", s.Source(kPmcEvents));
  if (info) {
    sql += fmt::format(" LEFT JOIN {} AS I ON {}", s.Source(kPmcInfo),
                       JoinOn(s, kPmcInfo, "I", kPmcEvents, "P", "pmc_id"));
  }
  if (s.HasColumn(kPmcEvents, "sample_id")) sql += " WHERE P.sample_id IS NULL";
  TM_ASSIGN_OR_RETURN(Statement pmc, c.db.Prepare(sql, "table rocpd_pmc_event"));
  uint64_t row = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, pmc.Step());
    if (!more) break;
    ++row;
    auto it = by_event.find({std::string(pmc.Text(0).value_or("")), pmc.IntOr(1, -1)});
    if (it == by_event.end()) continue;  // not a dispatch's counter (KFD events have regions)
    std::optional<double> value = pmc.Real(2);
    if (!value || !std::isfinite(*value)) {
      c.checks.Skip(kPmcEvents, row, "a counter value that is not a finite number");
      continue;
    }
    std::string name(pmc.Text(3).value_or(""));
    if (name.empty()) name = fmt::format("pmc {}", pmc.IntOr(4, -1));
    (*rows)[it->second].counters[name] += *value;
  }
  return Status::Ok();
}

// The dispatch's counters as KernelCounters: every counter in metrics, and the FLOPs and bytes
// rocprof-compute's roofline formulas give from them (compute/work.h).
KernelCounters CountersOf(const DispatchRow& row, const Trace& trace, StringPool* strings) {
  KernelCounters k;
  k.source = CounterSource::kRocpd;
  const StringId section = strings->Intern("rocpd pmc");
  for (const auto& [name, value] : row.counters) {
    k.metrics.push_back({section, strings->Intern(name), 0, value});
  }
  rocprof::compute::SystemInfo info;
  const Device* device =
      row.kernel.device < trace.devices.size() ? &trace.devices[row.kernel.device] : nullptr;
  if (device != nullptr && device->sm_count > 0) info.cu_per_gpu = device->sm_count;
  if (device != nullptr) info.gpu_arch = device->arch;
  const rocprof::compute::CounterWork work = rocprof::compute::ComputeCounterWork(
      [&row](std::string_view name) -> std::optional<double> {
        auto it = row.counters.find(name);
        return it == row.counters.end() ? std::nullopt : std::optional<double>(it->second);
      },
      &info);
  rocprof::compute::AddCounterWork(work, strings, &k);
  return k;
}

}  // namespace

Status ReadDispatches(Context& c) {
  const RocpdSchema& s = c.schema;
  if (!s.Has(kDispatches)) return Status::Ok();
  TM_RETURN_IF_ERROR(RequireColumns(s, kDispatches, {"agent_id", "start", "end"}));
  TM_ASSIGN_OR_RETURN(Statement q, c.db.Prepare(DispatchQuery(s), "table rocpd_kernel_dispatch"));
  std::vector<DispatchRow> rows;
  std::map<std::pair<std::string, int64_t>, size_t> by_event;
  uint64_t row = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, q.Step());
    if (!more) break;
    ++row;
    DispatchRow d;
    Kernel& k = d.kernel;
    if (!c.checks.Span(kDispatches, row, q.Int(q.Index("start")), q.Int(q.Index("end")),
                       &k.start_ns, &k.duration_ns)) {
      continue;
    }
    const std::string guid(q.Text(q.Index("guid")).value_or(""));
    const uint32_t process = c.processes.Of(guid, q.IntOr(q.Index("pid"), 0));
    std::optional<int64_t> agent = q.Int(q.Index("agent_id"));
    k.device = agent ? c.processes.Device(process, *agent) : kNoDevice;
    if (k.device == kNoDevice) {
      c.checks.Skip(kDispatches, row, agent ? "its agent is not a GPU" : "no agent_id");
      continue;
    }
    std::string name(q.Text(q.Index("display_name")).value_or(""));
    if (name.empty()) name = q.Text(q.Index("kernel_name")).value_or("");
    if (name.empty()) name = fmt::format("kernel {}", q.IntOr(q.Index("kernel_id"), -1));
    k.name = c.trace.strings.Intern(name);
    std::optional<int64_t> stream = q.Int(q.Index("stream_id"));
    if (!stream) stream = q.Int(q.Index("queue_id"));
    if (stream) k.stream = *stream;
    k.link.correlation = Processes::Correlation(process, q.IntOr(q.Index("stack_id"), 0));
    k.block = {Clamp<uint32_t>(q.IntOr(q.Index("workgroup_size_x"), 0)),
               Clamp<uint32_t>(q.IntOr(q.Index("workgroup_size_y"), 0)),
               Clamp<uint32_t>(q.IntOr(q.Index("workgroup_size_z"), 0))};
    k.grid = {Workgroups(q.IntOr(q.Index("grid_size_x"), 0), k.block.x),
              Workgroups(q.IntOr(q.Index("grid_size_y"), 0), k.block.y),
              Workgroups(q.IntOr(q.Index("grid_size_z"), 0), k.block.z)};
    k.shared_memory_bytes = Clamp<uint32_t>(q.IntOr(q.Index("group_segment_size"), 0));
    k.registers_per_thread = Clamp<uint16_t>(q.IntOr(q.Index("arch_vgpr_count"), 0));
    k.accum_registers_per_thread = Clamp<uint16_t>(q.IntOr(q.Index("accum_vgpr_count"), 0));
    k.scalar_registers = Clamp<uint16_t>(q.IntOr(q.Index("sgpr_count"), 0));
    d.dispatch_id = q.IntOr(q.Index("dispatch_id"), 0);
    if (std::optional<int64_t> event = q.Int(q.Index("event_id"))) {
      by_event.emplace(std::make_pair(guid, *event), rows.size());
    }
    rows.push_back(std::move(d));
    ++c.trace.counts.kernels;
  }
  TM_RETURN_IF_ERROR(ReadCounters(c, by_event, &rows));

  // The model's order, ties by dispatch id, so that kernel_counters can follow their kernels.
  std::stable_sort(rows.begin(), rows.end(), [&](const DispatchRow& a, const DispatchRow& b) {
    const Kernel &x = a.kernel, &y = b.kernel;
    return std::tie(x.device, x.stream, x.start_ns, x.duration_ns, a.dispatch_id) <
           std::tie(y.device, y.stream, y.start_ns, y.duration_ns, b.dispatch_id);
  });
  const bool counters = std::any_of(rows.begin(), rows.end(),
                                    [](const DispatchRow& r) { return !r.counters.empty(); });
  c.trace.kernels.reserve(rows.size());
  for (const DispatchRow& r : rows) {
    if (counters && !r.counters.empty()) {
      KernelCounters k = CountersOf(r, c.trace, &c.trace.strings);
      k.kernel = static_cast<uint32_t>(c.trace.kernels.size());
      c.trace.kernel_counters.push_back(std::move(k));
    }
    c.trace.kernels.push_back(r.kernel);
  }
  return Status::Ok();
}

}  // namespace tensormorph::rocpd
