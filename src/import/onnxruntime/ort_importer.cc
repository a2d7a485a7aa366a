#include "import/onnxruntime/ort_importer.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "io/block_reader.h"
#include "model/trace_order.h"

namespace tensormorph::onnxruntime {
namespace {

using nlohmann::json;

constexpr int64_t kMaxMicros = (int64_t{1} << 62) / 1000;  // times stay within 2^62 ns

std::string_view SkipSpace(std::string_view s, size_t* i) {
  while (*i < s.size() && (s[*i] == ' ' || s[*i] == '\n' || s[*i] == '\r' || s[*i] == '\t')) ++*i;
  return s.substr(*i);
}

// Whether `head` has a "cat" member whose value is one of ORT's "Session" / "Node", however the
// writer spaced it ("cat" : "Node").
bool HasOrtCategory(std::string_view head) {
  for (size_t at = head.find("\"cat\""); at != std::string_view::npos;
       at = head.find("\"cat\"", at + 5)) {
    size_t i = at + 5;
    SkipSpace(head, &i);
    if (i >= head.size() || head[i] != ':') continue;
    ++i;
    std::string_view rest = SkipSpace(head, &i);
    if (rest.starts_with("\"Session\"") || rest.starts_with("\"Node\"")) return true;
  }
  return false;
}

const json& Member(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

std::string Str(const json& object, const char* key) {
  const json& v = Member(object, key);
  return v.is_string() ? v.get<std::string>() : std::string();
}

// An integer member; ORT writes times as integers, and args as strings of integers.
std::optional<int64_t> Int(const json& object, const char* key) {
  const json& v = Member(object, key);
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() > static_cast<uint64_t>(INT64_MAX)) return std::nullopt;
    return static_cast<int64_t>(v.get<uint64_t>());
  }
  if (v.is_number_integer()) return v.get<int64_t>();
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    if (s.empty() || s.size() > 18) return std::nullopt;
    int64_t out = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      out = out * 10 + (c - '0');
    }
    return out;
  }
  return std::nullopt;
}

// {"dims": [[1,3,224,224], ...], "types": ["float", ...]} from [{"float": [1,3,224,224]}, ...].
std::string InputsText(const json& shapes) {
  if (!shapes.is_array() || shapes.empty()) return {};
  json dims = json::array(), types = json::array();
  for (const json& entry : shapes) {
    if (!entry.is_object() || entry.size() != 1) return {};
    dims.push_back(entry.begin().value());
    types.push_back(entry.begin().key());
  }
  return fmt::format("{{\"dims\": {}, \"types\": {}}}", dims.dump(), types.dump());
}

// (line, column), 1-based, of byte `offset` of `text`.
std::pair<uint64_t, uint64_t> LineColumn(const std::string& text, size_t offset) {
  offset = std::min(offset, text.size());
  const uint64_t line = 1 + std::count(text.begin(), text.begin() + offset, '\n');
  const size_t newline = offset == 0 ? std::string::npos : text.rfind('\n', offset - 1);
  const size_t line_start = newline == std::string::npos ? 0 : newline + 1;
  return {line, offset - line_start + 1};
}

struct Builder {
  explicit Builder(Trace* t) : trace(t) {}
  Trace* trace;
  std::map<std::pair<int64_t, int64_t>, uint32_t> tracks;
  std::map<std::string, uint32_t> devices;  // by provider name
  std::set<Backend> backends{Backend::kCpu};

  uint32_t TrackOf(const json& e) {
    const int64_t pid = Int(e, "pid").value_or(0), tid = Int(e, "tid").value_or(0);
    auto [it, added] = tracks.emplace(std::pair{pid, tid}, trace->tracks.size());
    if (added) trace->tracks.push_back(Track{pid, tid, {}, {}, {}});
    return it->second;
  }

  uint32_t DeviceOf(const std::string& provider) {
    auto [it, added] = devices.emplace(provider, trace->devices.size());
    if (added) {
      Device d;
      d.backend = ProviderBackend(provider);
      d.name = provider.empty() ? "(no provider)" : provider;
      d.trace_id = static_cast<int64_t>(trace->devices.size());
      trace->devices.push_back(std::move(d));
      backends.insert(trace->devices.back().backend);
    }
    return it->second;
  }
};

struct NodeRef {
  size_t slice;
  uint32_t track;
  std::string provider;
};

