#include "export/native/native_records.h"

#include <nlohmann/json.hpp>

#include "import/native/native_schema.h"
#include "tensormorph/model/copy_kinds.h"

namespace tensormorph::native {
namespace {

void Dim(std::string_view key, const Dim3& d, ObjectWriter* record) {
  if (d.empty()) return;
  record->Key(key);
  fmt::format_to(std::back_inserter(*record->out()), "[{},{},{}]", d.x, d.y, d.z);
}

void Link(const LinkIds& link, ObjectWriter* record) {
  if (link.correlation != 0) record->UInt("correlation", link.correlation);
  if (link.external_id != -1) record->Int("external_id", link.external_id);
}

template <typename Row>
void Times(const Row& row, ObjectWriter* record) {
  record->Int("start_ns", row.start_ns);
  record->Int("duration_ns", row.duration_ns);
}

void DeviceRef(uint32_t device, ObjectWriter* record) {
  if (device == kNoDevice) {
    record->Raw("device", "null");
  } else {
    record->UInt("device", device);
  }
}

template <typename T>
void StringArray(std::string_view key, const std::vector<T>& items, ObjectWriter* record,
                 std::string_view (*text)(const T&)) {
  fmt::memory_buffer* out = record->out();
  record->Key(key);
  out->push_back('[');
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out->push_back(',');
    AppendJsonString(out, text(items[i]));
  }
  out->push_back(']');
}

// Metadata values are JSON text by convention, but some importers store plain text (Nsight
// Systems' chip names). JSON text that fits on one line is written as itself ("metadata"); any
// other text as a string ("metadata_text"), so that both read back byte for byte.
bool EmbeddableJson(std::string_view text) {
  if (text.empty() || text.find_first_of("\n\r") != std::string_view::npos) return false;
  if (text.front() == ' ' || text.front() == '\t' || text.back() == ' ' || text.back() == '\t') {
    return false;
  }
  return nlohmann::json::accept(text);
}

void Metadata(const Trace& trace, ObjectWriter* record) {
  fmt::memory_buffer* out = record->out();
  for (bool embedded : {true, false}) {
    bool any = false;
    for (const auto& [key, text] : trace.metadata) {
      if (EmbeddableJson(text) != embedded) continue;
      if (!any) record->Key(embedded ? "metadata" : "metadata_text");
      out->push_back(any ? ',' : '{');
      any = true;
      AppendJsonString(out, key);
      out->push_back(':');
      if (embedded) {
        out->append(text);
      } else {
        AppendJsonString(out, text);
      }
    }
    if (any) out->push_back('}');
  }
}

void OptionalDouble(std::string_view key, const std::optional<double>& v, ObjectWriter* record) {
  if (v) record->Double(key, *v);
}

}  // namespace

void WriteHeaderMembers(const Trace& trace, ObjectWriter* record) {
  record->String("schema", kSchema);
  record->String("source_format", trace.format);
  record->String("source_format_version", trace.format_version);
  StringArray<Backend>("backends", trace.backends, record,
                       [](const Backend& b) { return std::string_view(BackendName(b)); });
  if (trace.rank) record->Int("rank", *trace.rank);
  if (trace.world_size) record->Int("world_size", *trace.world_size);
  if (trace.base_time_ns) record->Int("base_time_ns", *trace.base_time_ns);
  if (trace.timestamp_resolution_ns != 0) {
    record->Int("timestamp_resolution_ns", trace.timestamp_resolution_ns);
  }
  record->Int("described_device_count", trace.described_device_count);
  record->Key("counts");
  ObjectWriter counts(record->out());
  for (const CountField& field : kCountFields) counts.UInt(field.name, trace.counts.*field.member);
  counts.Close();
  Metadata(trace, record);
  if (!trace.warnings.empty()) {
    StringArray<std::string>("warnings", trace.warnings, record,
                             [](const std::string& w) { return std::string_view(w); });
  }
}

