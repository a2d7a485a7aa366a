#include "report/info_report.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>

#include "analysis/timeline/graph_capture.h"
#include "model/time.h"
#include "report/csv.h"
#include "report/json_output.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/devices/device_db.h"

namespace tensormorph {
namespace {

// (key, count) pairs in a stable order, for every output format.
std::vector<std::pair<const char*, uint64_t>> CountList(const EventCounts& c) {
  return {{"kernels", c.kernels},
          {"memcpys", c.memcpys},
          {"memsets", c.memsets},
          {"runtime_calls", c.runtime_calls},
          {"driver_calls", c.driver_calls},
          {"sync_events", c.sync_events},
          {"ops", c.ops},
          {"annotations", c.annotations},
          {"gpu_annotations", c.gpu_annotations},
          {"python_functions", c.python_functions},
          {"flows", c.flows},
          {"counter_ranges", c.counter_ranges},
          {"metadata", c.metadata},
          {"instants", c.instants},
          {"other", c.other},
          {"skipped", c.skipped}};
}

std::string BackendList(const Trace& t) {
  std::vector<std::string_view> names;
  for (Backend b : t.backends) names.emplace_back(BackendName(b));
  return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

// Epoch nanoseconds as UTC wall-clock time; traces with relative times print as offsets.
std::string WallClock(int64_t ns) {
  constexpr int64_t kYear2000Ns = 946684800LL * 1000000000LL;
  if (ns < kYear2000Ns) return fmt::format("{} ns", ns);
  const std::chrono::sys_seconds seconds{std::chrono::seconds(ns / 1000000000)};
  return fmt::format("{:%Y-%m-%d %H:%M:%S}.{:06d} UTC", seconds, (ns % 1000000000) / 1000);
}

std::string DeviceDetails(const Device& d) {
  std::vector<std::string> parts;
  if (d.compute_major > 0) {
    parts.push_back(d.backend == Backend::kRocm
                        ? fmt::format("gfx {}.{}", d.compute_major, d.compute_minor)
                        : fmt::format("CC {}.{}", d.compute_major, d.compute_minor));
  }
  if (d.sm_count > 0)
    parts.push_back(fmt::format("{} {}", d.sm_count, d.backend == Backend::kRocm ? "CUs" : "SMs"));
  if (d.total_memory_bytes > 0)
    parts.push_back(fmt::format("{:.1f} GiB", d.total_memory_bytes / 1073741824.0));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// {"key": "a100-sxm4-40gb", "reason": ...} or {"key": null, "reason": why nothing matched}.
Json DatabaseMatchJson(const Device& device) {
  const DeviceMatch match = MatchTraceDevice(BuiltInDevices(), device);
  return {{"key", match.matched() ? Json(match.spec->key) : Json(nullptr)},
          {"reason", match.reason}};
}

void RenderTable(std::ostream& out, const std::vector<const Trace*>& traces) {
  for (size_t i = 0; i < traces.size(); ++i) {
    const Trace& t = *traces[i];
    if (i > 0) out << '\n';
    out << t.path << '\n';
    out << fmt::format("  format    {} ({})\n", t.format, t.format_version);
    out << fmt::format("  backends  {}\n", BackendList(t));
    if (t.devices.empty()) out << "  devices   none ran anything\n";
    for (uint32_t d = 0; d < t.devices.size(); ++d) {
      std::string details = DeviceDetails(t.devices[d]);
      out << fmt::format("  {}  {}{}\n", d == 0 ? "devices " : "        ", DeviceLabel(t, d, false),
                         details.empty() ? "" : " (" + details + ")");
      const DeviceMatch match = MatchTraceDevice(BuiltInDevices(), t.devices[d]);
      out << (match.matched()
                  ? fmt::format("            device database: {}{}\n", match.spec->key,
                                match.reason == "matched by name" ? "" : " (" + match.reason + ")")
                  : fmt::format("            not in the device database: {}\n", match.reason));
    }
    if (t.described_device_count > 0) {
      out << fmt::format("            ({} described in the trace header)\n",
                         t.described_device_count);
    }
    if (t.rank) {
      out << fmt::format("  rank      {}{}\n", *t.rank,
                         t.world_size ? fmt::format(" of {}", *t.world_size) : "");
    }
    out << fmt::format("  span      {}  from {} to {}\n",
                       FormatDuration(t.span_end_ns - t.span_start_ns), WallClock(t.span_start_ns),
                       WallClock(t.span_end_ns));
    if (t.timestamp_resolution_ns > 0) {
      out << fmt::format(
          "  clock     quantized: timestamps are multiples of {} ns; shorter differences are not "
          "real\n",
          t.timestamp_resolution_ns);
    }
    std::string counts;
    for (auto [name, n] : CountList(t.counts)) {
      if (n > 0) counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", n, name);
    }
    out << "  events    " << (counts.empty() ? "none" : counts) << '\n';
    if (const GraphCaptureSummary capture = SummarizeGraphCapture(t); capture.windows > 0) {
      out << fmt::format(
          "  capture   {} CUDA/HIP graph capture{} ({}): recorded while the program captured its "
          "graphs, so launches inside record a graph and run nothing; the device idles while the "
          "host captures. Profile the replays for the steady state\n",
          capture.windows, capture.windows == 1 ? "" : "s", FormatDuration(capture.total_ns));
    }
    for (size_t w = 0; w < t.warnings.size(); ++w) {
      out << (w == 0 ? "  warnings  " : "            ") << t.warnings[w] << '\n';
    }
  }
}

void RenderJson(std::ostream& out, const std::vector<const Trace*>& traces) {
  Json inputs = DescribeInputs(traces);
  for (size_t i = 0; i < traces.size(); ++i) {
    const Trace& t = *traces[i];
    Json& input = inputs[i];
    Json devices = Json::array();
    for (uint32_t d = 0; d < t.devices.size(); ++d) {
      const Device& dev = t.devices[d];
      devices.push_back(
          {{"label", DeviceLabel(t, d, false)},
           {"backend", BackendName(dev.backend)},
           {"name", dev.name},
           {"vendor", dev.vendor},
           {"index", dev.index},
           {"trace_id", dev.trace_id},
           {"compute_capability", fmt::format("{}.{}", dev.compute_major, dev.compute_minor)},
           {"sm_count", dev.sm_count},
           {"memory_bytes", dev.total_memory_bytes},
           {"database", DatabaseMatchJson(dev)}});
    }
    input["devices"] = std::move(devices);
    input["described_device_count"] = t.described_device_count;
    input["rank"] = OrNull(t.rank);
    input["world_size"] = OrNull(t.world_size);
    input["base_time_ns"] = OrNull(t.base_time_ns);
    input["span"] = {{"start_ns", t.span_start_ns},
                     {"end_ns", t.span_end_ns},
                     {"duration_ns", t.span_end_ns - t.span_start_ns}};
    // The clock's resolution when the source quantizes timestamps (WebGPU); 0 = exact / unknown.
    input["timestamp_resolution_ns"] = t.timestamp_resolution_ns;
    // Stream-capture windows (cudaStreamBeginCapture .. EndCapture): a trace of graph capture.
    const GraphCaptureSummary capture = SummarizeGraphCapture(t);
    input["graph_capture"] = {{"windows", capture.windows}, {"total_ns", capture.total_ns}};
    // Format-specific facts ("timeline": synthetic, warm-up runs, ...), each value JSON text.
    input["metadata"] = t.metadata;
    Json counts = Json::object();
    for (auto [name, n] : CountList(t.counts)) counts[name] = n;
    input["counts"] = std::move(counts);
    input["warnings"] = t.warnings;
  }
  WriteJson(out, {{"schema", "tensormorph.info/1"}, {"inputs", std::move(inputs)}});
}

void RenderCsv(std::ostream& out, const std::vector<const Trace*>& traces) {
  std::vector<std::string> header = {
      "path", "format",     "format_version", "backends",    "devices",
      "rank", "world_size", "span_start_ns",  "span_end_ns", "timestamp_resolution_ns"};
  for (auto [name, n] : CountList(EventCounts{})) header.emplace_back(name);
  header.emplace_back("warnings");
  WriteCsvRow(out, header);
  for (const Trace* t : traces) {
    std::vector<std::string> devices, backends;
    for (uint32_t d = 0; d < t->devices.size(); ++d) devices.push_back(DeviceLabel(*t, d, false));
    for (Backend b : t->backends) backends.emplace_back(BackendName(b));
    std::vector<std::string> row = {t->path,
                                    t->format,
                                    t->format_version,
                                    fmt::format("{}", fmt::join(backends, " ")),
                                    fmt::format("{}", fmt::join(devices, "; ")),
                                    t->rank ? std::to_string(*t->rank) : "",
                                    t->world_size ? std::to_string(*t->world_size) : "",
                                    std::to_string(t->span_start_ns),
                                    std::to_string(t->span_end_ns),
                                    std::to_string(t->timestamp_resolution_ns)};
    for (auto [name, n] : CountList(t->counts)) row.push_back(std::to_string(n));
    row.push_back(std::to_string(t->warnings.size()));
    WriteCsvRow(out, row);
  }
}

}  // namespace

void RenderInfo(std::ostream& out, const std::vector<const Trace*>& traces, OutputFormat format) {
  RenderAs(
      format, [&] { RenderTable(out, traces); }, [&] { RenderJson(out, traces); },
      [&] { RenderCsv(out, traces); });
}

}  // namespace tensormorph
