#include "import/nsys/sync_events.h"

#include <fmt/format.h>

#include <map>
#include <unordered_map>

namespace tensormorph::nsys {
namespace {

constexpr std::string_view kSyncTypeEnum = "ENUM_CUPTI_SYNC_TYPE";

// The labels of ENUM_CUPTI_SYNC_TYPE (CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_*) as 2026 exports
// spell them; used when an export (older layouts) lacks the enum table.
constexpr std::string_view kSyncTypeLabels[] = {"Unknown", "Event sync", "Stream wait sync",
                                                "Stream sync", "Context sync"};

StatusOr<std::map<int64_t, StringId>> SyncTypeNames(ImportContext& context) {
  std::map<int64_t, StringId> names;
  Trace& trace = context.trace();
  for (size_t id = 0; id < std::size(kSyncTypeLabels); ++id) {
    names[static_cast<int64_t>(id)] = trace.strings.Intern(kSyncTypeLabels[id]);
  }
  if (!context.schema().HasColumn(kSyncTypeEnum, "id") ||
      !context.schema().HasColumn(kSyncTypeEnum, "label")) {
    return names;
  }
  TM_ASSIGN_OR_RETURN(sqlite::Statement select, SelectColumns(context.db(), context.schema(),
                                                              kSyncTypeEnum, {"id", "label"}, {}));
  const int id = select.Index("id"), label = select.Index("label");
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, select.Step());
    if (!more) break;
    std::optional<int64_t> key = select.Int(id);
    std::optional<std::string_view> text = select.Text(label);
    if (key && text && !text->empty()) names[*key] = trace.strings.Intern(*text);
  }
  return names;
}

}  // namespace

Status ReadSyncEvents(ImportContext& context) {
  if (!context.schema().HasTable(kSyncTable)) return Status::Ok();
  TM_ASSIGN_OR_RETURN(auto type_names, SyncTypeNames(context));
  TM_ASSIGN_OR_RETURN(sqlite::Statement rows,
                      SelectColumns(context.db(), context.schema(), kSyncTable, {"start", "end"},
                                    {"globalPid", "correlationId", "syncType"}));
  const int start = rows.Index("start"), end = rows.Index("end");
  const int global_pid = rows.Index("globalPid"), correlation = rows.Index("correlationId");
  const int sync_type = rows.Index("syncType");

  Trace& trace = context.trace();
  // The thread of each runtime call, by model correlation id (unique per process).
  std::unordered_map<uint64_t, uint32_t> track_of_call;
  for (const ApiCall& call : trace.api_calls) {
    if (call.link.correlation != 0) track_of_call.try_emplace(call.link.correlation, call.track);
  }
  const StringId unknown = type_names.at(0);
  uint64_t row = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, rows.Step());
    if (!more) break;
    ++row;
    ++trace.counts.sync_events;
    ApiCall call;
    call.kind = ApiKind::kSync;
    if (!context.CheckTimes(kSyncTable, row, rows.Int(start), rows.Int(end), &call.duration_ns))
      continue;
    call.start_ns = *rows.Int(start);
    const int64_t pid = rows.IntOr(global_pid, 0);
    call.link.correlation = context.ProcessCorrelation(pid, rows.IntOr(correlation, 0));
    auto thread = track_of_call.find(call.link.correlation);
    call.track = thread != track_of_call.end() && call.link.correlation != 0 ? thread->second
                                                                             : context.TrackOf(pid);
    auto name = type_names.find(rows.IntOr(sync_type, 0));
    call.name = name != type_names.end() ? name->second : unknown;
    trace.api_calls.push_back(call);
  }
  return Status::Ok();
}

}  // namespace tensormorph::nsys
