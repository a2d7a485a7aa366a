// Device planes: one Device per "/device:GPU:N" plane that ran something, with its properties
// from the plane stats; kernels and copies from its "Stream #N(...)" lines.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "import/common/kernel_details.h"
#include "import/xplane/event_stats.h"
#include "import/xplane/plane_readers.h"

namespace tensormorph::xplane {
namespace {

constexpr int64_t kMaxAbsTimestampNs = int64_t{1} << 62;

// ps -> ns, rounded half away from zero.
__int128 RoundPicosToNanos(__int128 ps) {
  return ps >= 0 ? (ps + 500) / 1000 : -((-ps + 500) / 1000);
}

bool StartsWithNoCase(std::string_view text, std::string_view prefix) {
  if (text.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(text[i])) != prefix[i]) return false;
  }
  return true;
}

std::optional<int64_t> ParseDecimal(std::string_view text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return v;
}

// The device of a GPU plane, from the plane's stats (names observed in JAX 0.6 / 0.8 XSpaces:
// device_vendor, core_count, compute_cap_major/minor, memory_size, clock_rate in kHz,
// memory_bandwidth in B/s; the model has no field for the last two).
Device DescribeDevice(const xplane_pb::XPlane& plane, int32_t ordinal, ReadState* state) {
  const PlaneStats stats(plane);
  Device d;
  d.trace_id = ordinal;
  d.index = ordinal;
  d.described = plane.stats_size() > 0;
  std::string_view vendor;
  for (const xplane_pb::XStat& stat : plane.stats()) {
    const std::string_view name = stats.NameOf(stat);
    const int64_t value = stats.Integer(stat).value_or(0);
    if (name == "device_vendor") {
      vendor = stats.Text(stat);
    } else if (name == "core_count") {
      d.sm_count = static_cast<int32_t>(std::clamp<int64_t>(value, 0, INT32_MAX));
    } else if (name == "compute_cap_major") {
      d.compute_major = static_cast<int32_t>(std::clamp<int64_t>(value, 0, INT32_MAX));
    } else if (name == "compute_cap_minor") {
      d.compute_minor = static_cast<int32_t>(std::clamp<int64_t>(value, 0, INT32_MAX));
    } else if (name == "memory_size") {
      d.total_memory_bytes = std::max<int64_t>(value, 0);
    } else if (name == "device_name" || name == "device_type_name") {
      d.name = std::string(stats.Text(stat));
    }
  }
  if (StartsWithNoCase(vendor, "amd")) {
    d.backend = Backend::kRocm;
    d.vendor = "AMD";
  } else if (StartsWithNoCase(vendor, "nvidia") || (vendor.empty() && d.compute_major > 0)) {
    // TensorFlow's XSpaces leave device_vendor empty on NVIDIA GPUs but give the CUDA compute
    // capability, which only NVIDIA devices have (ROCm planes name their vendor).
    d.backend = Backend::kCuda;
    d.vendor = "NVIDIA";
  } else {
    d.backend = Backend::kOther;
    d.vendor = std::string(vendor);
    state->unknown_vendors.push_back(
        fmt::format("{}: device_vendor \"{}\"", plane.name(), vendor.empty() ? "" : vendor));
  }
  return d;
}

}  // namespace

std::optional<EventSpan> EventTimes(int64_t line_timestamp_ns, int64_t offset_ps,
                                    int64_t duration_ps, ReadState* state) {
  const __int128 start_ps = static_cast<__int128>(line_timestamp_ns) * 1000 + offset_ps;
  const __int128 start_ns = RoundPicosToNanos(start_ps);
  if (start_ns > kMaxAbsTimestampNs || start_ns < -kMaxAbsTimestampNs) {
    ++state->out_of_range;
    return std::nullopt;
  }
  EventSpan span;
  span.start_ns = static_cast<int64_t>(start_ns);
  if (duration_ps < 0) {
    ++state->negative_durations;
    duration_ps = 0;
  }
  span.duration_ns = static_cast<int64_t>(RoundPicosToNanos(duration_ps));
  return span;
}