void WriteDeviceMembers(const Device& d, uint32_t index, ObjectWriter* record) {
  record->UInt("id", index);
  record->String("backend", BackendName(d.backend));
  if (!d.name.empty()) record->String("name", d.name);
  if (!d.vendor.empty()) record->String("vendor", d.vendor);
  record->Int("trace_id", d.trace_id);
  if (d.index != -1) record->Int("index", d.index);
  if (d.compute_major != 0) record->Int("compute_major", d.compute_major);
  if (d.compute_minor != 0) record->Int("compute_minor", d.compute_minor);
  if (d.sm_count != 0) record->Int("sm_count", d.sm_count);
  if (d.warp_size != 0) record->Int("warp_size", d.warp_size);
  if (d.max_threads_per_sm != 0) record->Int("max_threads_per_sm", d.max_threads_per_sm);
  if (d.registers_per_sm != 0) record->Int("registers_per_sm", d.registers_per_sm);
  if (d.shared_memory_per_sm != 0) record->Int("shared_memory_per_sm", d.shared_memory_per_sm);
  if (d.shared_memory_per_block != 0) {
    record->Int("shared_memory_per_block", d.shared_memory_per_block);
  }
  if (d.total_memory_bytes != 0) record->Int("total_memory_bytes", d.total_memory_bytes);
  record->Bool("described", d.described);
  if (!d.measured_peaks.empty()) {
    record->Key("measured_peaks");
    ObjectWriter peaks(record->out());
    for (const auto& [key, value] : d.measured_peaks) peaks.Double(key, value);
    peaks.Close();
  }
}

void WriteTrackMembers(const Track& t, uint32_t index, ObjectWriter* record) {
  record->UInt("id", index);
  record->Int("pid", t.pid);
  record->Int("tid", t.tid);
  if (!t.pid_name.empty()) record->String("pid_name", t.pid_name);
  if (!t.tid_name.empty()) record->String("tid_name", t.tid_name);
  if (!t.thread_name.empty()) record->String("thread_name", t.thread_name);
}

void WriteKernelMembers(const Trace& trace, const Kernel& k, ObjectWriter* record) {
  record->String("name", trace.str(k.name));
  if (auto m = trace.mangled_names.find(k.name); m != trace.mangled_names.end()) {
    record->String("mangled_name", trace.str(m->second));
  }
  DeviceRef(k.device, record);
  Times(k, record);
  if (k.stream != -1) record->Int("stream", k.stream);
  Link(k.link, record);
  Dim("grid", k.grid, record);
  Dim("block", k.block, record);
  if (k.shared_memory_bytes != 0) record->UInt("shared_memory_bytes", k.shared_memory_bytes);
  if (k.registers_per_thread != 0) record->UInt("registers_per_thread", k.registers_per_thread);
  if (k.accum_registers_per_thread != 0) {
    record->UInt("accum_registers_per_thread", k.accum_registers_per_thread);
  }
  if (k.scalar_registers != 0) record->UInt("scalar_registers", k.scalar_registers);
  if (k.wave_size != 0) record->UInt("wave_size", k.wave_size);
  if (k.achieved_occupancy_percent != -1) {
    record->Int("achieved_occupancy_percent", k.achieved_occupancy_percent);
  }
}

void WriteTransferMembers(const Trace& trace, const Transfer& t, ObjectWriter* record) {
  record->String("name", trace.str(t.name));
  if (t.kind != TransferKind::kMemcpy) record->String("kind", TransferKindName(t.kind));
  DeviceRef(t.device, record);
  Times(t, record);
  if (t.stream != -1) record->Int("stream", t.stream);
  if (t.bytes != 0) record->UInt("bytes", t.bytes);
  if (t.direction != CopyDirection::kUnknown) {
    record->String("direction", CopyDirectionName(t.direction));
  }
  if (t.src_memory != MemoryKind::kUnknown) {
    record->String("src_memory", MemoryKindName(t.src_memory));
  }
  if (t.dst_memory != MemoryKind::kUnknown) {
    record->String("dst_memory", MemoryKindName(t.dst_memory));
  }
  Link(t.link, record);
}

void WriteApiCallMembers(const Trace& trace, const ApiCall& c, ObjectWriter* record) {
  record->String("name", trace.str(c.name));
  if (c.kind != ApiKind::kRuntime) record->String("kind", ApiKindName(c.kind));
  record->UInt("track", c.track);
  Times(c, record);
  Link(c.link, record);
}

