#include "report/memory_report.h"

#include <fmt/format.h>

#include "model/time.h"
#include "report/csv.h"
#include "report/json_output.h"

namespace tensormorph {
namespace {

// 1.945 GiB, 312.5 MiB, 4.0 KiB, 512 B (binary units, as allocators and nvidia-smi count).
std::string Size(int64_t bytes) {
  const double b = static_cast<double>(bytes), magnitude = b < 0 ? -b : b;
  if (magnitude >= 1073741824.0) return fmt::format("{:.3f} GiB", b / 1073741824.0);
  if (magnitude >= 1048576.0) return fmt::format("{:.1f} MiB", b / 1048576.0);
  if (magnitude >= 1024.0) return fmt::format("{:.1f} KiB", b / 1024.0);
  return fmt::format("{} B", bytes);
}

std::optional<double> PercentOfCapacity(const DeviceMemory& d) {
  if (!d.capacity_bytes || *d.capacity_bytes <= 0) return std::nullopt;
  return 100.0 * static_cast<double>(d.peak_allocated_bytes) /
         static_cast<double>(*d.capacity_bytes);
}

// "Qwen2Model_0 > Qwen2MLP_23 > aten::mul": the op under its module path.
std::string QualifiedOp(const MemoryOpRow& r) {
  return r.module.empty() ? r.op : r.module + " > " + r.op;
}

Json OpRowsJson(const std::vector<MemoryOpRow>& rows) {
  Json out = Json::array();
  for (const MemoryOpRow& r : rows) {
    out.push_back({{"op", r.op},
                   {"module", OrNull(r.module)},
                   {"bytes", r.bytes},
                   {"allocations", r.allocations}});
  }
  return out;
}

Json DeviceJson(const DeviceMemory& d) {
  Json largest = Json::array();
  for (const MemoryAllocation& a : d.largest) {
    largest.push_back({{"ts_ns", a.ts_ns},
                       {"bytes", a.bytes},
                       {"address", a.address},
                       {"op", a.op},
                       {"module", OrNull(a.module)},
                       {"freed_ns", OrNull(a.freed_ns)}});
  }
  Json steps = Json::array();
  for (const MemoryStep& s : d.steps) {
    steps.push_back({{"step", s.step},
                     {"start_ns", s.start_ns},
                     {"end_ns", s.end_ns},
                     {"allocated_start_bytes", s.allocated_start_bytes},
                     {"allocated_end_bytes", s.allocated_end_bytes},
                     {"growth_bytes", s.allocated_end_bytes - s.allocated_start_bytes},
                     {"reserved_start_bytes", OrNull(s.reserved_start_bytes)},
                     {"reserved_end_bytes", OrNull(s.reserved_end_bytes)}});
  }
  return {{"input", d.input},
          {"device", d.device},
          {"device_index", OrNull(d.device_index)},
          {"basis", d.basis},
          {"records", d.records},
          {"allocations", d.allocations},
          {"frees", d.frees},
          {"allocated_bytes", d.allocated_bytes},
          {"freed_bytes", d.freed_bytes},
          {"allocated_before_bytes", d.allocated_before_bytes},
          {"peak_allocated_bytes", d.peak_allocated_bytes},
          {"peak_allocated_ns", d.peak_allocated_ns},
          {"peak_reserved_bytes", OrNull(d.peak_reserved_bytes)},
          {"peak_reserved_ns", OrNull(d.peak_reserved_ns)},
          {"reserved_at_peak_bytes", OrNull(d.reserved_at_peak_bytes)},
          {"reserved_beyond_peak_allocated_bytes", OrNull(ReservedBeyondPeakAllocated(d))},
          {"alive_from_before_bytes", d.alive_from_before_bytes},
          {"capacity_bytes", OrNull(d.capacity_bytes)},
          {"capacity_source", OrNull(d.capacity_source)},
          {"peak_percent_of_capacity", OrNull(PercentOfCapacity(d))},
          {"at_peak", OpRowsJson(d.at_peak)},
          {"at_peak_ops", d.at_peak_ops},
          {"alive_at_end", OpRowsJson(d.alive_at_end)},
          {"alive_at_end_ops", d.alive_at_end_ops},
          {"by_op", OpRowsJson(d.by_op)},
          {"by_op_ops", d.by_op_ops},
          {"largest", std::move(largest)},
          {"steps", std::move(steps)}};
}

void PrintTable(std::ostream& out, const std::vector<const Trace*>& traces,
                const MemoryResult& result) {
  if (result.devices.empty()) {
    out << "No allocator records: profile with profile_memory=True (PyTorch profiler) to record "
           "them.\n";
    return;
  }
  for (const DeviceMemory& d : result.devices) {
    out << fmt::format("input {} {}: {} records ({}; {} allocations, {} frees)\n", d.input,
                       d.device, d.records, d.basis, d.allocations, d.frees);
    const std::optional<double> percent = PercentOfCapacity(d);
    const int64_t t0 = traces[static_cast<size_t>(d.input)]->span_start_ns;
    out << fmt::format("  peak allocated  {} at {} into the trace{}\n",
                       Size(d.peak_allocated_bytes),
                       FormatDuration(static_cast<double>(d.peak_allocated_ns - t0)),
                       percent ? fmt::format(" ({:.1f} % of {}, {})", *percent,
                                             Size(*d.capacity_bytes), d.capacity_source)
                               : "");
    if (d.peak_reserved_bytes && *d.peak_reserved_bytes > 0) {
      out << fmt::format(
          "  peak reserved   {}; reserved at the allocated peak {} ({} not "
          "allocated)\n",
          Size(*d.peak_reserved_bytes), Size(d.reserved_at_peak_bytes.value_or(0)),
          Size(d.reserved_at_peak_bytes.value_or(0) - d.peak_allocated_bytes));
    }
    if (const std::optional<int64_t> beyond = ReservedBeyondPeakAllocated(d);
        beyond && *d.peak_reserved_bytes > 0) {
      out << fmt::format(
          "  reserved beyond the allocated peak {} ({:.1f} % of the reserved peak)\n",
          Size(*beyond),
          100.0 * static_cast<double>(*beyond) / static_cast<double>(*d.peak_reserved_bytes));
    }
    if (d.basis == "allocator totals") {
      out << fmt::format("  before the trace {} allocated; {} of it alive at the peak\n",
                         Size(d.allocated_before_bytes), Size(d.alive_from_before_bytes));
    }
    out << "  alive at the peak, by op:\n";
    for (const MemoryOpRow& r : d.at_peak) {
      out << fmt::format("    {:>12}  {:>6} allocations  {}\n", Size(r.bytes), r.allocations,
                         QualifiedOp(r));
    }
    out << "  allocated, by op:\n";
    for (const MemoryOpRow& r : d.by_op) {
      out << fmt::format("    {:>12}  {:>6} allocations  {}\n", Size(r.bytes), r.allocations,
                         QualifiedOp(r));
    }
    for (const MemoryStep& s : d.steps) {
      const int64_t growth = s.allocated_end_bytes - s.allocated_start_bytes;
      out << fmt::format("  step {}: {} -> {} ({}{})\n", s.step, Size(s.allocated_start_bytes),
                         Size(s.allocated_end_bytes), growth >= 0 ? "+" : "", Size(growth));
    }
    out << '\n';
  }
  if (result.skipped > 0) {
    out << fmt::format(
        "{} [memory] records without readable Bytes, Device Type or Device Id were "
        "skipped\n",
        result.skipped);
  }
}

}  // namespace

Json MemoryDocument(const std::vector<const Trace*>& traces, const MemoryResult& result) {
  Json devices = Json::array();
  for (const DeviceMemory& d : result.devices) devices.push_back(DeviceJson(d));
  return {{"schema", "tensormorph.memory/1"},
          {"inputs", DescribeInputs(traces)},
          {"records", result.records},
          {"skipped", result.skipped},
          {"devices", std::move(devices)}};
}

void RenderMemory(std::ostream& out, const std::vector<const Trace*>& traces,
                  const MemoryResult& result, OutputFormat format) {
  RenderAs(
      format, [&] { PrintTable(out, traces, result); },
      [&] { WriteJson(out, MemoryDocument(traces, result)); },
      [&] {
        WriteCsvRow(out, {"input", "device", "basis", "records", "allocations", "frees",
                          "peak_allocated_bytes", "peak_allocated_ns", "peak_reserved_bytes",
                          "capacity_bytes", "peak_percent_of_capacity", "allocated_before_bytes"});
        for (const DeviceMemory& d : result.devices) {
          const std::optional<double> percent = PercentOfCapacity(d);
          WriteCsvRow(
              out, {std::to_string(d.input), d.device, d.basis, std::to_string(d.records),
                    std::to_string(d.allocations), std::to_string(d.frees),
                    std::to_string(d.peak_allocated_bytes), std::to_string(d.peak_allocated_ns),
                    d.peak_reserved_bytes ? std::to_string(*d.peak_reserved_bytes) : "",
                    d.capacity_bytes ? std::to_string(*d.capacity_bytes) : "",
                    percent ? CsvNumber(*percent) : "", std::to_string(d.allocated_before_bytes)});
        }
      });
}

Json WorkloadMemoryJson(const WorkloadMemory& memory, const std::vector<MemoryFit>& fits) {
  Json rows = Json::array();
  for (const MemoryFit& fit : fits) {
    rows.push_back({{"device", fit.device},
                    {"capacity_bytes", OrNull(fit.capacity_bytes)},
                    {"fits", OrNull(fit.fits)},
                    {"percent_of_capacity", OrNull(fit.percent_of_capacity)}});
  }
  return {{"peak_allocated_bytes", memory.peak_allocated_bytes},
          {"peak_reserved_bytes", OrNull(memory.peak_reserved_bytes)},
          {"basis", memory.basis},
          {"device", memory.device},
          {"fits", std::move(rows)},
          {"text", DescribeMemoryFits(memory, fits)}};
}

}  // namespace tensormorph
