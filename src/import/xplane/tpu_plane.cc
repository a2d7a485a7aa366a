// TPU planes ("/device:TPU:N", XProf / JAX on TPU). A TPU has no streams: its "XLA Ops" line
// holds the HLO instructions the TensorCore ran, one after another (copy-start and copy-done
// included), tiling the "XLA Modules" line's program runs. Each XLA Ops event becomes a kernel on
// stream 0, named by the instruction (the metadata's display_name, "fusion.12"; the full HLO
// text is the name). The other lines repeat or annotate that work and are counted, not read:
// "XLA Modules" (the program runs around the ops), "Async XLA Ops" (the async copies' spans in
// flight, from start to done: as kernels they would count the core busy while it ran other ops),
// "XLA TraceMe" (runtime waits and barriers), "Overlay".
//
// The device: backend other, vendor Google, named by the plane's device_type_string ("TPU v6
// Lite", Google's name for v6e); the plane's peak stats are kept in the metadata.
#include <fmt/format.h>

#include <charconv>

#include "import/xplane/event_stats.h"
#include "import/xplane/plane_readers.h"

namespace tensormorph::xplane {
namespace {

Device DescribeTpu(const xplane_pb::XPlane& plane, int32_t ordinal, Trace* trace) {
  const PlaneStats stats(plane);
  Device d;
  d.trace_id = ordinal;
  d.index = ordinal;
  d.backend = Backend::kOther;
  d.vendor = "Google";
  d.described = plane.stats_size() > 0;
  for (const xplane_pb::XStat& stat : plane.stats()) {
    const std::string_view name = stats.NameOf(stat);
    if (name == "device_type_string") {
      d.name = std::string(stats.Text(stat));
    } else if ((name == "peak_teraflops_per_second" ||
                name == "peak_hbm_bw_gigabytes_per_second") &&
               stat.value_case() == xplane_pb::XStat::kDoubleValue) {
      trace->metadata[fmt::format("tpu{}_{}", ordinal, name)] =
          fmt::format("{}", stat.double_value());
    }
  }
  if (d.name.empty()) d.name = "TPU";
  return d;
}

}  // namespace

std::optional<int32_t> TpuOrdinal(std::string_view plane_name) {
  constexpr std::string_view kPrefix = "/device:TPU:";
  if (!plane_name.starts_with(kPrefix)) return std::nullopt;
  plane_name.remove_prefix(kPrefix.size());
  int32_t n = -1;
  const auto [end, ec] =
      std::from_chars(plane_name.data(), plane_name.data() + plane_name.size(), n);
  if (ec != std::errc() || end != plane_name.data() + plane_name.size() || n < 0) {
    return std::nullopt;
  }
  return n;
}

void ReadTpuPlane(const xplane_pb::XPlane& plane, int32_t ordinal, ReadState* state) {
  Trace& trace = *state->trace;
  const PlaneStats stats(plane);
  uint32_t device = kNoDevice;  // created on the first op: Trace::devices holds devices that ran
  for (const xplane_pb::XLine& line : plane.lines()) {
    if (line.name() != "XLA Ops") {
      trace.counts.other += static_cast<uint64_t>(line.events_size());
      state->tpu_lines_not_read += static_cast<uint64_t>(line.events_size());
      continue;
    }
    for (const xplane_pb::XEvent& event : line.events()) {
      const std::optional<LineEvent> read = ReadLineEvent(plane, line, event, stats, state);
      if (!read) continue;
      if (device == kNoDevice) {
        device = static_cast<uint32_t>(trace.devices.size());
        trace.devices.push_back(DescribeTpu(plane, ordinal, &trace));
      }
      Kernel k;
      k.start_ns = read->span.start_ns;
      k.duration_ns = read->span.duration_ns;
      const bool display = read->metadata != nullptr && !read->metadata->display_name().empty();
      k.name = trace.strings.Intern(display ? std::string_view(read->metadata->display_name())
                                            : read->name);
      k.device = device;
      k.stream = 0;
      trace.kernels.push_back(k);
      ++trace.counts.kernels;
      ++state->tpu_ops;
    }
  }
}

}  // namespace tensormorph::xplane
