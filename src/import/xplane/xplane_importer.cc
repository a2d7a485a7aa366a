#include "import/xplane/xplane_importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "import/common/device_arch.h"
#include "import/common/finish_import.h"
#include "import/common/kernel_details.h"
#include "import/xplane/plane_readers.h"
#include "import/xplane/profile_dir.h"
#include "import/xplane/xplane.pb.h"

namespace tensormorph::xplane {
namespace {

// Protobuf cannot parse a message above 2 GiB, and an XSpace that large would not fit in memory
// as parsed objects alongside the model anyway.
constexpr uint64_t kMaxXspaceBytes = uint64_t{2} << 30;

StatusOr<std::string> ReadWholeFile(const Input& input, std::string* warning) {
  const auto too_large = [](uint64_t size) {
    return UnreadableInput(fmt::format(
        "this XSpace is {:.1f} GiB; protobuf reads at most 2 GiB in one message: profile a "
        "shorter window (jax.profiler trace duration) or fewer hosts",
        static_cast<double>(size) / (1 << 30)));
  };
  if (input.file_size() > kMaxXspaceBytes) return too_large(input.file_size());
  TM_ASSIGN_OR_RETURN(std::string data, input.Content(warning));
  if (data.empty()) return UnreadableInput("the file is empty");
  if (data.size() > kMaxXspaceBytes) return too_large(data.size());  // gzip-compressed
  return data;
}

std::string JsonString(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

void ReadTaskEnvironment(const xplane_pb::XPlane& plane, Trace* trace) {
  for (const xplane_pb::XStat& stat : plane.stats()) {
    auto it = plane.stat_metadata().find(stat.metadata_id());
    if (it == plane.stat_metadata().end()) continue;
    const std::string& name = it->second.name();
    if ((name == "profile_start_time" || name == "profile_stop_time") &&
        stat.value_case() == xplane_pb::XStat::kUint64Value) {
      trace->metadata[name + "_ns"] = fmt::format("{}", stat.uint64_value());
    }
  }
}

void AddWarnings(const xplane_pb::XSpace& space, const ReadState& state, Trace* trace) {
  for (const std::string& e : space.errors()) trace->warnings.push_back("XSpace error: " + e);
  for (const std::string& w : space.warnings()) trace->warnings.push_back("XSpace warning: " + w);
  if (state.implausible_details > 0) {
    trace->warnings.push_back(fmt::format(
        "{} kernels' kernel_details give more than {} registers per thread (uninitialised values, "
        "as JAX 0.6 on ROCm writes them): their registers and shared memory are left unknown",
        state.implausible_details, kMaxRegisters));
  }
  if (state.aggregated_events > 0) {
    trace->warnings.push_back(fmt::format(
        "{} aggregated events (num_occurrences, no start time) skipped", state.aggregated_events));
  }
  if (state.out_of_range > 0) {
    trace->warnings.push_back(fmt::format(
        "{} events start more than 146 years from the time base; skipped", state.out_of_range));
  }
  if (state.negative_durations > 0) {
    trace->warnings.push_back(fmt::format("{} events with a negative duration read as 0 ns long",
                                          state.negative_durations));
  }
  for (const std::string& v : state.unknown_vendors) {
    trace->warnings.push_back(v + " is neither AMD nor Nvidia: its work has backend 'other'");
  }
}

StatusOr<Trace> ImportFile(const Input& input, const ImportOptions& options) {
  const std::string& path = input.path();
  std::string gzip_warning;
  TM_ASSIGN_OR_RETURN(std::string data, ReadWholeFile(input, &gzip_warning));
  xplane_pb::XSpace space;
  if (!space.ParseFromString(data)) {
    return UnreadableInput(
        fmt::format("not a readable XSpace protobuf ({} bytes): the file is truncated or is not an "
                    "xplane.pb; a profile cut short while writing cannot be read, profile again",
                    data.size()));
  }
  data.clear();
  data.shrink_to_fit();

  Trace trace;
  trace.path = path;
  if (!gzip_warning.empty()) trace.warnings.push_back(gzip_warning);
  trace.format = "jax-xplane";
  ReadState state;
  state.trace = &trace;
  std::set<std::string> other_planes;
  bool host_plane = false;
  for (const xplane_pb::XPlane& plane : space.planes()) {
    const std::string& name = plane.name();
    if (std::optional<int32_t> ordinal = GpuOrdinal(name)) {
      ++trace.described_device_count;
      ReadDevicePlane(plane, *ordinal, &state);
    } else if (std::optional<int32_t> tpu = TpuOrdinal(name)) {
      ++trace.described_device_count;
      ReadTpuPlane(plane, *tpu, &state);
    } else if (name == "/host:CPU") {
      host_plane = true;
      if (options.host_rows) ReadHostPlane(plane, &state);
    } else if (name == "Task Environment") {
      ReadTaskEnvironment(plane, &trace);
    } else if (name != "/host:metadata") {  // HLO protos of the compiled modules
      uint64_t events = 0;
      for (const xplane_pb::XLine& line : plane.lines()) events += line.events_size();
      trace.counts.other += events;
      if (events > 0) other_planes.insert(name);
    }
  }
  if (!options.host_rows && host_plane) trace.metadata["host_rows"] = "skipped";
  for (const std::string& name : other_planes) {
    trace.warnings.push_back(fmt::format(
        "plane \"{}\" is not read (tensormorph reads /device:GPU:N, /device:TPU:N and /host:CPU "
        "planes)",
        name));
  }
  if (!space.hostnames().empty()) {
    std::string list;
    for (const std::string& h : space.hostnames())
      list += (list.empty() ? "" : ", ") + JsonString(h);
    trace.metadata["hostnames"] = "[" + list + "]";
  }
  if (options.host_rows) state.hlo_ops.AddOpSlices(&trace);
  AddWarnings(space, state, &trace);

  if (state.tpu_ops > 0) {
    trace.format_version =
        fmt::format("XSpace, {} planes; TPU: XLA Ops lines as kernels", space.planes_size());
    trace.warnings.push_back(fmt::format(
        "TPU planes: {} events of their XLA Modules, Async XLA Ops (async copies in flight) and "
        "XLA TraceMe lines are not read; their XLA Ops lines are the kernels",
        state.tpu_lines_not_read));
  } else {
    trace.format_version = fmt::format(
        "XSpace, {} planes; {}", space.planes_size(),
        state.host_thread_lines > 0
            ? "runtime API calls on \"Host Threads\" lines (current, JAX 0.7+)"
            : "no \"Host Threads\" lines: launch records named after kernels (legacy, JAX <= "
              "0.6)");
  }
  if (trace.kernels.empty() && trace.transfers.empty()) {
    trace.warnings.push_back(
        "no device kernels or copies: the XSpace has no \"Stream #N\" events on /device:GPU "
        "planes and no \"XLA Ops\" events on /device:TPU planes");
  }
  SetCudaArchs(&trace);  // ROCm planes give no gfx target
  // Every GPU plane is a device of the trace, whether its streams ran something or not.
  FinishImport(&trace, {.backends = {.every_device = true}});
  return trace;
}

}  // namespace

int XplaneImporter::Sniff(std::string_view head) const {
  return SniffXSpace(head);
}

int XplaneImporter::SniffFolder(const std::string& folder) const {
  std::string run;
  return FindRunXplanes(folder, &run).empty() ? 0 : 90;
}

StatusOr<Trace> XplaneImporter::Import(const Input& input, const ImportOptions& options) const {
  if (input.is_folder()) {
    TM_ASSIGN_OR_RETURN(std::string file, ResolveProfileDir(input.path()));
    TM_ASSIGN_OR_RETURN(Input xspace, input.Related(file));
    return ImportFile(xspace, options);
  }
  return ImportFile(input, options);
}

}  // namespace tensormorph::xplane