void WriteSliceMembers(const Trace& trace, const Slice& s, ObjectWriter* record) {
  record->String("name", trace.str(s.name));
  if (s.kind != SliceKind::kOp) record->String("kind", SliceKindName(s.kind));
  record->UInt("track", s.track);
  Times(s, record);
  if (s.external_id != -1) record->Int("external_id", s.external_id);
  // The lists as one JSON object, written as a string: it reads back byte for byte.
  if (const OpInputs* inputs = trace.inputs_of(s)) record->String("inputs", OpInputsText(*inputs));
}

void WriteFlowMembers(const Flow& f, ObjectWriter* record) {
  record->UInt("id", f.id);
  record->String("phase", FlowPhaseName(f.phase));
  if (f.kind != FlowKind::kOther) record->String("kind", FlowKindName(f.kind));
  record->UInt("track", f.track);
  record->Int("ts_ns", f.ts_ns);
  if (f.binds_enclosing) record->Bool("binds_enclosing", true);
}

void WriteInstantMembers(const Trace& trace, const Instant& i, ObjectWriter* record) {
  record->String("name", trace.str(i.name));
  record->Int("ts_ns", i.ts_ns);
  record->UInt("track", i.track);
  if (i.category != 0) record->String("category", trace.str(i.category));
  if (i.args != 0) record->String("args", trace.str(i.args));  // JSON text, as the source wrote it
  if (i.scope != InstantScope::kThread) {
    record->String("scope", i.scope == InstantScope::kGlobal ? "global" : "process");
  }
}

// Nsight Compute's own Occupancy section, as an object of the figures it gave.
void WriteReportedOccupancy(const ReportedOccupancy& r, ObjectWriter* record) {
  record->Key("reported_occupancy");
  ObjectWriter o(record->out());
  o.Double("theoretical_percent", r.theoretical_percent);
  OptionalDouble("theoretical_warps_per_sm", r.theoretical_warps_per_sm, &o);
  const std::pair<const char*, const std::optional<int64_t>*> limits[] = {
      {"warps_limit", &r.warps_limit},
      {"registers_limit", &r.registers_limit},
      {"shared_memory_limit", &r.shared_memory_limit},
      {"blocks_limit", &r.blocks_limit},
      {"barriers_limit", &r.barriers_limit}};
  for (const auto& [key, value] : limits) {
    if (*value) o.Int(key, **value);
  }
  o.Close();
}

void WriteCountersMembers(const Trace& trace, const KernelCounters& c, ObjectWriter* record) {
  record->UInt("kernel", c.kernel);
  OptionalDouble("fp64_flops", c.fp64_flops, record);
  OptionalDouble("fp32_flops", c.fp32_flops, record);
  OptionalDouble("fp16_flops", c.fp16_flops, record);
  OptionalDouble("tensor_ops", c.tensor_ops, record);
  OptionalDouble("dram_bytes", c.dram_bytes, record);
  OptionalDouble("achieved_occupancy_percent", c.achieved_occupancy_percent, record);
  if (c.registers_per_thread) record->UInt("registers_per_thread", *c.registers_per_thread);
  if (c.shared_memory_bytes) record->UInt("shared_memory_bytes", *c.shared_memory_bytes);
  OptionalDouble("sm_throughput_percent", c.sm_throughput_percent, record);
  OptionalDouble("memory_throughput_percent", c.memory_throughput_percent, record);
  if (c.reported_occupancy) WriteReportedOccupancy(*c.reported_occupancy, record);
  if (c.metrics.empty()) return;
  fmt::memory_buffer* out = record->out();
  record->Key("metrics");
  out->push_back('[');
  for (size_t i = 0; i < c.metrics.size(); ++i) {
    if (i > 0) out->push_back(',');
    const CounterValue& m = c.metrics[i];
    ObjectWriter metric(out);
    if (m.section != 0) metric.String("section", trace.str(m.section));
    metric.String("name", trace.str(m.name));
    if (m.unit != 0) metric.String("unit", trace.str(m.unit));
    metric.Double("value", m.value);
    metric.Close();
  }
  out->push_back(']');
}

}  // namespace tensormorph::native