void BuildTrace(const json& events, Trace* trace) {
  Builder b(trace);
  std::vector<NodeRef> nodes;
  std::set<std::string> providers_with_device_times;
  std::vector<size_t> runs;  // model_run slices
  bool gpu_kernels = false;
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
      Slice s;
      s.start_ns = start_ns;
      s.duration_ns = duration_ns;
      s.kind = SliceKind::kUserAnnotation;
      s.track = b.TrackOf(e);
      s.name = trace->strings.Intern(name);
      if (name == "model_run") runs.push_back(trace->slices.size());
      trace->slices.push_back(s);
      ++trace->counts.annotations;
    } else if (cat == "Node") {
      static constexpr std::string_view kSuffix = "_kernel_time";
      if (!std::string_view(name).ends_with(kSuffix)) {
        ++trace->counts.other;  // _fence_before / _fence_after
        continue;
      }
      std::string op = Str(args, "op_name");
      if (op.empty()) op = name.substr(0, name.size() - kSuffix.size());
      Slice s;
      s.start_ns = start_ns;
      s.duration_ns = duration_ns;
      s.kind = SliceKind::kOp;
      s.track = b.TrackOf(e);
      s.name = trace->strings.Intern(op);
      s.external_id = static_cast<int64_t>(nodes.size()) + 1;
      const std::string inputs = InputsText(Member(args, "input_type_shape"));
      if (!inputs.empty()) s.inputs = trace->strings.Intern(inputs);
      nodes.push_back({trace->slices.size(), s.track, Str(args, "provider")});
      trace->slices.push_back(s);
      ++trace->counts.ops;
    } else if (cat == "Kernel" && !nodes.empty()) {
      // GPU kernels (CUPTI / roctracer) follow the node that launched them.
      const NodeRef& node = nodes.back();
      providers_with_device_times.insert(node.provider);
      Kernel k;
      k.start_ns = start_ns;
      k.duration_ns = duration_ns;
      k.name = trace->strings.Intern(name);
      k.device = b.DeviceOf(node.provider);
      k.stream = Int(args, "stream").value_or(-1);
      k.link.external_id = trace->slices[node.slice].external_id;
      auto dim = [&](const char* key) {
        return static_cast<uint32_t>(
            std::clamp<int64_t>(Int(args, key).value_or(0), 0, UINT32_MAX));
      };
      k.grid = {dim("grid_x"), dim("grid_y"), dim("grid_z")};
      k.block = {dim("block_x"), dim("block_y"), dim("block_z")};
      trace->kernels.push_back(k);
      ++trace->counts.kernels;
      gpu_kernels = true;
    } else if (cat == "Api" && name.find('&') != std::string::npos) {
      // Native WebGPU EP dispatches: "<kernel_name>&<kernel_type>&<program_name>".
      providers_with_device_times.insert("WebGpuExecutionProvider");
      Kernel k;
      k.start_ns = start_ns;
      k.duration_ns = duration_ns;
      k.name = trace->strings.Intern(name);
      k.device = b.DeviceOf("WebGpuExecutionProvider");
      trace->kernels.push_back(k);
      ++trace->counts.kernels;
      gpu_kernels = true;
    } else {
      ++trace->counts.other;
    }
  }

  // model_run#N, numbered in time order (the writer does not keep events sorted).
  std::stable_sort(runs.begin(), runs.end(), [&](size_t x, size_t y) {
    return trace->slices[x].start_ns < trace->slices[y].start_ns;
  });
  for (size_t i = 0; i < runs.size(); ++i) {
    trace->slices[runs[i]].name = trace->strings.Intern(fmt::format("model_run#{}", i));
  }

  // Nodes without device times of their own: a kernel with the node's time, linked to its op.
  uint64_t node_kernels = 0;
  std::set<std::string> node_time_providers;
  for (const NodeRef& node : nodes) {
    if (providers_with_device_times.count(node.provider) != 0) continue;
    const Slice& s = trace->slices[node.slice];
    Kernel k;
    k.start_ns = s.start_ns;
    k.duration_ns = s.duration_ns;
    k.name = s.name;
    k.device = b.DeviceOf(node.provider);
    k.stream = trace->tracks[node.track].tid;
    k.link.external_id = s.external_id;
    trace->kernels.push_back(k);
    ++node_kernels;
    node_time_providers.insert(node.provider);
  }
  trace->counts.kernels += node_kernels;

  trace->backends.assign(b.backends.begin(), b.backends.end());
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
          "{}: no GPU kernel events for {}: its kernels are ONNX Runtime node times measured on "
          "the host, not GPU kernel times",
          trace->path, fmt::join(gpu, ", ")));
    }
  }
  if (gpu_kernels) trace->metadata["device_kernel_events"] = "true";
  if (trace->counts.skipped > 0) {
    trace->warnings.push_back(fmt::format("{}: {} events without integer ts/dur skipped",
                                          trace->path, trace->counts.skipped));
  }
}

}  // namespace

