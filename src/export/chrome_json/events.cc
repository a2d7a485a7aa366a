// The events of a Chrome-JSON export, in the categories and arg keys Kineto writes (see
// shared/reference/chrome-kineto-jax.md §2.5-2.6), which are the ones our importer reads.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <unordered_map>

#include "export/chrome_json/event_writer.h"
#include "export/chrome_json/slice_inputs.h"

namespace tensormorph::chrome_json {
namespace {

std::string_view ApiCategory(ApiKind kind) {
  switch (kind) {
    case ApiKind::kRuntime:
      return "cuda_runtime";  // Kineto writes HIP runtime calls under this category too
    case ApiKind::kDriver:
      return "cuda_driver";
    case ApiKind::kSync:
      return "cuda_sync";
  }
  return "cuda_runtime";
}

std::string_view SliceCategory(SliceKind kind) {
  switch (kind) {
    case SliceKind::kOp:
      return "cpu_op";
    case SliceKind::kUserAnnotation:
      return "user_annotation";
    case SliceKind::kGpuAnnotation:
      return "gpu_user_annotation";
    case SliceKind::kPythonFunction:
      return "python_function";
  }
  return "cpu_op";
}

std::string_view FlowCategory(FlowKind kind) {
  switch (kind) {
    case FlowKind::kLaunch:
      return "ac2g";
    case FlowKind::kForwardBackward:
      return "fwdbwd";
    case FlowKind::kOther:
      return "flow";  // not a Kineto flow category: read back as kOther
  }
  return "flow";
}

}  // namespace

void EventWriter::BeginEvent(char phase, std::string_view category, std::string_view name) {
  out_.MaybeFlush();
  out_.Raw(events_++ == 0 ? "\n{\"ph\":\"" : ",\n{\"ph\":\"");
  out_.buffer().push_back(phase);
  out_.Raw("\"");
  if (!category.empty()) out_.Format(",\"cat\":\"{}\"", category);
  out_.Raw(",\"name\":");
  out_.String(name);
}

void EventWriter::TrackIds(uint32_t track_index) {
  if (track_index >= trace_.tracks.size()) {
    out_.Raw(",\"pid\":0,\"tid\":0");
    return;
  }
  // String pids/tids go back out as strings: the importer folds them into the same ids.
  const Track& track = trace_.tracks[track_index];
  out_.Raw(",\"pid\":");
  if (!track.pid_name.empty()) {
    out_.String(track.pid_name);
  } else {
    out_.Format("{}", track.pid);
  }
  out_.Raw(",\"tid\":");
  if (!track.tid_name.empty()) {
    out_.String(track.tid_name);
  } else {
    out_.Format("{}", track.tid);
  }
}

void EventWriter::DeviceIds(uint32_t device, int64_t stream) {
  out_.Format(",\"pid\":{},\"tid\":{}", DevicePid(device), stream);
}

void EventWriter::Times(int64_t start_ns, int64_t duration_ns) {
  out_.Raw(",\"ts\":");
  out_.Micros(start_ns - time_base_);
  out_.Raw(",\"dur\":");
  out_.Micros(duration_ns);
}

void EventWriter::BeginArgs() {
  out_.Raw(",\"args\":{");
  args_empty_ = true;
}

void EventWriter::ArgKey(std::string_view key) {
  if (!args_empty_) out_.buffer().push_back(',');
  args_empty_ = false;
  out_.buffer().push_back('"');
  out_.Raw(key);
  out_.Raw("\":");
}

void EventWriter::DeviceArgs(uint32_t device, int64_t stream) {
  BeginArgs();
  ArgKey("device");
  out_.Format("{},\"stream\":{}", DeviceKey(device), stream);
}

void EventWriter::LinkArgs(const LinkIds& link) {
  if (link.correlation != 0) {
    ArgKey("correlation");
    out_.Format("{}", link.correlation);
  }
  if (link.external_id >= 0) {
    ArgKey("External id");
    out_.Format("{}", link.external_id);
  }
}

void EventWriter::KernelMetrics(const KernelCounters& counters) {
  out_.Raw(",\"metrics\":{");
  bool first = true;
  for (const CounterValue& metric : counters.metrics) {
    if (!first) out_.Raw(",");
    first = false;
    const std::string_view unit = trace_.str(metric.unit);
    out_.String(unit.empty() ? std::string(trace_.str(metric.name))
                             : fmt::format("{} [{}]", trace_.str(metric.name), unit));
    if (std::isfinite(metric.value)) {
      out_.Format(":{}", metric.value);  // shortest text that reads back as the same double
    } else {
      out_.Raw(":null");  // JSON has no NaN or infinity
    }
  }
  out_.Raw("}");
}

void EventWriter::WriteDeviceWork() {
  // Nsight Compute counters ride along as a "metrics" arg of their kernel (the importer ignores
  // it; viewers show it).
  constexpr uint32_t kNoCounters = UINT32_MAX;
  std::vector<uint32_t> counters_of_kernel;
  if (!trace_.kernel_counters.empty()) {
    counters_of_kernel.assign(trace_.kernels.size(), kNoCounters);
    for (uint32_t i = 0; i < trace_.kernel_counters.size(); ++i) {
      const uint32_t kernel = trace_.kernel_counters[i].kernel;
      if (kernel < counters_of_kernel.size()) counters_of_kernel[kernel] = i;
    }
  }
  size_t kernel = 0;
  for (const Kernel& k : trace_.kernels) {
    // The name as the source wrote it (mangled, where it was), so that a re-import shows and
    // keeps the same names (the importer demangles again).
    auto mangled = trace_.mangled_names.find(k.name);
    BeginEvent('X', "kernel",
               trace_.str(mangled != trace_.mangled_names.end() ? mangled->second : k.name));
    DeviceIds(k.device, k.stream);
    Times(k.start_ns, k.duration_ns);
    DeviceArgs(k.device, k.stream);
    LinkArgs(k.link);
    if (!k.grid.empty()) out_.Format(",\"grid\":[{},{},{}]", k.grid.x, k.grid.y, k.grid.z);
    if (!k.block.empty()) out_.Format(",\"block\":[{},{},{}]", k.block.x, k.block.y, k.block.z);
    if (k.registers_per_thread != 0)
      out_.Format(",\"registers per thread\":{}", k.registers_per_thread);
    if (k.shared_memory_bytes != 0) out_.Format(",\"shared memory\":{}", k.shared_memory_bytes);
    if (k.achieved_occupancy_percent >= 0)
      out_.Format(",\"est. achieved occupancy %\":{}", k.achieved_occupancy_percent);
    // AMD register files (rocprof names); Kineto has no keys for them.
    if (k.accum_registers_per_thread != 0)
      out_.Format(",\"accum_vgpr\":{}", k.accum_registers_per_thread);
    if (k.scalar_registers != 0) out_.Format(",\"sgpr\":{}", k.scalar_registers);
    if (k.wave_size != 0) out_.Format(",\"wave size\":{}", k.wave_size);
    if (kernel < counters_of_kernel.size() && counters_of_kernel[kernel] != kNoCounters) {
      KernelMetrics(trace_.kernel_counters[counters_of_kernel[kernel]]);
    }
    out_.Raw("}}");
    ++kernel;
  }
  for (const Transfer& t : trace_.transfers) {
    BeginEvent('X', t.kind == TransferKind::kMemset ? "gpu_memset" : "gpu_memcpy",
               trace_.str(t.name));
    DeviceIds(t.device, t.stream);
    Times(t.start_ns, t.duration_ns);
    DeviceArgs(t.device, t.stream);
    LinkArgs(t.link);
    out_.Format(",\"bytes\":{}}}}}", t.bytes);
  }
}

void EventWriter::WriteHostWork() {
  for (const ApiCall& call : trace_.api_calls) {
    BeginEvent('X', ApiCategory(call.kind), trace_.str(call.name));
    TrackIds(call.track);
    Times(call.start_ns, call.duration_ns);
    BeginArgs();
    LinkArgs(call.link);
    out_.Raw("}}");
  }
  // Recorded inputs repeat (ops with the same arguments share an id): render each set once.
  std::unordered_map<OpInputsId, std::string> input_args;
  for (const Slice& s : trace_.slices) {
    BeginEvent('X', SliceCategory(s.kind), trace_.str(s.name));
    TrackIds(s.track);
    Times(s.start_ns, s.duration_ns);
    BeginArgs();
    if (s.external_id >= 0) {
      ArgKey("External id");
      out_.Format("{}", s.external_id);
    }
    if (const OpInputs* inputs = trace_.inputs_of(s)) {
      auto [it, inserted] = input_args.try_emplace(s.inputs);
      if (inserted) it->second = InputArgs(*inputs);
      // The rendered text is empty or starts with a comma; drop that when it is the first arg.
      const std::string_view rendered = it->second;
      if (!rendered.empty()) {
        out_.Raw(args_empty_ ? rendered.substr(1) : rendered);
        args_empty_ = false;
      }
    }
    out_.Raw("}}");
  }
}

void EventWriter::WriteInstants() {
  // Args texts repeat little ([memory] records differ in their addresses); check each once anyway.
  std::unordered_map<StringId, bool> pasteable;
  for (const Instant& i : trace_.instants) {
    BeginEvent('i', "", trace_.str(i.name));
    if (i.category != 0) {
      out_.Raw(",\"cat\":");
      out_.String(trace_.str(i.category));
    }
    TrackIds(i.track);
    out_.Raw(",\"ts\":");
    out_.Micros(i.ts_ns - time_base_);
    out_.Raw(i.scope == InstantScope::kGlobal    ? ",\"s\":\"g\""
             : i.scope == InstantScope::kProcess ? ",\"s\":\"p\""
                                                 : ",\"s\":\"t\"");
    if (i.args != 0) {
      const std::string_view args = trace_.str(i.args);
      auto [it, inserted] = pasteable.try_emplace(i.args);
      if (inserted) {
        it->second = !args.empty() && args.front() == '{' && nlohmann::json::accept(args);
      }
      if (it->second) {
        out_.Raw(",\"args\":");
        out_.Raw(args);
      } else {  // not a JSON object the output may hold verbatim: keep it as text
        out_.Raw(",\"args\":{\"args\":");
        out_.String(args);
        out_.Raw("}");
      }
    }
    out_.Raw("}");
  }
}

void EventWriter::FlowFields(uint64_t id, int64_t ts_ns, bool binds_enclosing) {
  out_.Format(",\"id\":{},\"ts\":", id);
  out_.Micros(ts_ns - time_base_);
  if (binds_enclosing) out_.Raw(",\"bp\":\"e\"");
  out_.Raw("}");
}

void EventWriter::WriteFlows() {
  for (const Flow& flow : trace_.flows) {
    const char phase = flow.phase == FlowPhase::kStart  ? 's'
                       : flow.phase == FlowPhase::kStep ? 't'
                                                        : 'f';
    BeginEvent(phase, FlowCategory(flow.kind), FlowCategory(flow.kind));
    TrackIds(flow.track);
    FlowFields(flow.id, flow.ts_ns, flow.binds_enclosing);
  }
  const bool has_launch_flows =
      std::any_of(trace_.flows.begin(), trace_.flows.end(),
                  [](const Flow& f) { return f.kind == FlowKind::kLaunch; });
  if (has_launch_flows) return;
  // Formats without flow events (Nsight Systems, rocprof) link launches by correlation id only;
  // draw Kineto's ac2g arrows from the launching call to each kernel / copy it launched.
  std::unordered_map<uint64_t, uint32_t> launch_by_correlation;
  for (uint32_t i = 0; i < trace_.api_calls.size(); ++i) {
    const uint64_t correlation = trace_.api_calls[i].link.correlation;
    // A sync record shares its correlation id with the call that waited; it launched nothing.
    if (correlation != 0 && trace_.api_calls[i].kind != ApiKind::kSync)
      launch_by_correlation.try_emplace(correlation, i);
  }
  if (launch_by_correlation.empty()) return;
  const auto arrow = [&](const LinkIds& link, uint32_t device, int64_t stream, int64_t start_ns) {
    if (link.correlation == 0) return;
    auto it = launch_by_correlation.find(link.correlation);
    if (it == launch_by_correlation.end()) return;
    const ApiCall& call = trace_.api_calls[it->second];
    BeginEvent('s', "ac2g", "ac2g");
    TrackIds(call.track);
    FlowFields(link.correlation, call.start_ns, false);
    BeginEvent('f', "ac2g", "ac2g");
    DeviceIds(device, stream);
    FlowFields(link.correlation, start_ns, true);
  };
  for (const Kernel& k : trace_.kernels) arrow(k.link, k.device, k.stream, k.start_ns);
  for (const Transfer& t : trace_.transfers) arrow(t.link, t.device, t.stream, t.start_ns);
}

}  // namespace tensormorph::chrome_json
