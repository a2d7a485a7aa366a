#include "import/rocprof/json_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "import/common/finish_import.h"
#include "import/rocprof/common/agents.h"
#include "import/rocprof/common/json_document.h"
#include "tensormorph/io/block_reader.h"

namespace tensormorph::rocprof {
namespace {

using nlohmann::json;

// An unsigned integer member (also nested: {"handle": N} / {"internal": N}); nullopt when absent
// or not an integer, so that a float or string never becomes a time.
std::optional<uint64_t> U64(const json& object, const char* key, const char* inner = nullptr) {
  if (!object.is_object()) return std::nullopt;
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  const json* v = &*it;
  if (inner != nullptr) {
    if (!v->is_object() || !v->contains(inner)) return std::nullopt;
    v = &(*v)[inner];
  }
  if (!v->is_number_unsigned() && !(v->is_number_integer() && v->get<int64_t>() >= 0)) {
    return std::nullopt;
  }
  return v->get<uint64_t>();
}

std::string Str(const json& object, const char* key) {
  if (!object.is_object()) return {};
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

const json& Member(const json& object, const char* key) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

// The array under `key`, or an empty one.
const json& Records(const json& object, const char* key) {
  static const json kEmpty = json::array();
  const json& v = Member(object, key);
  return v.is_array() ? v : kEmpty;
}

template <typename T>
T Clamp(uint64_t v) {
  return static_cast<T>(std::min<uint64_t>(v, std::numeric_limits<T>::max()));
}

uint32_t Workgroups(uint64_t items, uint64_t group) {
  return Clamp<uint32_t>(group == 0 ? items : (items + group - 1) / group);
}

bool Times(const json& r, int64_t* start, int64_t* duration) {
  std::optional<uint64_t> s = U64(r, "start_timestamp"), e = U64(r, "end_timestamp");
  // Times stay within 2^62 ns, as the model requires.
  if (!s || !e || *e < *s || *e > (uint64_t{1} << 62)) return false;
  *start = static_cast<int64_t>(*s);
  *duration = static_cast<int64_t>(*e - *s);
  return true;
}

struct Process {
  std::vector<AgentInfo> agents;
  std::map<uint64_t, size_t> agent_by_handle;
  std::map<uint64_t, const json*> symbols;  // by kernel_id
};

// "Agent <logical node id>": the resolver's spelling for an agent of agent_info.
std::string AgentText(const Process& p, std::optional<uint64_t> handle) {
  if (!handle) return {};
  auto it = p.agent_by_handle.find(*handle);
  if (it == p.agent_by_handle.end()) return {};
  return fmt::format("Agent {}", p.agents[it->second].logical_node_id);
}

void ReadAgents(const json& agents, Process* p) {
  if (!agents.is_array()) return;
  for (const json& a : agents) {
    AgentInfo info;
    std::optional<uint64_t> handle = U64(a, "id", "handle");
    std::optional<uint64_t> node = U64(a, "node_id"), logical = U64(a, "logical_node_id");
    if (!handle || !node) continue;
    info.node_id = static_cast<int64_t>(*node);
    info.logical_node_id = static_cast<int64_t>(logical.value_or(*node));
    info.gpu = U64(a, "type").value_or(0) == 2;  // ROCPROFILER_AGENT_TYPE_GPU
    info.gfx = Str(a, "name");
    info.product = Str(a, "product_name");
    info.gfx_target_version = Clamp<int64_t>(U64(a, "gfx_target_version").value_or(0));
    info.cu_count = Clamp<int64_t>(U64(a, "cu_count").value_or(0));
    info.wave_front_size = Clamp<int64_t>(U64(a, "wave_front_size").value_or(0));
    info.max_waves_per_cu = Clamp<int64_t>(U64(a, "max_waves_per_cu").value_or(0));
    info.lds_kb = Clamp<int64_t>(U64(a, "lds_size_in_kb").value_or(0));
    p->agent_by_handle[*handle] = p->agents.size();
    p->agents.push_back(std::move(info));
  }
  NumberGpus(&p->agents);
}

// strings.buffer_records[kind].operations[operation], the way rocprofv3 names HIP functions.
std::string OperationName(const json& strings, uint64_t kind, uint64_t operation) {
  const json& domains = Member(strings, "buffer_records");
  if (!domains.is_array() || kind >= domains.size()) return {};
  const json& ops = Member(domains[kind], "operations");
  if (!ops.is_array() || operation >= ops.size() || !ops[operation].is_string()) return {};
  return ops[operation].get<std::string>();
}

void ReadProcess(const json& proc, Trace* trace) {
  Process p;
  ReadAgents(Member(proc, "agents"), &p);
  const json& symbols = Member(proc, "kernel_symbols");
  if (symbols.is_array()) {
    for (size_t i = 0; i < symbols.size(); ++i) {
      p.symbols[U64(symbols[i], "kernel_id").value_or(i)] = &symbols[i];
    }
  }
  DeviceResolver devices(p.agents, trace);
  for (const AgentInfo& a : p.agents) trace->described_device_count += a.gpu ? 1 : 0;
  const json& records = Member(proc, "buffer_records");

  for (const json& r : Records(records, "kernel_dispatch")) {
    Kernel k;
    if (!Times(r, &k.start_ns, &k.duration_ns)) {
      ++trace->counts.skipped;
      continue;
    }
    const json& info = Member(r, "dispatch_info");
    const json* symbol = nullptr;
    if (std::optional<uint64_t> id = U64(info, "kernel_id")) {
      auto it = p.symbols.find(*id);
      if (it != p.symbols.end()) symbol = it->second;
    }
    std::string name;
    if (symbol != nullptr) {
      for (const char* key : {"formatted_kernel_name", "demangled_kernel_name", "kernel_name"}) {
        name = Str(*symbol, key);
        if (!name.empty()) break;
      }
      k.registers_per_thread = Clamp<uint16_t>(U64(*symbol, "arch_vgpr_count").value_or(0));
      k.accum_registers_per_thread = Clamp<uint16_t>(U64(*symbol, "accum_vgpr_count").value_or(0));
      k.scalar_registers = Clamp<uint16_t>(U64(*symbol, "sgpr_count").value_or(0));
    }
    k.name = trace->strings.Intern(name);
    k.device = devices.Resolve(AgentText(p, U64(info, "agent_id", "handle")));
    k.link.correlation = U64(r, "correlation_id", "internal").value_or(0);
    std::optional<uint64_t> stream = U64(r, "stream_id", "handle");
    if (!stream) stream = U64(info, "queue_id", "handle");
    if (stream) k.stream = Clamp<int64_t>(*stream);
    // The dispatch's group segment: static + dynamic LDS.
    k.shared_memory_bytes = Clamp<uint32_t>(U64(info, "group_segment_size").value_or(0));
    const json& wg = Member(info, "workgroup_size");
    const json& grid = Member(info, "grid_size");
    k.block = {Clamp<uint32_t>(U64(wg, "x").value_or(0)), Clamp<uint32_t>(U64(wg, "y").value_or(0)),
               Clamp<uint32_t>(U64(wg, "z").value_or(0))};
    k.grid = {Workgroups(U64(grid, "x").value_or(0), k.block.x),
              Workgroups(U64(grid, "y").value_or(0), k.block.y),
              Workgroups(U64(grid, "z").value_or(0), k.block.z)};
    trace->kernels.push_back(k);
    ++trace->counts.kernels;
  }

  static constexpr const char* kCopyNames[] = {"Memcpy", "Memcpy HtoH", "Memcpy HtoD",
                                               "Memcpy DtoH", "Memcpy DtoD"};
  for (const json& r : Records(records, "memory_copy")) {
    Transfer t;
    if (!Times(r, &t.start_ns, &t.duration_ns)) {
      ++trace->counts.skipped;
      continue;
    }
    // rocprofiler_memory_copy_operation_t: 0 none, 1 HtoH, 2 HtoD, 3 DtoH, 4 DtoD.
    const uint64_t op = U64(r, "operation").value_or(0);
    t.name = trace->strings.Intern(op < 5 ? kCopyNames[op] : "Memcpy");
    const char* side = op == 2 ? "dst_agent_id" : "src_agent_id";
    t.device = devices.Resolve(AgentText(p, U64(r, side, "handle")));
    t.link.correlation = U64(r, "correlation_id", "internal").value_or(0);
    t.bytes = U64(r, "bytes").value_or(0);
    trace->transfers.push_back(t);
    ++trace->counts.memcpys;
  }

  const json& strings = Member(proc, "strings");
  const int64_t pid = Clamp<int64_t>(U64(Member(proc, "metadata"), "pid").value_or(0));
  std::map<uint64_t, uint32_t> tracks;
  for (const json& r : Records(records, "hip_api")) {
    ApiCall call;
    if (!Times(r, &call.start_ns, &call.duration_ns)) {
      ++trace->counts.skipped;
      continue;
    }
    const uint64_t kind = U64(r, "kind").value_or(UINT64_MAX);
    const uint64_t op = U64(r, "operation").value_or(UINT64_MAX);
    std::string name = OperationName(strings, kind, op);
    if (name.empty()) name = fmt::format("hip_api operation {}", op);
    call.name = trace->strings.Intern(name);
    call.link.correlation = U64(r, "correlation_id", "internal").value_or(0);
    const uint64_t tid = U64(r, "thread_id").value_or(0);
    auto [it, added] = tracks.emplace(tid, static_cast<uint32_t>(trace->tracks.size()));
    if (added) {
      Track track;
      track.pid = pid;
      track.tid = Clamp<int64_t>(tid);
      trace->tracks.push_back(std::move(track));
    }
    call.track = it->second;
    trace->api_calls.push_back(call);
    ++trace->counts.runtime_calls;
  }
}

}  // namespace

StatusOr<Trace> ImportRocprofJson(const Input& input) {
  const std::string& path = input.path();
  std::string gzip_warning;
  TM_ASSIGN_OR_RETURN(const json doc,
                      ReadJsonDocument(input, "rocprofv3 results.json", &gzip_warning));
  const json& processes = Member(doc, "rocprofiler-sdk-tool");
  if (!processes.is_array()) {
    return UnreadableInput("no \"rocprofiler-sdk-tool\" array: not rocprofv3 JSON output",
                           SourcePosition{1, 1});
  }
  Trace trace;
  trace.path = path;
  trace.format = "rocprof";
  trace.format_version = "rocprofv3 JSON (--output-format json)";
  if (!gzip_warning.empty()) trace.warnings.push_back(gzip_warning);
  for (const json& proc : processes) ReadProcess(proc, &trace);
  if (trace.counts.skipped > 0) {
    trace.warnings.push_back(fmt::format(
        "{}: {} records without integer start/end timestamps skipped", path, trace.counts.skipped));
  }
  FinishImport(&trace, {.backends = {.deviceless = Backend::kRocm}});
  return trace;
}

}  // namespace tensormorph::rocprof