Backend ProviderBackend(std::string_view provider) {
  auto is = [&](std::string_view prefix) { return provider.starts_with(prefix); };
  if (is("CPUExecutionProvider")) return Backend::kCpu;
  if (is("CUDAExecutionProvider") || is("TensorrtExecutionProvider") || is("NvTensorRT"))
    return Backend::kCuda;
  if (is("ROCMExecutionProvider") || is("MIGraphXExecutionProvider")) return Backend::kRocm;
  if (is("WebGpuExecutionProvider") || is("JsExecutionProvider")) return Backend::kWebGpu;
  if (is("CoreMLExecutionProvider")) return Backend::kMetal;
  return Backend::kOther;
}

int OrtImporter::Sniff(std::string_view head) const {
  size_t i = 0;
  if (head.starts_with("\xEF\xBB\xBF")) i = 3;
  SkipSpace(head, &i);
  if (i >= head.size() || head[i] != '[') return 0;
  if (!HasOrtCategory(head)) return 0;
  for (std::string_view marker : {"\"op_name\"", "\"provider\"", "\"model_loading_uri\"",
                                  "\"model_loading_array\"", "\"session_initialization\""}) {
    if (head.find(marker) != std::string_view::npos) return 95;
  }
  return 0;
}

StatusOr<Trace> OrtImporter::Import(const std::string& path, const ImportOptions&) const {
  StatusOr<std::unique_ptr<BlockReader>> opened = BlockReader::Open(path);
  if (!opened.ok()) return opened.status();
  std::string text;
  std::vector<char> block;
  while ((*opened)->Next(&block)) text.append(block.data(), block.size());
  if (!(*opened)->status().ok()) return (*opened)->status();

  Trace trace;
  trace.path = path;
  trace.format = "onnxruntime";
  json doc;
  std::string recovered_warning;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& error) {
    const size_t at = error.byte == 0 ? 0 : error.byte - 1;
    // ORT writes one event per line: a file cut off (or never closed) keeps every line before
    // the last complete "}," one.
    // First try the whole text closed (every event complete, the closing "]" missing).
    size_t cut = std::min(at, text.size());
    while (cut > 0 && std::string_view(" \t\r\n,").find(text[cut - 1]) != std::string::npos) {
      --cut;
    }
    json partial;
    if (cut > 0 && text[cut - 1] == '}') {
      partial = json::parse(text.substr(0, cut) + "\n]", nullptr, /*allow_exceptions=*/false);
      --cut;
    }
    if (!partial.is_array()) {
      cut = text.rfind("},\n", at);
      if (cut == std::string::npos) cut = text.rfind("},\r\n", at);
      if (cut != std::string::npos) {
        partial = json::parse(text.substr(0, cut + 1) + "\n]", nullptr, false);
      }
    }
    if (cut == std::string::npos || !partial.is_array()) {
      return UnreadableInput(fmt::format("not valid JSON: {}", error.what()),
                             SourcePosition::AtOffset(at));
    }
    const auto [line, column] = LineColumn(text, std::min(cut + 3, text.size()));
    recovered_warning = fmt::format(
        "{}:{}:{}: the file is cut off or not valid JSON after this point; read the {} events "
        "before it",
        path, line, column, partial.size());
    doc = std::move(partial);
  }
  if (!doc.is_array()) {
    return UnreadableInput("not an ONNX Runtime profile: expected a JSON array of events",
                           SourcePosition{1, 1});
  }
  BuildTrace(doc, &trace);
  if (!recovered_warning.empty()) trace.warnings.insert(trace.warnings.begin(), recovered_warning);
  SortTraceTables(&trace);
  ComputeTraceSpan(&trace);
  return trace;
}

}  // namespace tensormorph::onnxruntime
