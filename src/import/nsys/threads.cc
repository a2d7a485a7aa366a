#include "import/nsys/threads.h"

#include <unordered_map>

namespace tensormorph::nsys {
namespace {

constexpr int64_t kPidMask = ~int64_t{0xFFFFFF};  // globalTid → globalPid

Status ReadThreadNames(ImportContext& context,
                       const std::unordered_map<int64_t, uint32_t>& track_of) {
  if (!context.schema().HasTable(kThreadNameTable)) return Status::Ok();
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement select,
      SelectColumns(context.db(), context.schema(), kThreadNameTable, {"nameId", "globalTid"}, {}));
  const int name_id = select.Index("nameId"), global_tid = select.Index("globalTid");
  Trace& trace = context.trace();
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, select.Step());
    if (!more) break;
    std::optional<int64_t> tid = select.Int(global_tid);
    std::optional<int64_t> id = select.Int(name_id);
    if (!tid || !id) continue;
    auto it = track_of.find(*tid);
    if (it == track_of.end() || !trace.tracks[it->second].thread_name.empty()) continue;
    TM_ASSIGN_OR_RETURN(std::optional<StringId> name, context.String(*id));
    if (name) trace.tracks[it->second].thread_name = std::string(trace.str(*name));
  }
  return Status::Ok();
}

Status ReadProcessNames(ImportContext& context,
                        const std::unordered_map<int64_t, uint32_t>& track_of) {
  if (!context.schema().HasTable(kProcessTable)) return Status::Ok();
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement select,
      SelectColumns(context.db(), context.schema(), kProcessTable, {"globalPid", "name"}, {}));
  const int global_pid = select.Index("globalPid"), name = select.Index("name");
  // A process's main thread has tid == pid: its globalTid is the globalPid plus the pid.
  Trace& trace = context.trace();
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, select.Step());
    if (!more) break;
    std::optional<int64_t> pid = select.Int(global_pid);
    std::optional<std::string_view> text = select.Text(name);
    if (!pid || !text || text->empty()) continue;
    auto it = track_of.find((*pid & kPidMask) | PidOf(*pid));
    if (it != track_of.end() && trace.tracks[it->second].thread_name.empty())
      trace.tracks[it->second].thread_name = std::string(*text);
  }
  return Status::Ok();
}

}  // namespace

Status NameTracks(ImportContext& context) {
  if (context.track_global_tids().empty()) return Status::Ok();
  std::unordered_map<int64_t, uint32_t> track_of;
  const std::vector<int64_t>& tids = context.track_global_tids();
  for (uint32_t i = 0; i < tids.size(); ++i) track_of.emplace(tids[i], i);
  TM_RETURN_IF_ERROR(ReadThreadNames(context, track_of));
  return ReadProcessNames(context, track_of);
}

}  // namespace tensormorph::nsys
