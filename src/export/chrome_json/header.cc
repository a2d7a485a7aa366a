// The header, the name metadata events and the footer of a Chrome-JSON export.
#include <algorithm>
#include <set>
#include <utility>

#include "export/chrome_json/event_writer.h"

namespace tensormorph::chrome_json {
namespace {

constexpr int64_t kSecondNs = 1'000'000'000;

// Top-level keys this exporter writes itself; a trace's metadata keys of the same name (kept by
// the Kineto importer from its input, as "distributed_backend" beside Trace::distributed_backend)
// are not written twice.
bool IsReservedKey(std::string_view key) {
  for (std::string_view reserved : {"traceEvents", "schemaVersion", "displayTimeUnit",
                                    "baseTimeNanoseconds", "deviceProperties", "computeProperties",
                                    "distributedInfo", "distributed_backend", "tensormorph"}) {
    if (key == reserved) return true;
  }
  return false;
}

template <typename Key>
bool AllDistinct(const std::vector<Key>& keys) {
  return std::set<Key>(keys.begin(), keys.end()).size() == keys.size();
}

}  // namespace

std::vector<int64_t> ChooseDeviceKeys(const Trace& trace) {
  std::vector<int64_t> ordinals, trace_ids, positions;
  bool all_have_ordinals = true;
  for (size_t i = 0; i < trace.devices.size(); ++i) {
    const Device& device = trace.devices[i];
    all_have_ordinals = all_have_ordinals && device.index >= 0;
    ordinals.push_back(device.index);
    trace_ids.push_back(device.trace_id);
    positions.push_back(static_cast<int64_t>(i));
  }
  if (all_have_ordinals && AllDistinct(ordinals)) return ordinals;
  if (AllDistinct(trace_ids)) return trace_ids;
  return positions;
}

std::vector<int64_t> ChooseDevicePids(const Trace& trace, const std::vector<int64_t>& keys) {
  std::vector<bool> host_track(trace.tracks.size(), false);
  const auto mark = [&](uint32_t track) {
    if (track < host_track.size()) host_track[track] = true;
  };
  for (const ApiCall& call : trace.api_calls) {
    if (call.kind != ApiKind::kSync) mark(call.track);
  }
  for (const Slice& s : trace.slices) {
    if (s.kind != SliceKind::kGpuAnnotation) mark(s.track);
  }
  for (const Instant& i : trace.instants) mark(i.track);
  std::set<int64_t> host_pids;
  for (size_t i = 0; i < trace.tracks.size(); ++i) {
    if (host_track[i] && trace.tracks[i].pid_name.empty()) host_pids.insert(trace.tracks[i].pid);
  }
  int64_t next = 0;
  if (!host_pids.empty()) next = std::max(next, *host_pids.rbegin());
  for (int64_t key : keys) next = std::max(next, key);
  std::vector<int64_t> pids = keys;
  for (int64_t& pid : pids) {
    if (host_pids.count(pid) && next < INT64_MAX) pid = ++next;
  }
  return pids;
}

int64_t ChooseTimeBase(const Trace& trace) {
  constexpr int64_t kMaxBase = int64_t{1} << 62;  // the importer's limit for a plausible base
  if (trace.span_start_ns <= 0) return 0;
  if (trace.base_time_ns && *trace.base_time_ns > 0 && *trace.base_time_ns <= trace.span_start_ns &&
      *trace.base_time_ns < kMaxBase) {
    return *trace.base_time_ns;
  }
  return trace.span_start_ns - trace.span_start_ns % kSecondNs;
}

EventWriter::EventWriter(const Trace& trace, JsonFileWriter* out)
    : trace_(trace),
      out_(*out),
      device_keys_(ChooseDeviceKeys(trace)),
      device_pids_(ChooseDevicePids(trace, device_keys_)),
      time_base_(ChooseTimeBase(trace)) {}

int64_t EventWriter::DeviceKey(uint32_t device) const {
  return device < device_keys_.size() ? device_keys_[device] : -1;
}

int64_t EventWriter::DevicePid(uint32_t device) const {
  return device < device_pids_.size() ? device_pids_[device] : -1;
}

void EventWriter::DeviceProperties() {
  out_.Raw(",\n\"deviceProperties\":[");
  bool first = true;
  for (size_t i = 0; i < trace_.devices.size(); ++i) {
    const Device& d = trace_.devices[i];
    if (!d.described) continue;
    out_.Raw(first ? "\n{" : ",\n{");
    first = false;
    out_.Format("\"id\":{},\"name\":", device_keys_[i]);
    out_.String(d.name);
    out_.Format(
        ",\"totalGlobalMem\":{},\"computeMajor\":{},\"computeMinor\":{},"
        "\"maxThreadsPerMultiprocessor\":{},\"regsPerMultiprocessor\":{},\"warpSize\":{},"
        "\"sharedMemPerBlock\":{},\"sharedMemPerMultiprocessor\":{},\"numSms\":{}}}",
        d.total_memory_bytes, d.compute_major, d.compute_minor, d.max_threads_per_sm,
        d.registers_per_sm, d.warp_size, d.shared_memory_per_block, d.shared_memory_per_sm,
        d.sm_count);
  }
  out_.Raw("]");
}

void EventWriter::WriteHeader() {
  out_.Raw("{\"schemaVersion\":1,\n\"displayTimeUnit\":\"ns\"");
  if (time_base_ != 0) out_.Format(",\n\"baseTimeNanoseconds\":{}", time_base_);
  DeviceProperties();
  const std::optional<std::string>& backend = trace_.distributed_backend;
  if (trace_.rank || trace_.world_size || backend) {
    out_.Raw(",\n\"distributedInfo\":{");
    const char* separator = "";
    if (trace_.rank) {
      out_.Format("\"rank\":{}", *trace_.rank);
      separator = ",";
    }
    if (trace_.world_size) {
      out_.Format("{}\"world_size\":{}", separator, *trace_.world_size);
      separator = ",";
    }
    if (backend) {
      out_.Format("{}\"backend\":", separator);
      out_.String(*backend);
    }
    out_.Raw("}");
  }
  // What the Kineto dialect cannot say (the source format, each device's backend and ids), for
  // readers that want it; the importer ignores object-valued keys.
  out_.Raw(",\n\"tensormorph\":{\"exporter\":\"chrome-json\",\"source_format\":");
  out_.String(trace_.format);
  out_.Raw(",\"source_format_version\":");
  out_.String(trace_.format_version);
  out_.Raw(",\"devices\":[");
  for (size_t i = 0; i < trace_.devices.size(); ++i) {
    const Device& d = trace_.devices[i];
    out_.Format("{}{{\"id\":{},\"backend\":\"{}\",\"vendor\":", i == 0 ? "" : ",", device_keys_[i],
                BackendName(d.backend));
    out_.String(d.vendor);
    out_.Raw(",\"name\":");
    out_.String(d.name);
    out_.Format(",\"ordinal\":{},\"trace_id\":{}}}", d.index, d.trace_id);
  }
  out_.Raw("]},\n\"traceEvents\":[");
}

void EventWriter::WriteNameEvents() {
  // One process per device, one thread per (device, stream) that ran something.
  std::set<std::pair<int64_t, int64_t>> named_threads;
  for (size_t i = 0; i < trace_.devices.size(); ++i) {
    const Device& d = trace_.devices[i];
    const int64_t key = device_keys_[i];
    const int64_t pid = device_pids_[i];
    std::string label = fmt::format("{} {}", BackendName(d.backend), d.index >= 0 ? d.index : key);
    if (!d.name.empty()) label += " " + d.name;
    BeginEvent('M', "", "process_name");
    out_.Format(",\"pid\":{},\"tid\":0,\"args\":{{\"name\":", pid);
    out_.String(label);
    out_.Raw("}}");
    // The importer names undescribed devices by the label of the process whose pid is their key.
    if (!d.name.empty() && pid == key) {
      BeginEvent('M', "", "process_labels");
      out_.Format(",\"pid\":{},\"tid\":0,\"args\":{{\"labels\":", pid);
      out_.String(d.name);
      out_.Raw("}}");
    }
    BeginEvent('M', "", "process_sort_index");
    out_.Format(",\"pid\":{},\"tid\":0,\"args\":{{\"sort_index\":{}}}}}", pid, 1'000'000 + i);
  }
  NameHostProcesses();
  const auto name_stream = [&](uint32_t device, int64_t stream) {
    if (!named_threads.emplace(DevicePid(device), stream).second) return;
    BeginEvent('M', "", "thread_name");
    out_.Format(",\"pid\":{},\"tid\":{},\"args\":{{\"name\":\"stream {}\"}}}}", DevicePid(device),
                stream, stream);
    BeginEvent('M', "", "thread_sort_index");
    out_.Format(",\"pid\":{},\"tid\":{},\"args\":{{\"sort_index\":{}}}}}", DevicePid(device),
                stream, stream);
  };
  // Both tables are sorted by (device, stream, start): a new pair starts a new run.
  for (size_t i = 0; i < trace_.kernels.size(); ++i) {
    const Kernel& k = trace_.kernels[i];
    if (i == 0 || k.device != trace_.kernels[i - 1].device ||
        k.stream != trace_.kernels[i - 1].stream) {
      name_stream(k.device, k.stream);
    }
  }
  for (size_t i = 0; i < trace_.transfers.size(); ++i) {
    const Transfer& t = trace_.transfers[i];
    if (i == 0 || t.device != trace_.transfers[i - 1].device ||
        t.stream != trace_.transfers[i - 1].stream) {
      name_stream(t.device, t.stream);
    }
  }
  for (uint32_t i = 0; i < trace_.tracks.size(); ++i) {
    const Track& track = trace_.tracks[i];
    if (track.thread_name.empty()) continue;
    if (track.pid_name.empty() && track.tid_name.empty() &&
        named_threads.count({track.pid, track.tid})) {
      continue;  // a device stream, already named
    }
    BeginEvent('M', "", "thread_name");
    TrackIds(i);
    out_.Raw(",\"args\":{\"name\":");
    out_.String(track.thread_name);
    out_.Raw("}}");
  }
}

void EventWriter::NameHostProcesses() {
  // Every process of a host track that is not a device's, numeric pids in order, then string pids
  // ("Spans", "Traces") by their text. The model keeps no process names: the label says what the
  // pid is.
  const std::set<int64_t> device_pids(device_pids_.begin(), device_pids_.end());
  std::set<int64_t> numeric;
  std::set<std::string_view> named;
  for (const Track& track : trace_.tracks) {
    if (!track.pid_name.empty()) {
      named.insert(track.pid_name);
    } else if (!device_pids.count(track.pid)) {
      numeric.insert(track.pid);
    }
  }
  int64_t order = 0;
  for (int64_t pid : numeric) {
    BeginEvent('M', "", "process_name");
    out_.Format(",\"pid\":{},\"tid\":0,\"args\":{{\"name\":\"host process {}\"}}}}", pid, pid);
    BeginEvent('M', "", "process_sort_index");
    out_.Format(",\"pid\":{},\"tid\":0,\"args\":{{\"sort_index\":{}}}}}", pid, order++);
  }
  for (std::string_view pid : named) {
    BeginEvent('M', "", "process_name");
    out_.Raw(",\"pid\":");
    out_.String(pid);
    out_.Raw(",\"tid\":0,\"args\":{\"name\":");
    out_.String(pid);
    out_.Raw("}}");
    BeginEvent('M', "", "process_sort_index");
    out_.Raw(",\"pid\":");
    out_.String(pid);
    out_.Format(",\"tid\":0,\"args\":{{\"sort_index\":{}}}}}", order++);
  }
}

void EventWriter::WriteFooter() {
  out_.Raw("\n]");
  for (const auto& [key, value] : trace_.metadata) {
    if (IsReservedKey(key)) continue;
    out_.Raw(",\n");
    out_.String(key);
    out_.Raw(":");
    out_.String(value);  // the importer keeps scalars as text; a string reads back the same
  }
  out_.Raw("\n}\n");
}

}  // namespace tensormorph::chrome_json
