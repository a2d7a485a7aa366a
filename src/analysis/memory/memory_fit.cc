#include "tensormorph/analysis/memory/memory_fit.h"

#include <fmt/format.h>

#include "tensormorph/analysis/memory/memory.h"

namespace tensormorph {
namespace {

std::string Gib(int64_t bytes) {
  return fmt::format("{:.3g} GiB", static_cast<double>(bytes) / 1073741824.0);
}

}  // namespace

std::optional<WorkloadMemory> WorkloadPeak(const LinkedTrace& linked,
                                           const std::vector<DeviceSpec>& devices) {
  MemoryQuery query;
  query.devices = &devices;
  query.peaks_only = true;
  const MemoryResult result = AnalyzeMemory({&linked}, query);
  std::optional<WorkloadMemory> out;
  for (const DeviceMemory& d : result.devices) {
    if (d.device == "cpu") continue;  // host memory: not the accelerator's
    if (out && d.peak_allocated_bytes <= out->peak_allocated_bytes) continue;
    out = WorkloadMemory{d.peak_allocated_bytes, d.peak_reserved_bytes, d.basis, d.device};
  }
  return out;
}

std::optional<int64_t> SpecCapacity(const DeviceSpec& spec) {
  const std::optional<Figure>& memory = spec.Get(Metric::kMemoryBytes);
  if (!memory || memory->value <= 0) return std::nullopt;
  return static_cast<int64_t>(memory->value / spec.devices_per_package);
}

std::optional<int64_t> TraceDeviceCapacity(const Trace& trace, uint32_t device,
                                           const std::vector<DeviceSpec>& devices) {
  if (device >= trace.devices.size()) return std::nullopt;
  const Device& d = trace.devices[device];
  if (d.total_memory_bytes > 0) return d.total_memory_bytes;
  const DeviceMatch match = MatchTraceDevice(devices, d);
  return match.matched() ? SpecCapacity(*match.spec) : std::nullopt;
}

MemoryFit FitMemory(const WorkloadMemory& memory, std::string device,
                    std::optional<int64_t> capacity_bytes) {
  MemoryFit fit;
  fit.device = std::move(device);
  fit.capacity_bytes = capacity_bytes;
  if (capacity_bytes && *capacity_bytes > 0) {
    fit.fits = memory.peak_allocated_bytes <= *capacity_bytes;
    fit.percent_of_capacity = 100.0 * static_cast<double>(memory.peak_allocated_bytes) /
                              static_cast<double>(*capacity_bytes);
  }
  return fit;
}

std::string DescribeMemoryFits(const WorkloadMemory& memory, const std::vector<MemoryFit>& fits) {
  std::string text =
      fmt::format("needs {}{} at peak (allocated", memory.basis == "running sum" ? "at least " : "",
                  Gib(memory.peak_allocated_bytes));
  if (memory.peak_reserved_bytes)
    text += fmt::format("; {} reserved", Gib(*memory.peak_reserved_bytes));
  text += ")";
  const char* separator = ": ";
  for (const MemoryFit& fit : fits) {
    text += separator;
    separator = ", ";
    if (!fit.fits) {
      text += fmt::format("{} (capacity unknown)", fit.device);
    } else if (*fit.fits) {
      text += fmt::format("fits {} ({}, {:.1f} %)", fit.device, Gib(*fit.capacity_bytes),
                          *fit.percent_of_capacity);
    } else {
      text += fmt::format("not {} ({})", fit.device, Gib(*fit.capacity_bytes));
    }
  }
  return text;
}

}  // namespace tensormorph
