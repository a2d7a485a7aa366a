#include "analysis/timeline/copies.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

namespace tensormorph {
namespace {

using CopyKey = std::tuple<TransferKind, CopyDirection, MemoryKind, MemoryKind>;

// The link peak of one kind of copy on a matched device, or the reason there is none.
void ResolvePeak(const DeviceSpec& spec, CopyBandwidth* copy) {
  const double per_device = std::max(spec.devices_per_package, 1);
  auto from = [&](Metric metric, double share, const char* how) {
    const std::optional<Figure>& figure = spec.Get(metric);
    if (!figure) {
      copy->no_peak_reason = fmt::format("{} has no {} figure", spec.key, MetricName(metric));
      return;
    }
    copy->peak_bytes_per_s = figure->value * share / per_device;
    copy->peak_source = fmt::format(
        "{}: {} {}", figure->confidence == Confidence::kSpecFile ? "device spec" : "database",
        spec.key, how);
  };
  if (copy->kind == TransferKind::kMemset) {
    from(Metric::kMemoryBandwidthBytesPerS, 1.0, "memory_bandwidth_bytes_per_s");
    return;
  }
  switch (copy->direction) {
    case CopyDirection::kHostToDevice:
    case CopyDirection::kDeviceToHost:
      from(Metric::kHostLinkBytesPerS, 1.0, "host_link_bytes_per_s");
      return;
    case CopyDirection::kDeviceToDevice:
      from(Metric::kMemoryBandwidthBytesPerS, 0.5, "memory_bandwidth_bytes_per_s / 2");
      return;
    case CopyDirection::kHostToHost:
    case CopyDirection::kPeerToPeer:
    case CopyDirection::kUnknown:
      break;
  }
  copy->no_peak_reason = "no link figure for this kind of copy";
}

}  // namespace

std::vector<CopyBandwidth> MeasureCopies(const Trace& trace, uint32_t device,
                                         const std::vector<WorkItem>& work,
                                         const std::vector<DeviceSpec>& devices) {
  std::map<CopyKey, CopyBandwidth> by_key;
  for (const WorkItem& w : work) {
    if (w.kind == WorkKind::kKernel) continue;
    const Transfer& t = trace.transfers[w.row];
    CopyBandwidth& copy = by_key[{t.kind, t.direction, t.src_memory, t.dst_memory}];
    copy.kind = t.kind;
    copy.direction = t.direction;
    copy.src_memory = t.src_memory;
    copy.dst_memory = t.dst_memory;
    ++copy.count;
    copy.bytes += t.bytes;
    copy.duration_ns += t.duration_ns;
  }
  if (by_key.empty()) return {};
  const Device* d = device < trace.devices.size() ? &trace.devices[device] : nullptr;
  DeviceMatch match;  // an unnamed device by its hardware alone (MatchTraceDevice)
  if (d != nullptr) {
    match = MatchTraceDevice(devices, *d);
  } else {
    match.reason = "the trace does not say which device ran the copies";
  }
  std::vector<CopyBandwidth> copies;
  for (auto& entry : by_key) {
    CopyBandwidth& copy = entry.second;
    if (copy.duration_ns > 0) {
      copy.bytes_per_s = static_cast<double>(copy.bytes) / (copy.duration_ns * 1e-9);
    }
    if (match.matched()) {
      ResolvePeak(*match.spec, &copy);
    } else {
      copy.no_peak_reason = d == nullptr || d->name.empty()
                                ? match.reason
                                : fmt::format("device '{}' not in the device database", d->name);
    }
    if (copy.bytes_per_s && copy.peak_bytes_per_s && *copy.peak_bytes_per_s > 0) {
      copy.percent_of_peak = 100 * *copy.bytes_per_s / *copy.peak_bytes_per_s;
    }
    copies.push_back(std::move(copy));
  }
  return copies;
}

}  // namespace tensormorph
