#include "import/onnxruntime/trace_builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

#include "import/common/metadata_keys.h"
#include "import/onnxruntime/json_fields.h"
#include "import/onnxruntime/onnxruntime_importer.h"
#include "import/onnxruntime/warm_up.h"
#include "model/time.h"

namespace tensormorph::onnxruntime {
namespace {

using nlohmann::json;

constexpr int64_t kMaxMicros = (int64_t{1} << 62) / 1000;  // times stay within 2^62 ns
constexpr std::string_view kNodeSuffix = "_kernel_time";
constexpr const char* kWebGpuProvider = "WebGpuExecutionProvider";

struct NodeEvent {
  Slice op;               // kOp, named by op_name; external_id numbers the nodes from 1
  std::string node_name;  // the event name without "_kernel_time"
  std::string provider;
};

// A device-timed event: a Kernel event after its node, or a WebGPU EP dispatch (Api event).
struct DeviceEvent {
  Kernel kernel;
  int node = -1;  // index into the nodes (a Kernel event's node, a dispatch's node by name)
  std::string provider;
};

struct Events {
  std::vector<Slice> sessions;
  std::vector<size_t> runs;  // indexes of model_run sessions
  std::vector<NodeEvent> nodes;
  std::vector<DeviceEvent> device_events;
};

struct TrackTable {
  Trace* trace;
  std::map<std::pair<int64_t, int64_t>, uint32_t> index;
  uint32_t Of(const json& e) {
    const int64_t pid = Int(e, "pid").value_or(0), tid = Int(e, "tid").value_or(0);
    auto [it, added] = index.emplace(std::pair{pid, tid}, trace->tracks.size());
    if (added) trace->tracks.push_back(Track{pid, tid, {}, {}, {}});
    return it->second;
  }
};

struct DeviceTable {
  Trace* trace;
  std::map<std::string, uint32_t> index;  // by provider name
  uint32_t Of(const std::string& provider) {
    auto [it, added] = index.emplace(provider, trace->devices.size());
    if (added) {
      Device d;
      d.backend = ProviderBackend(provider);
      d.name = provider.empty() ? "(no provider)" : provider;
      d.trace_id = static_cast<int64_t>(trace->devices.size());
      trace->devices.push_back(std::move(d));
    }
    return it->second;
  }
};

uint32_t Dim(const json& args, const char* key) {
  return static_cast<uint32_t>(std::clamp<int64_t>(Int(args, key).value_or(0), 0, UINT32_MAX));
}

// The node a WebGPU EP dispatch "<node name>&<op type>&<program>" belongs to: the latest node of
// that name starting at or before it (GPU times are shifted onto the host clock, so a dispatch
// ends up after its node started), else the first of that name.
int NodeOfDispatch(const std::multimap<std::string, int>& nodes_by_name,
                   const std::vector<NodeEvent>& nodes, const std::string& node_name,
                   int64_t start_ns) {
  int best = -1;
  auto [first, last] = nodes_by_name.equal_range(node_name);
  for (auto it = first; it != last; ++it) {
    const int64_t node_start = nodes[it->second].op.start_ns;
    if (best < 0 || (node_start <= start_ns && node_start >= nodes[best].op.start_ns) ||
        (nodes[best].op.start_ns > start_ns && node_start < nodes[best].op.start_ns)) {
      best = it->second;
    }
  }
  return best;
}

Events ReadEvents(const json& events, Trace* trace) {
  Events out;
  TrackTable tracks{trace, {}};
  std::vector<std::pair<size_t, std::string>> dispatch_nodes;  // device event -> node name
  for (const json& e : events) {
    if (!e.is_object()) {
      ++trace->counts.skipped;
      continue;
    }
    const std::string cat = Str(e, "cat"), name = Str(e, "name");
    const std::optional<int64_t> ts = Int(e, "ts"), dur = Int(e, "dur");
    if (!ts || !dur || *dur < 0 || *ts > kMaxMicros || *ts < -kMaxMicros || *dur > kMaxMicros ||
        Member(e, "ts").is_string() || Member(e, "dur").is_string()) {
      ++trace->counts.skipped;
      continue;
    }
    const int64_t start_ns = *ts * 1000, duration_ns = *dur * 1000;
    const json& args = Member(e, "args");
    if (cat == "Session") {
      Slice s{start_ns, duration_ns};
      s.kind = SliceKind::kUserAnnotation;
      s.track = tracks.Of(e);
      s.name = trace->strings.Intern(name);
      if (name == "model_run") out.runs.push_back(out.sessions.size());
      out.sessions.push_back(s);
      ++trace->counts.annotations;
    } else if (cat == "Node") {
      if (!std::string_view(name).ends_with(kNodeSuffix)) {
        ++trace->counts.other;  // _fence_before / _fence_after
        continue;
      }
      NodeEvent node;
      node.node_name = name.substr(0, name.size() - kNodeSuffix.size());
      std::string op = Str(args, "op_name");
      node.op = Slice{start_ns, duration_ns};
      node.op.kind = SliceKind::kOp;
      node.op.track = tracks.Of(e);
      node.op.name = trace->strings.Intern(op.empty() ? node.node_name : op);
      node.op.external_id = static_cast<int64_t>(out.nodes.size()) + 1;
      // Every node keeps its name (OpInputs::node), with its input shapes when recorded.
      std::optional<OpInputs> inputs = InputsOf(Member(args, "input_type_shape"));
      if (!inputs) inputs.emplace();
      inputs->node = node.node_name;
      node.op.inputs = trace->op_inputs.Add(std::move(*inputs));
      node.provider = Str(args, "provider");
      out.nodes.push_back(std::move(node));
      ++trace->counts.ops;
    } else if (cat == "Kernel" && !out.nodes.empty()) {
      // GPU kernels (CUPTI / roctracer) follow the node that launched them.
      DeviceEvent d;
      d.node = static_cast<int>(out.nodes.size()) - 1;
      d.provider = out.nodes.back().provider;
      d.kernel.start_ns = start_ns;
      d.kernel.duration_ns = duration_ns;
      d.kernel.name = trace->strings.Intern(name);
      d.kernel.stream = Int(args, "stream").value_or(-1);
      d.kernel.grid = {Dim(args, "grid_x"), Dim(args, "grid_y"), Dim(args, "grid_z")};
      d.kernel.block = {Dim(args, "block_x"), Dim(args, "block_y"), Dim(args, "block_z")};
      out.device_events.push_back(std::move(d));
      ++trace->counts.kernels;
    } else if (cat == "Api" && name.find('&') != std::string::npos) {
      // Native WebGPU EP dispatches, "<node name>&<op type>&<program name>": the kernel is the
      // WGSL program.
      const size_t first = name.find('&'), last = name.rfind('&');
      DeviceEvent d;
      d.provider = kWebGpuProvider;
      d.kernel.start_ns = start_ns;
      d.kernel.duration_ns = duration_ns;
      d.kernel.name = trace->strings.Intern(last + 1 < name.size() ? name.substr(last + 1) : name);
      dispatch_nodes.emplace_back(out.device_events.size(), name.substr(0, first));
      out.device_events.push_back(std::move(d));
      ++trace->counts.kernels;
    } else {
      ++trace->counts.other;
    }
  }
  std::multimap<std::string, int> nodes_by_name;
  for (size_t i = 0; i < out.nodes.size(); ++i) {
    nodes_by_name.emplace(out.nodes[i].node_name, static_cast<int>(i));
  }
  for (const auto& [event, node_name] : dispatch_nodes) {
    DeviceEvent& d = out.device_events[event];
    d.node = NodeOfDispatch(nodes_by_name, out.nodes, node_name, d.kernel.start_ns);
  }
  return out;
}

struct WarmUpSummary {
  std::string name;
  int64_t duration_ns = 0;
  uint64_t nodes = 0, device_events = 0;
  int64_t node_ns = 0, device_ns = 0;
};

// Numbers the runs model_run#N in time order (the writer does not keep events sorted) and
// returns the windows of the first `skip` of them.
std::vector<RunWindow> NumberRuns(Events* events, int skip_runs, Trace* trace) {
  std::vector<size_t>& runs = events->runs;
  std::stable_sort(runs.begin(), runs.end(), [&](size_t x, size_t y) {
    return events->sessions[x].start_ns < events->sessions[y].start_ns;
  });
  std::vector<RunWindow> skipped;
  const size_t skip = RunsToSkip(runs.size(), skip_runs);
  const bool mark_only = skip_runs == ImportOptions::kMarkWarmUpRuns;
  json marked = json::array();
  for (size_t i = 0; i < runs.size(); ++i) {
    Slice& run = events->sessions[runs[i]];
    const std::string name =
        fmt::format("model_run#{}{}", i, mark_only && i < skip ? " (warm-up)" : "");
    run.name = trace->strings.Intern(name);
    if (i >= skip) continue;
    if (mark_only) {
      marked.push_back({{"run", name},
                        {"start_ns", run.start_ns},
                        {"duration_ns", run.duration_ns},
                        {"kept", true}});
    } else {
      skipped.push_back({run.start_ns, run.end_ns()});
    }
  }
  if (!marked.empty()) {
    trace->metadata["warm_up_runs"] = marked.dump();
    trace->warnings.push_back(fmt::format(
        "{} of {} model runs kept and marked as warm-up ({}); --skip-runs N leaves runs out",
        marked.size(), runs.size(), marked[0]["run"].get<std::string>()));
  }
  return skipped;
}

void ReportWarmUp(const std::vector<WarmUpSummary>& summaries, size_t run_count, int skip_runs,
                  Trace* trace) {
  if (summaries.empty()) return;
  json list = json::array();
  std::vector<std::string> parts;
  for (const WarmUpSummary& s : summaries) {
    list.push_back({{"run", s.name},
                    {"duration_ns", s.duration_ns},
                    {"nodes", s.nodes},
                    {"node_ns", s.node_ns},
                    {"device_events", s.device_events},
                    {"device_ns", s.device_ns}});
    parts.push_back(fmt::format("{} ({}, {} nodes, {} node time)", s.name,
                                FormatDuration(static_cast<double>(s.duration_ns)), s.nodes,
                                FormatDuration(static_cast<double>(s.node_ns))));
  }
  trace->metadata["warm_up_runs"] = list.dump();
  trace->warnings.push_back(fmt::format(
      "{} of {} model runs left out as warm-up: {}; {}", summaries.size(), run_count,
      fmt::join(parts, ", "), skip_runs < 0 ? "--skip-runs 0 keeps them" : "set by --skip-runs"));
}

}  // namespace

void BuildOnnxRuntimeTrace(const json& raw_events, int skip_runs, Trace* trace) {
  Events events = ReadEvents(raw_events, trace);
  const std::vector<RunWindow> skipped = NumberRuns(&events, skip_runs, trace);
  std::vector<WarmUpSummary> warm_up(skipped.size());
  for (size_t i = 0; i < skipped.size(); ++i) {
    warm_up[i].name = std::string(trace->str(events.sessions[events.runs[i]].name));
    warm_up[i].duration_ns = skipped[i].end_ns - skipped[i].start_ns;
  }

  // Sessions, except the skipped runs themselves.
  for (size_t i = 0; i < events.sessions.size(); ++i) {
    const bool skipped_run = std::find(events.runs.begin(), events.runs.begin() + skipped.size(),
                                       i) != events.runs.begin() + skipped.size();
    if (!skipped_run) trace->slices.push_back(events.sessions[i]);
  }

  // Nodes: kept ones become ops; a node's run decides for its device events too.
  std::vector<int> node_run(events.nodes.size(), -1);
  for (size_t i = 0; i < events.nodes.size(); ++i) {
    const NodeEvent& node = events.nodes[i];
    node_run[i] = SkippedRunAt(skipped, node.op.start_ns);
    if (node_run[i] >= 0) {
      ++warm_up[node_run[i]].nodes;
      warm_up[node_run[i]].node_ns += node.op.duration_ns;
    } else {
      trace->slices.push_back(node.op);
    }
  }

  DeviceTable devices{trace, {}};
  std::set<std::string> providers_with_device_times;
  bool device_kernels = false;
  for (DeviceEvent& d : events.device_events) {
    providers_with_device_times.insert(d.provider);
    const int run = d.node >= 0 ? node_run[d.node] : SkippedRunAt(skipped, d.kernel.start_ns);
    if (run >= 0) {
      ++warm_up[run].device_events;
      warm_up[run].device_ns += d.kernel.duration_ns;
      continue;
    }
    if (d.node >= 0) d.kernel.link.external_id = events.nodes[d.node].op.external_id;
    d.kernel.device = devices.Of(d.provider);
    trace->kernels.push_back(d.kernel);
    device_kernels = true;
  }

  // Nodes without device times of their own: a kernel named by the node, with the node's time,
  // linked to its op.
  uint64_t node_kernels = 0;
  std::set<std::string> node_time_providers;
  for (size_t i = 0; i < events.nodes.size(); ++i) {
    const NodeEvent& node = events.nodes[i];
    if (providers_with_device_times.count(node.provider) != 0) continue;
    ++node_kernels;  // counted in the input's events even when its run is left out
    if (node_run[i] >= 0) continue;
    Kernel k;
    k.start_ns = node.op.start_ns;
    k.duration_ns = node.op.duration_ns;
    k.name = trace->strings.Intern(node.node_name);
    k.device = devices.Of(node.provider);
    k.stream = trace->tracks[node.op.track].tid;
    k.link.external_id = node.op.external_id;
    trace->kernels.push_back(k);
    node_time_providers.insert(node.provider);
  }
  trace->counts.kernels += node_kernels;

  trace->format_version = "ONNX Runtime profile JSON (enable_profiling)";
  if (node_kernels > 0) {
    trace->format_version += "; kernels are node times (host-measured), not device kernel times";
    trace->metadata["kernel_times"] = "\"node\"";
    std::vector<std::string> gpu;
    for (const std::string& p : node_time_providers) {
      if (ProviderBackend(p) != Backend::kCpu) gpu.push_back(p);
    }
    if (!gpu.empty()) {
      trace->warnings.push_back(fmt::format(
          "no GPU kernel events for {}: its kernels are ONNX Runtime node times measured on "
          "the host, not GPU kernel times",
          fmt::join(gpu, ", ")));
    }
  }
  if (device_kernels) {
    trace->metadata["device_kernel_events"] = "true";
    // Device events carry the External id of their node, numbered here: the linker may trust it
    // although a dispatch runs after its node's host time (link/work_links.h).
    trace->metadata[std::string(kExactExternalIdsKey)] = std::string(kExactExternalIdsValue);
    trace->exact_external_ids = true;
  }
  ReportWarmUp(warm_up, events.runs.size(), skip_runs, trace);
  if (trace->counts.skipped > 0) {
    trace->warnings.push_back(
        fmt::format("{} events without integer ts/dur skipped", trace->counts.skipped));
  }
}

}  // namespace tensormorph::onnxruntime
