#include "import/rocpd/processes.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>

namespace tensormorph::rocpd {
namespace {

using nlohmann::json;

json ParseObject(std::optional<std::string_view> text) {
  if (!text || text->empty()) return json::object();
  json doc = json::parse(text->begin(), text->end(), nullptr, /*allow_exceptions=*/false);
  return doc.is_object() ? doc : json::object();
}

// A non-negative integer member, also written as a string ("3", as environment values are).
std::optional<int64_t> IntMember(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  if (it->is_number_unsigned()) {
    return static_cast<int64_t>(
        std::min<uint64_t>(it->get<uint64_t>(), std::numeric_limits<int64_t>::max()));
  }
  if (it->is_number_integer()) {
    const int64_t v = it->get<int64_t>();
    return v >= 0 ? std::optional<int64_t>(v) : std::nullopt;
  }
  if (!it->is_string()) return std::nullopt;
  const std::string& s = it->get_ref<const std::string&>();
  if (s.empty() || s.size() > 18 || !std::all_of(s.begin(), s.end(), ::isdigit)) {
    return std::nullopt;
  }
  return std::stoll(s);
}

std::optional<int64_t> FirstOf(const json& env, std::initializer_list<const char*> keys) {
  for (const char* key : keys) {
    if (std::optional<int64_t> v = IntMember(env, key)) return v;
  }
  return std::nullopt;
}

StatusOr<Statement> SelectAll(const Database& db, const RocpdSchema& schema, std::string_view base,
                              std::initializer_list<std::string_view> columns) {
  std::string list;
  for (std::string_view column : columns) {
    list += fmt::format("{}{}", list.empty() ? "" : ", ",
                        ColumnOrNull(schema, base, "T", column, sqlite::QuoteIdentifier(column)));
  }
  return db.Prepare(fmt::format("SELECT {} FROM {} AS T", list, schema.Source(base)),
                    fmt::format("table {}", base));
}

}  // namespace

uint32_t Processes::Of(std::string_view guid, int64_t pid) {
  auto key = std::make_pair(std::string(guid), pid);
  auto it = by_key_.find(key);
  if (it != by_key_.end()) return it->second;
  const auto ordinal = static_cast<uint32_t>(processes_.size());
  ProcessInfo& p = processes_.emplace_back();
  p.guid = key.first;
  p.pid = pid;
  p.devices.emplace(p.agents, trace_);
  by_key_.emplace(std::move(key), ordinal);
  return ordinal;
}

Status Processes::Read(const Database& db, const RocpdSchema& schema) {
  if (schema.Has(kProcesses)) {
    TM_RETURN_IF_ERROR(RequireColumns(schema, kProcesses, {"pid"}));
    TM_ASSIGN_OR_RETURN(Statement rows, SelectAll(db, schema, kProcesses,
                                                  {"guid", "pid", "command", "environment"}));
    for (;;) {
      TM_ASSIGN_OR_RETURN(bool more, rows.Step());
      if (!more) break;
      ProcessInfo& p = processes_[Of(rows.Text(0).value_or(""), rows.IntOr(1, 0))];
      p.command = std::string(rows.Text(2).value_or(""));
      const json env = ParseObject(rows.Text(3));
      p.rank = FirstOf(env, {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK",
                             "SLURM_PROCID", "MV2_COMM_WORLD_RANK"});
      p.world_size = FirstOf(env, {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS",
                                   "MV2_COMM_WORLD_SIZE"});
    }
  }
  if (schema.Has(kThreads) && schema.HasColumn(kThreads, "tid")) {
    TM_ASSIGN_OR_RETURN(Statement rows,
                        SelectAll(db, schema, kThreads, {"guid", "pid", "tid", "name"}));
    for (;;) {
      TM_ASSIGN_OR_RETURN(bool more, rows.Step());
      if (!more) break;
      std::optional<std::string_view> name = rows.Text(3);
      if (!name || name->empty()) continue;
      const uint32_t process = Of(rows.Text(0).value_or(""), rows.IntOr(1, 0));
      thread_names_[{process, rows.IntOr(2, 0)}] = std::string(*name);
    }
  }
  if (!schema.Has(kAgents)) return Status::Ok();
  TM_RETURN_IF_ERROR(RequireColumns(schema, kAgents, {"id"}));
  TM_ASSIGN_OR_RETURN(Statement rows,
                      SelectAll(db, schema, kAgents,
                                {"guid", "pid", "id", "type", "absolute_index", "logical_index",
                                 "name", "product_name", "extdata"}));
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, rows.Step());
    if (!more) break;
    std::optional<int64_t> id = rows.Int(2);
    if (!id) continue;
    ProcessInfo& p = processes_[Of(rows.Text(0).value_or(""), rows.IntOr(1, 0))];
    rocprof::AgentInfo a;
    a.node_id = rows.IntOr(4, *id);
    a.logical_node_id = rows.IntOr(5, a.node_id);
    a.gpu = rows.Text(3).value_or("") == "GPU";
    a.gfx = std::string(rows.Text(6).value_or(""));
    a.product = std::string(rows.Text(7).value_or(""));
    const json ext = ParseObject(rows.Text(8));
    a.gfx_target_version = IntMember(ext, "gfx_target_version").value_or(0);
    a.cu_count = IntMember(ext, "cu_count").value_or(0);
    a.wave_front_size = IntMember(ext, "wave_front_size").value_or(0);
    a.max_waves_per_cu = IntMember(ext, "max_waves_per_cu").value_or(0);
    a.lds_kb = IntMember(ext, "lds_size_in_kb").value_or(0);
    if (p.agent_by_id.contains(*id)) continue;  // a repeated id: the first row describes it
    p.agent_by_id[*id] = p.agents.size();
    p.agents.push_back(std::move(a));
  }
  for (ProcessInfo& p : processes_) {
    rocprof::NumberGpus(&p.agents);
    for (const rocprof::AgentInfo& a : p.agents) trace_->described_device_count += a.gpu ? 1 : 0;
  }
  return Status::Ok();
}

uint32_t Processes::Device(uint32_t process, int64_t agent_id) {
  ProcessInfo& p = processes_[process];
  auto it = p.agent_by_id.find(agent_id);
  // "Agent <logical node id>" is the resolver's spelling for a described agent; a bare number is
  // a node id it knows nothing about.
  const std::string text = it != p.agent_by_id.end()
                               ? fmt::format("Agent {}", p.agents[it->second].logical_node_id)
                               : fmt::format("{}", agent_id);
  return p.devices->Resolve(text);
}

bool Processes::IsCpuAgent(uint32_t process, int64_t agent_id) const {
  const ProcessInfo& p = processes_[process];
  auto it = p.agent_by_id.find(agent_id);
  return it != p.agent_by_id.end() && !p.agents[it->second].gpu;
}

uint32_t Processes::Track(uint32_t process, int64_t tid) {
  ProcessInfo& p = processes_[process];
  auto [it, added] = p.tracks.emplace(tid, static_cast<uint32_t>(trace_->tracks.size()));
  if (added) {
    tensormorph::Track track;
    track.pid = p.pid;
    track.tid = tid;
    if (auto name = thread_names_.find({process, tid}); name != thread_names_.end()) {
      track.thread_name = name->second;
    }
    trace_->tracks.push_back(std::move(track));
  }
  return it->second;
}

}  // namespace tensormorph::rocpd
