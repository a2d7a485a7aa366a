#include "import/rocprof/v1_chrome_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "import/common/finish_import.h"
#include "import/rocprof/common/agents.h"
#include "import/rocprof/common/columns.h"
#include "import/rocprof/common/json_document.h"
#include "import/rocprof/common/kernels.h"

namespace tensormorph::rocprof {
namespace {

using nlohmann::json;

// The dispatch args read, in results.csv's column names: one CsvRecord per dispatch over this
// header lets the CSV reader's launch configuration rules (kernels.h) read them unchanged.
const std::vector<std::string>& DispatchHeader() {
  static const std::vector<std::string> kHeader = {
      "KernelName", "gpu-id",     "queue-id", "grd",  "wgr",       "lds",     "scr",
      "arch_vgpr",  "accum_vgpr", "vgpr",     "sgpr", "wave_size", "BeginNs", "EndNs"};
  return kHeader;
}

// A member as text: strings as written, integers in decimal; "" for anything else (a float is
// never turned into a time or a count).
std::string Text(const json& object, const std::string& key) {
  auto it = object.find(key);
  if (it == object.end()) return {};
  if (it->is_string()) return it->get<std::string>();
  if (it->is_number_integer()) return std::to_string(it->get<int64_t>());
  return {};
}

// "32(0x20)" / "64" -> 32 / 64: rocminfo's numbers, flattened by rocprof; 0 when unreadable.
int64_t LeadingInt(const std::string& text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && v >= 0 ? v : 0;
}

// "gfx1201" -> 120001, "gfx90a" -> 90010, "gfx942" -> 90402: major*10000 + minor*100 +
// stepping, as rocprofv3's Gfx_Target_Version (the last two characters are hex digits); 0 when
// the name is not a gfx target.
int64_t GfxTargetVersion(const std::string& gfx) {
  if (!gfx.starts_with("gfx") || gfx.size() < 6) return 0;
  const std::string digits = gfx.substr(3);
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  };
  const int minor = hex(digits[digits.size() - 2]), stepping = hex(digits.back());
  const int64_t major = LeadingInt(digits.substr(0, digits.size() - 2));
  if (minor < 0 || stepping < 0 || major <= 0) return 0;
  return major * 10000 + minor * 100 + stepping;
}

// rocminfo's agents from otherData's "Agent<N>.<field>" keys.
std::vector<AgentInfo> ReadAgents(const json& other) {
  std::map<int64_t, std::map<std::string, std::string>> fields;  // by rocminfo's agent number
  if (!other.is_object()) return {};
  for (const auto& [key, value] : other.items()) {
    if (!key.starts_with("Agent") || !value.is_string()) continue;
    const size_t dot = key.find('.');
    if (dot == std::string::npos) continue;
    int64_t number = 0;
    const auto [end, ec] = std::from_chars(key.data() + 5, key.data() + dot, number);
    if (ec != std::errc() || end != key.data() + dot) continue;
    fields[number][key.substr(dot + 1)] = value.get<std::string>();
  }
  std::vector<AgentInfo> agents;
  for (const auto& agent : fields) {
    // Not a structured binding: clang 14 cannot capture one in the lambda below.
    const std::map<std::string, std::string>& f = agent.second;
    auto get = [&](const char* name) {
      auto it = f.find(name);
      return it == f.end() ? std::string() : it->second;
    };
    const std::string node = get("Node");
    if (node.empty()) continue;
    AgentInfo a;
    a.node_id = a.logical_node_id = LeadingInt(node);
    a.gpu = get("DeviceType") == "GPU";
    a.gfx = get("Name");
    a.product = get("MarketingName");
    a.gfx_target_version = GfxTargetVersion(a.gfx);
    a.cu_count = LeadingInt(get("ComputeUnit"));
    a.wave_front_size = LeadingInt(get("MemoryProperties.WavefrontSize"));
    a.max_waves_per_cu = LeadingInt(get("MemoryProperties.MaxWavesPerCU"));
    agents.push_back(std::move(a));
  }
  NumberGpus(&agents);
  return agents;
}

// pid -> process name from the process_name metadata rows.
std::map<int64_t, std::string> ProcessNames(const json& events) {
  std::map<int64_t, std::string> names;
  for (const json& e : events) {
    if (!e.is_object() || Text(e, "ph") != "M" || Text(e, "name") != "process_name") continue;
    auto args = e.find("args");
    auto pid = e.find("pid");
    if (args == e.end() || !args->is_object() || pid == e.end() || !pid->is_number_integer()) {
      continue;
    }
    names[pid->get<int64_t>()] = Text(*args, "name");
  }
  return names;
}

bool IsGpuRow(const std::string& process) {
  return process.size() > 3 && process.starts_with("GPU") &&
         std::all_of(process.begin() + 3, process.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool LooksLikeV1ChromeTrace(std::string_view head) {
  if (head.find("\"traceEvents\"") == std::string_view::npos) return false;
  // rocprof v1 writes its process rows first: COPY (pid 1), then GPU<N> and GPU Barriers<N>.
  if (head.find("{\"args\":{\"name\":\"COPY\"},\"ph\":\"M\"") != std::string_view::npos) {
    return true;
  }
  return head.find("\"BeginNs\"") != std::string_view::npos &&
         head.find("\"DispatchNs\"") != std::string_view::npos;
}

StatusOr<Trace> ImportV1ChromeTrace(const Input& input) {
  const std::string& path = input.path();
  std::string gzip_warning;
  StatusOr<json> document = ReadJsonDocument(input, "rocprof v1 results.json", &gzip_warning);
  if (!document.ok()) return document.status();
  const json& doc = *document;
  if (!doc.is_object() || !doc.contains("traceEvents") || !doc["traceEvents"].is_array()) {
    return UnreadableInput("no \"traceEvents\" array: not a rocprof v1 Chrome trace",
                           SourcePosition{1, 1});
  }
  const json& events = doc["traceEvents"];
  Trace trace;
  trace.path = path;
  trace.format = "rocprof";
  trace.format_version = "rocprof v1 Chrome trace (results.json; times from BeginNs/EndNs)";
  if (!gzip_warning.empty()) trace.warnings.push_back(gzip_warning);

  static const json kNoOtherData = json::object();
  const json& other = doc.contains("otherData") ? doc["otherData"] : kNoOtherData;
  const std::vector<AgentInfo> agents = ReadAgents(other);
  for (const AgentInfo& a : agents) trace.described_device_count += a.gpu ? 1 : 0;
  DeviceResolver devices(agents, &trace);
  const std::map<int64_t, std::string> processes = ProcessNames(events);

  const Columns columns(DispatchHeader());
  const KernelColumns c(columns);
  std::map<std::string, uint64_t> unread;  // events not read, by process name
  uint64_t bad_times = 0, not_gpu = 0;
  for (const json& e : events) {
    if (!e.is_object() || e.empty()) continue;  // the leading {}
    const std::string ph = Text(e, "ph");
    if (ph == "M") {
      ++trace.counts.metadata;
      continue;
    }
    auto pid = e.find("pid");
    auto named = pid != e.end() && pid->is_number_integer() ? processes.find(pid->get<int64_t>())
                                                            : processes.end();
    const std::string process = named != processes.end() ? named->second : "(no process name)";
    auto args = e.find("args");
    if (ph != "X" || !IsGpuRow(process) || args == e.end() || !args->is_object()) {
      ++unread[process];
      ++trace.counts.other;
      continue;
    }
    CsvRecord row;
    for (const std::string& column : DispatchHeader()) row.fields.push_back(Text(*args, column));
    const std::optional<int64_t> begin = ParseTimestamp(row.at(c.start));
    const std::optional<int64_t> end = ParseTimestamp(row.at(c.end));
    if (!begin || !end || *end < *begin) {
      ++bad_times;
      ++trace.counts.skipped;
      continue;
    }
    Kernel k;
    k.start_ns = *begin;
    k.duration_ns = *end - *begin;
    const std::string name = row.at(c.name).empty() ? Text(e, "name") : row.at(c.name);
    k.name = trace.strings.Intern(name);
    k.device = devices.Resolve(row.at(c.agent));
    if (k.device == kNoDevice) {
      ++not_gpu;
      ++trace.counts.skipped;
      continue;
    }
    ReadLaunchConfiguration(c, row, &k);
    trace.kernels.push_back(k);
    ++trace.counts.kernels;
  }
  if (bad_times > 0) {
    trace.warnings.push_back(fmt::format(
        "{}: {} dispatches without integer BeginNs/EndNs in order skipped", path, bad_times));
  }
  if (not_gpu > 0) {
    trace.warnings.push_back(
        fmt::format("{}: {} dispatches whose gpu-id names no GPU agent skipped", path, not_gpu));
  }
  for (const auto& [process, count] : unread) {
    trace.warnings.push_back(fmt::format(
        "{}: {} events on the \"{}\" row not read (tensormorph reads the GPU<N> dispatch rows of "
        "a rocprof v1 Chrome trace; the run's results.csv and hip_stats/copy files hold the rest)",
        path, count, process));
  }
  FinishImport(&trace, {.backends = {.deviceless = Backend::kRocm}});
  return trace;
}

}  // namespace tensormorph::rocprof
