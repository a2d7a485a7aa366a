#include "import/chrome/chunk_builder.h"

#include <fmt/format.h>

#include "import/common/op_inputs_json.h"

namespace tensormorph::chrome {
namespace {

// HTA drops events longer than this as CUPTI timestamp corruption; so do we, with a warning.
constexpr int64_t kMaxEventDurationNs = int64_t{7} * 24 * 3600 * 1000000000;
// Timestamps are kept within ±2^62 ns (±146 years), so that a time plus a duration, a span, or a
// time plus a Kineto base time can never overflow int64.
constexpr int64_t kMaxAbsTimestampNs = int64_t{1} << 62;

int64_t NumberOrKey(const RawId& id) {
  return id.is_string ? StringIdKey(id.text) : id.number;
}

bool IsLegacyCpuFunctionsPid(const RawId& pid) {
  return pid.is_string && (pid.text == "CPU functions" || pid.text == "CPU Functions");
}

}  // namespace

int64_t StringIdKey(std::string_view text) {
  uint64_t hash = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  // Bit 62 set, bit 63 clear: positive, and far above any real pid or tid.
  return static_cast<int64_t>((hash & ((uint64_t{1} << 62) - 1)) | (uint64_t{1} << 62));
}

uint32_t ChunkBuilder::TrackOf(const RawEvent& event) {
  TrackKey key{NumberOrKey(event.pid), NumberOrKey(event.tid)};
  auto [it, inserted] = track_index_.try_emplace(key, static_cast<uint32_t>(out_->tracks.size()));
  if (inserted) {
    out_->tracks.push_back(key);
    out_->track_pid_names.emplace_back(event.pid.is_string ? event.pid.text : std::string_view());
    out_->track_tid_names.emplace_back(event.tid.is_string ? event.tid.text : std::string_view());
  }
  return it->second;
}

uint32_t ChunkBuilder::DeviceOf(int64_t device_key) {
  auto [it, inserted] =
      device_index_.try_emplace(device_key, static_cast<uint32_t>(out_->device_keys.size()));
  if (inserted) out_->device_keys.push_back(device_key);
  return it->second;
}

void ChunkBuilder::Skip(uint64_t content_offset, std::string message) {
  ++out_->counts.skipped;
  out_->warnings.push_back({content_offset, std::move(message)});
}

void ChunkBuilder::Warn(uint64_t content_offset, std::string message) {
  out_->warnings.push_back({content_offset, std::move(message)});
}

bool ChunkBuilder::CheckTimes(const RawEvent& event, uint64_t content_offset) {
  if (!event.has_ts) {
    Skip(content_offset, fmt::format("event \"{}\" has no \"ts\"; skipped", event.name));
    return false;
  }
  if (!event.has_dur) {
    Skip(content_offset, fmt::format("complete event \"{}\" has no \"dur\"; skipped", event.name));
    return false;
  }
  if (event.dur_ns < 0) {
    Skip(content_offset, fmt::format("event \"{}\" has a negative duration ({} ns); skipped",
                                     event.name, event.dur_ns));
    return false;
  }
  if (event.dur_ns > kMaxEventDurationNs) {
    Skip(content_offset,
         fmt::format("event \"{}\" lasts {} ns, over 7 days (a corrupt timestamp); skipped",
                     event.name, event.dur_ns));
    return false;
  }
  if (event.ts_ns > kMaxAbsTimestampNs || event.ts_ns < -kMaxAbsTimestampNs) {
    Skip(content_offset,
         fmt::format(
             "event \"{}\" has a timestamp more than 146 years from the epoch ({} ns); skipped",
             event.name, event.ts_ns));
    return false;
  }
  return true;
}

Category ChunkBuilder::CategoryOf(std::string_view text) {
  // Events come in runs of one category; remember the last answer.
  if (text != last_category_text_) {
    last_category_text_.assign(text);
    last_category_ = ClassifyCategory(text);
  }
  return last_category_;
}

void ChunkBuilder::Add(const RawEvent& event, uint64_t content_offset) {
  const Category category = CategoryOf(event.category);
  FormatEvidence& evidence = out_->evidence;
  if (category != Category::kNone && category != Category::kUnknown) ++evidence.categorised;
  if (category == Category::kMtiaDevice || event.category.starts_with("mtia_"))
    ++evidence.mtia_events;
  if (event.category == "Kernel" || event.category == "Runtime" || event.category == "Memcpy") {
    ++evidence.legacy_gpu_categories;
  }
  if (IsLegacyCpuFunctionsPid(event.pid)) ++evidence.cpu_functions_pid;
  if (event.has_ts && event.ts_ns % 1000 != 0) ++evidence.fractional_timestamps;

  switch (event.phase) {
    case 'X':
      if (CheckTimes(event, content_offset)) AddComplete(event, category, content_offset);
      return;
    case 'M':
      ++out_->counts.metadata;
      AddMetadata(event);
      return;
    case 's':
    case 't':
    case 'f': {
      ++out_->counts.flows;
      if (event.category == "ac2g") ++evidence.ac2g_flows;
      if (event.category == "async_gpu" || event.category == "async_cpu_to_gpu") {
        ++evidence.async_gpu_flows;
      }
      if (!event.has_id || !event.has_ts) return;  // a flow without id or time links nothing
      if (event.ts_ns > kMaxAbsTimestampNs || event.ts_ns < -kMaxAbsTimestampNs) {
        Skip(content_offset, fmt::format("flow event has a timestamp more than 146 years from "
                                         "the epoch ({} ns); skipped",
                                         event.ts_ns));
        return;
      }
      Flow flow;
      flow.ts_ns = event.ts_ns;
      flow.id = event.id;
      flow.kind = event.category == "fwdbwd"    ? FlowKind::kForwardBackward
                  : category == Category::kFlow ? FlowKind::kLaunch
                                                : FlowKind::kOther;
      flow.track = TrackOf(event);
      flow.phase = event.phase == 's'   ? FlowPhase::kStart
                   : event.phase == 't' ? FlowPhase::kStep
                                        : FlowPhase::kFinish;
      flow.binds_enclosing = event.binds_enclosing;
      out_->flows.push_back(flow);
      return;
    }
    case 'i':
    case 'I': {
      ++out_->counts.instants;
      if (!event.has_ts || event.ts_ns > kMaxAbsTimestampNs || event.ts_ns < -kMaxAbsTimestampNs) {
        return;  // counted, but an instant without a time marks nothing
      }
      Instant instant;
      instant.ts_ns = event.ts_ns;
      instant.name = out_->strings.Intern(event.name);
      instant.category = out_->strings.Intern(event.category);
      if (!event.raw_args.empty()) instant.args = out_->strings.Intern(event.raw_args);
      instant.track = TrackOf(event);
      instant.scope = event.scope == "g"   ? InstantScope::kGlobal
                      : event.scope == "p" ? InstantScope::kProcess
                                           : InstantScope::kThread;
      out_->instants.push_back(instant);
      return;
    }
    case 0:
      // `{}` elements (XLA ends its array with one) carry nothing.
      if (event.name.empty() && !event.has_ts) return;
      Skip(content_offset, fmt::format("event \"{}\" has no \"ph\" (phase); skipped", event.name));
      return;
    default:
      ++out_->counts.other;
      return;
  }
}

void ChunkBuilder::AddComplete(const RawEvent& event, Category category, uint64_t content_offset) {
  EventCounts& counts = out_->counts;
  switch (category) {
    case Category::kKernel:
      ++counts.kernels;
      AddKernel(event);
      return;
    case Category::kMtiaDevice:
      // MTIA writes DMA transfers and compute work on the same device streams.
      if (event.name == "dma_request") {
        ++counts.memcpys;
        AddTransfer(event, TransferKind::kMemcpy);
      } else {
        ++counts.kernels;
        AddKernel(event);
      }
      return;
    case Category::kMemcpy:
      ++counts.memcpys;
      AddTransfer(event, TransferKind::kMemcpy);
      return;
    case Category::kMemset:
      ++counts.memsets;
      AddTransfer(event, TransferKind::kMemset);
      return;
    case Category::kRuntime:
    case Category::kDriver:
    case Category::kSync: {
      ApiCall call;
      call.start_ns = event.ts_ns;
      call.duration_ns = event.dur_ns;
      call.link.correlation = event.args.correlation;
      call.link.external_id = event.args.has_external_id ? event.args.external_id : -1;
      call.name = out_->strings.Intern(event.name);
      call.track = TrackOf(event);
      call.kind = category == Category::kRuntime  ? ApiKind::kRuntime
                  : category == Category::kDriver ? ApiKind::kDriver
                                                  : ApiKind::kSync;
      (category == Category::kRuntime  ? counts.runtime_calls
       : category == Category::kDriver ? counts.driver_calls
                                       : counts.sync_events)++;
      out_->api_calls.push_back(call);
      return;
    }
    case Category::kCpuOp:
      ++counts.ops;
      AddSlice(event, SliceKind::kOp);
      return;
    case Category::kUserAnnotation:
      ++counts.annotations;
      AddSlice(event, SliceKind::kUserAnnotation);
      return;
    case Category::kGpuAnnotation:
      ++counts.gpu_annotations;
      AddSlice(event, SliceKind::kGpuAnnotation);
      return;
    case Category::kPythonFunction:
      ++counts.python_functions;
      AddSlice(event, SliceKind::kPythonFunction);
      return;
    case Category::kNone:
      if (IsLegacyCpuFunctionsPid(event.pid)) {  // torch.autograd.profiler without Kineto
        ++counts.ops;
        AddSlice(event, SliceKind::kOp);
        return;
      }
      AddUntyped(event);  // counted once classified
      return;
    case Category::kProfilerRange:
      ++counts.counter_ranges;
      return;
    case Category::kTraceSpan:
    case Category::kOverhead:
    case Category::kInstant:
    case Category::kFlow:
    case Category::kUnknown:
      ++counts.other;
      return;
  }
  (void)content_offset;
}

void ChunkBuilder::AddKernel(const RawEvent& event) {
  const RawArgs& args = event.args;
  Kernel k;
  k.start_ns = event.ts_ns;
  k.duration_ns = event.dur_ns;
  k.link.correlation = args.correlation;
  k.link.external_id = args.has_external_id ? args.external_id : -1;
  k.name = out_->strings.Intern(event.name);
  k.device = DeviceOf(args.has_device ? args.device : NumberOrKey(event.pid));
  k.stream = args.has_stream ? args.stream : NumberOrKey(event.tid);
  k.grid = args.grid;
  k.block = args.block;
  if (args.shared_memory >= 0 && args.shared_memory <= UINT32_MAX) {
    k.shared_memory_bytes = static_cast<uint32_t>(args.shared_memory);
  }
  if (args.registers_per_thread >= 0 && args.registers_per_thread <= UINT16_MAX) {
    k.registers_per_thread = static_cast<uint16_t>(args.registers_per_thread);
  }
  if (args.occupancy_percent >= 0 && args.occupancy_percent <= 100) {
    k.achieved_occupancy_percent = static_cast<int8_t>(args.occupancy_percent);
    k.occupancy_source = CounterSource::kKinetoEstimate;
  }
  out_->kernels.push_back(k);
}

void ChunkBuilder::AddTransfer(const RawEvent& event, TransferKind kind) {
  const RawArgs& args = event.args;
  Transfer t;
  t.start_ns = event.ts_ns;
  t.duration_ns = event.dur_ns;
  t.link.correlation = args.correlation;
  t.link.external_id = args.has_external_id ? args.external_id : -1;
  t.bytes = args.bytes > 0 ? static_cast<uint64_t>(args.bytes) : 0;
  t.name = out_->strings.Intern(event.name);
  t.device = DeviceOf(args.has_device ? args.device : NumberOrKey(event.pid));
  t.stream = args.has_stream ? args.stream : NumberOrKey(event.tid);
  t.kind = kind;
  out_->transfers.push_back(t);
}

void ChunkBuilder::AddUntyped(const RawEvent& event) {
  const RawArgs& args = event.args;
  UntypedEvent u;
  u.start_ns = event.ts_ns;
  u.duration_ns = event.dur_ns;
  u.correlation = args.has_correlation ? args.correlation : 0;
  u.name = out_->strings.Intern(event.name);
  u.hlo_op = out_->strings.Intern(args.hlo_op);
  u.hlo_module = out_->strings.Intern(args.hlo_module);
  u.kernel_details = out_->strings.Intern(args.kernel_details);
  u.track = TrackOf(event);
  out_->untyped.push_back(u);
}

namespace {

CollectiveArgs CollectiveArgsOf(const RawCollective& raw) {
  const auto count = [](int64_t n) { return n < 0 ? std::nullopt : std::optional<int64_t>(n); };
  CollectiveArgs c;
  c.name = raw.name;
  c.process_group = raw.process_group;
  c.process_group_description = raw.process_group_description;
  c.dtype = raw.dtype;
  c.seq = count(raw.seq);
  c.in_nelems = count(raw.in_nelems);
  c.out_nelems = count(raw.out_nelems);
  c.group_size = count(raw.group_size);
  return c;
}

}  // namespace

void ChunkBuilder::AddSlice(const RawEvent& event, SliceKind kind) {
  Slice s;
  s.start_ns = event.ts_ns;
  s.duration_ns = event.dur_ns;
  s.external_id = event.args.has_external_id ? event.args.external_id : -1;
  s.name = out_->strings.Intern(event.name);
  if (const RawArgs& a = event.args; a.collective.any) {
    // Collective arguments differ per call (Seq), so such sets are not worth the text cache.
    OpInputs inputs = a.input_dims.empty() ? OpInputs{}
                                           : OpInputsFromLists(a.input_dims, a.input_types,
                                                               a.input_values, a.input_strides);
    inputs.collective = CollectiveArgsOf(a.collective);
    s.inputs = out_->op_inputs.Add(std::move(inputs));
  } else if (!a.input_dims.empty()) {
    inputs_key_.assign(a.input_dims).push_back('\0');
    inputs_key_.append(a.input_types).push_back('\0');
    inputs_key_.append(a.input_values).push_back('\0');
    inputs_key_.append(a.input_strides);
    auto [it, added] = inputs_by_text_.try_emplace(inputs_key_, 0);
    if (added) {
      it->second = out_->op_inputs.Add(
          OpInputsFromLists(a.input_dims, a.input_types, a.input_values, a.input_strides));
    }
    s.inputs = it->second;
  }
  s.track = TrackOf(event);
  s.kind = kind;
  out_->slices.push_back(s);
}

void ChunkBuilder::AddMetadata(const RawEvent& event) {
  TrackKey key{NumberOrKey(event.pid), NumberOrKey(event.tid)};
  if (event.name == "process_name") {
    out_->metadata.push_back(
        {MetadataKind::kProcessName, key, std::string(event.args.metadata_name)});
  } else if (event.name == "process_labels") {
    out_->metadata.push_back({MetadataKind::kProcessLabels, key, std::string(event.args.labels)});
  } else if (event.name == "thread_name") {
    out_->metadata.push_back(
        {MetadataKind::kThreadName, key, std::string(event.args.metadata_name)});
  }
}

}  // namespace tensormorph::chrome
