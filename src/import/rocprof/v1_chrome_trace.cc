#include "import/rocprof/v1_chrome_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "import/common/finish_import.h"
#include "import/rocprof/common/agents.h"
#include "import/rocprof/common/columns.h"
#include "import/rocprof/common/json_document.h"
#include "import/rocprof/common/kernels.h"
#include "import/rocprof/common/rocminfo.h"

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

// rocminfo's agents from otherData's "Agent<N>.<field>" keys.
std::vector<AgentInfo> ReadAgents(const json& other) {
  RocminfoAgents fields;
  if (!other.is_object()) return {};
  for (const auto& [key, value] : other.items()) {
    if (value.is_string()) AddFlattenedRocminfoKey(key, value.get<std::string>(), &fields);
  }
  return AgentsFromRocminfo(fields);
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
  TM_ASSIGN_OR_RETURN(const json doc,
                      ReadJsonDocument(input, "rocprof v1 results.json", &gzip_warning));
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

  V1DispatchRows dispatches(DispatchHeader(), &devices, &trace);
  std::map<std::string, uint64_t> unread;  // events not read, by process name
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
    dispatches.Add(row, Text(e, "name"));
  }
  dispatches.AppendWarnings(path);
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