std::optional<LineEvent> ReadLineEvent(const xplane_pb::XPlane& plane, const xplane_pb::XLine& line,
                                       const xplane_pb::XEvent& event, const PlaneStats& stats,
                                       ReadState* state) {
  if (event.data_case() == xplane_pb::XEvent::kNumOccurrences) {
    ++state->aggregated_events;
    ++state->trace->counts.skipped;
    return std::nullopt;
  }
  LineEvent out;
  auto meta = plane.event_metadata().find(event.metadata_id());
  out.metadata = meta == plane.event_metadata().end() ? nullptr : &meta->second;
  const std::optional<EventSpan> span =
      EventTimes(line.timestamp_ns(), event.offset_ps(), event.duration_ps(), state);
  if (!span) {
    ++state->trace->counts.skipped;
    return std::nullopt;
  }
  out.span = *span;
  out.name = out.metadata != nullptr ? std::string_view(out.metadata->name()) : std::string_view();
  out.stats = ReadEventStats(stats, out.metadata, event);
  return out;
}

std::optional<int32_t> GpuOrdinal(std::string_view plane_name) {
  constexpr std::string_view kPrefix = "/device:GPU:";
  if (!plane_name.starts_with(kPrefix)) return std::nullopt;
  std::optional<int64_t> n = ParseDecimal(plane_name.substr(kPrefix.size()));
  if (!n || *n < 0 || *n > INT32_MAX) return std::nullopt;
  return static_cast<int32_t>(*n);
}

std::optional<int64_t> StreamNumber(std::string_view line_name) {
  constexpr std::string_view kPrefix = "Stream #";
  if (!line_name.starts_with(kPrefix)) return std::nullopt;
  line_name.remove_prefix(kPrefix.size());
  const size_t end = line_name.find_first_not_of("0123456789");
  return ParseDecimal(line_name.substr(0, end));
}

void ReadDevicePlane(const xplane_pb::XPlane& plane, int32_t ordinal, ReadState* state) {
  Trace& trace = *state->trace;
  const PlaneStats stats(plane);
  uint32_t device = kNoDevice;  // created on the first row: Trace::devices holds devices that ran
  auto device_index = [&]() {
    if (device == kNoDevice) {
      device = static_cast<uint32_t>(trace.devices.size());
      trace.devices.push_back(DescribeDevice(plane, ordinal, state));
    }
    return device;
  };
  for (const xplane_pb::XLine& line : plane.lines()) {
    const std::optional<int64_t> stream = StreamNumber(line.name());
    if (!stream) {
      // Derived rows (XLA Ops, XLA Modules, Steps, ...) repeat what the stream lines hold.
      trace.counts.other += static_cast<uint64_t>(line.events_size());
      continue;
    }
    for (const xplane_pb::XEvent& event : line.events()) {
      const std::optional<LineEvent> read = ReadLineEvent(plane, line, event, stats, state);
      if (!read) continue;
      const auto& [metadata, span, name, es] = *read;
      state->hlo_ops.Add(es.correlation, es.hlo_op, es.hlo_module, &trace);
      // As XLA's own tools (and TraceLens) tell them apart: copies and sets by name.
      const bool memset = StartsWithNoCase(name, "memset");
      if (memset || StartsWithNoCase(name, "memcpy") || StartsWithNoCase(name, "copy")) {
        Transfer t;
        t.start_ns = span.start_ns;
        t.duration_ns = span.duration_ns;
        t.link.correlation = es.correlation;
        t.bytes = MemcpyBytes(es.memcpy_details);
        t.name = trace.strings.Intern(name);
        t.device = device_index();
        t.stream = *stream;
        t.kind = memset ? TransferKind::kMemset : TransferKind::kMemcpy;
        trace.transfers.push_back(t);
        ++(memset ? trace.counts.memsets : trace.counts.memcpys);
        continue;
      }
      Kernel k;
      k.start_ns = span.start_ns;
      k.duration_ns = span.duration_ns;
      k.link.correlation = es.correlation;
      k.name = trace.strings.Intern(name);
      k.device = device_index();
      k.stream = *stream;
      if (!es.kernel_details.empty() &&
          !ApplyKernelDetails(ParseKernelDetails(es.kernel_details), &k)) {
        ++state->implausible_details;
      }
      trace.kernels.push_back(k);
      ++trace.counts.kernels;
    }
  }
}

}  // namespace tensormorph::xplane
