#include "import/rocprof/common/kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

namespace tensormorph::rocprof {
namespace {

// A non-negative integer field, 0 when absent, empty, "None" (v1's missing value) or unreadable.
uint64_t Count(const CsvRecord& row, size_t column) {
  if (column == kMissing) return 0;
  std::optional<int64_t> v = ParseInt(row.at(column));
  return v && *v > 0 ? static_cast<uint64_t>(*v) : 0;
}

template <typename T>
T Clamp(uint64_t v) {
  return static_cast<T>(std::min<uint64_t>(v, std::numeric_limits<T>::max()));
}

// Workgroups along one dimension: ceil(work-items / workgroup size).
uint32_t Workgroups(uint64_t work_items, uint64_t workgroup) {
  if (workgroup == 0) return Clamp<uint32_t>(work_items);
  return Clamp<uint32_t>((work_items + workgroup - 1) / workgroup);
}

}  // namespace

void ReadLaunchConfiguration(const KernelColumns& c, const CsvRecord& row, Kernel* kernel) {
  Kernel& k = *kernel;
  const size_t stream = c.stream != kMissing ? c.stream : c.queue;
  if (stream != kMissing) {
    std::optional<int64_t> s = ParseInt(row.at(stream));
    if (s) k.stream = *s;
  }
  if (c.block_x != kMissing) {
    k.block = {Clamp<uint32_t>(Count(row, c.block_x)), Clamp<uint32_t>(Count(row, c.block_y)),
               Clamp<uint32_t>(Count(row, c.block_z))};
    k.grid = {Workgroups(Count(row, c.grid_x), k.block.x),
              Workgroups(Count(row, c.grid_y), k.block.y),
              Workgroups(Count(row, c.grid_z), k.block.z)};
  } else if (c.block_size != kMissing) {
    const uint64_t block = Count(row, c.block_size);
    k.block = {Clamp<uint32_t>(block), block > 0 ? 1u : 0u, block > 0 ? 1u : 0u};
    const uint64_t grid = Count(row, c.grid_size);
    if (grid > 0) k.grid = {Workgroups(grid, block), 1, 1};
  }
  k.shared_memory_bytes = Clamp<uint32_t>(Count(row, c.lds));
  k.registers_per_thread = Clamp<uint16_t>(Count(row, c.vgpr));
  k.accum_registers_per_thread = Clamp<uint16_t>(Count(row, c.accum_vgpr));
  k.scalar_registers = Clamp<uint16_t>(Count(row, c.sgpr));
  const uint64_t wave = Count(row, c.wave_size);
  k.wave_size = wave == 32 || wave == 64 ? static_cast<uint8_t>(wave) : 0;
}

Status ReadKernels(CsvFile* file, DeviceResolver* devices, Trace* trace, Warnings* warnings) {
  const Columns columns(file->header());
  const KernelColumns c(columns);
  if (c.start == kMissing || c.end == kMissing) {
    return UnreadableInput(
        "this rocprof kernel CSV has no start and end timestamps (rocprof v1 writes BeginNs / "
        "EndNs only with --timestamp on); profile again with timestamps",
        SourcePosition{1, 1});
  }
  CsvRecord row;
  while (file->Next(&row, warnings)) {
    if (c.kind != kMissing && row.at(c.kind) != "KERNEL_DISPATCH") {
      ++trace->counts.other;
      continue;
    }
    int64_t start_ns = 0, duration_ns = 0;
    if (!ReadRowSpan(*file, row, c.start, c.end, trace, warnings, &start_ns, &duration_ns)) {
      continue;
    }
    Kernel k;
    k.start_ns = start_ns;
    k.duration_ns = duration_ns;
    k.name = trace->strings.Intern(row.at(c.name));
    if (c.agent == kMissing) {
      k.device = devices->Unrecorded();
    } else {
      // Every kernel ran on a GPU agent; a row naming none (damaged text, a CPU agent) cannot be
      // placed, and a kernel without a device would be counted on none (found by fuzzing).
      k.device = devices->Resolve(row.at(c.agent));
      if (k.device == kNoDevice) {
        warnings->Row(file->path(), row.line,
                      fmt::format("agent '{}' is not a GPU agent: row skipped",
                                  row.at(c.agent).substr(0, 40)));
        ++trace->counts.skipped;
        continue;
      }
    }
    if (c.correlation != kMissing) k.link.correlation = Count(row, c.correlation);
    ReadLaunchConfiguration(c, row, &k);
    trace->kernels.push_back(k);
    ++trace->counts.kernels;
  }
  return file->status();
}

V1DispatchRows::V1DispatchRows(const std::vector<std::string>& header, DeviceResolver* devices,
                               Trace* trace)
    : columns_(Columns(header)), devices_(devices), trace_(trace) {}

void V1DispatchRows::Add(const CsvRecord& row, std::string_view fallback_name) {
  const KernelColumns& c = columns_;
  const std::optional<int64_t> begin = ParseTimestamp(row.at(c.start));
  const std::optional<int64_t> end = ParseTimestamp(row.at(c.end));
  if (!begin || !end || *end < *begin) {
    ++bad_times_;
    ++trace_->counts.skipped;
    return;
  }
  Kernel k;
  k.start_ns = *begin;
  k.duration_ns = *end - *begin;
  k.device = devices_->Resolve(row.at(c.agent));
  if (k.device == kNoDevice) {
    ++not_gpu_;
    ++trace_->counts.skipped;
    return;
  }
  const std::string& name = row.at(c.name);
  k.name = trace_->strings.Intern(name.empty() ? fallback_name : std::string_view(name));
  ReadLaunchConfiguration(c, row, &k);
  trace_->kernels.push_back(k);
  ++trace_->counts.kernels;
}

void V1DispatchRows::AppendWarnings(const std::string& path) const {
  if (bad_times_ > 0) {
    trace_->warnings.push_back(fmt::format(
        "{}: {} dispatches without integer BeginNs/EndNs in order skipped", path, bad_times_));
  }
  if (not_gpu_ > 0) {
    trace_->warnings.push_back(
        fmt::format("{}: {} dispatches whose gpu-id names no GPU agent skipped", path, not_gpu_));
  }
}

}  // namespace tensormorph::rocprof
