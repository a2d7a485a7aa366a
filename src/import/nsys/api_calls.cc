#include "import/nsys/api_calls.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "import/nsys/sync_events.h"

namespace tensormorph::nsys {
namespace {

// ENUM_NSYS_EVENT_CLASS values of the rows in CUPTI_ACTIVITY_KIND_RUNTIME.
constexpr int64_t kCudaRuntimeClass = 0;
constexpr int64_t kCudaDriverClass = 1;
constexpr int64_t kCudaEglDriverClass = 13;

ApiKind KindOf(std::optional<int64_t> event_class, std::string_view name) {
  if (event_class == kCudaRuntimeClass) return ApiKind::kRuntime;
  if (event_class == kCudaDriverClass || event_class == kCudaEglDriverClass)
    return ApiKind::kDriver;
  // No class, or another library's calls: the runtime's entry points are cuda*, the driver's cu*.
  return name.starts_with("cu") && !name.starts_with("cuda") ? ApiKind::kDriver : ApiKind::kRuntime;
}

}  // namespace

std::string_view StripApiVersion(std::string_view name) {
  const size_t v = name.rfind("_v");
  if (v == std::string_view::npos || v == 0 || v + 2 == name.size()) return name;
  const std::string_view digits = name.substr(v + 2);
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return name;
  return name.substr(0, v);
}

Status ReadApiCalls(ImportContext& context) {
  if (!context.schema().HasTable(kRuntimeTable)) return ReadSyncEvents(context);
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement rows,
      SelectColumns(context.db(), context.schema(), kRuntimeTable, {"start", "end", "nameId"},
                    {"eventClass", "globalTid", "correlationId"}));
  const int start = rows.Index("start"), end = rows.Index("end");
  const int name_id = rows.Index("nameId"), event_class = rows.Index("eventClass");
  const int global_tid = rows.Index("globalTid"), correlation = rows.Index("correlationId");

  Trace& trace = context.trace();
  trace.api_calls.reserve(trace.api_calls.size() + context.ReserveHint(kRuntimeTable));
  std::unordered_map<int64_t, StringId> names;  // nameId → name without the version suffix
  uint64_t row = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, context.NextRow(rows, &row));
    if (!more) break;
    ApiCall call;
    const std::optional<int64_t> id = rows.Int(name_id);
    auto it = id ? names.find(*id) : names.end();
    if (id && it == names.end()) {
      TM_ASSIGN_OR_RETURN(std::optional<StringId> text, context.String(*id));
      if (text) {
        const std::string name(StripApiVersion(trace.str(*text)));
        it = names.emplace(*id, trace.strings.Intern(name)).first;
      }
    }
    const std::optional<int64_t> klass = rows.Int(event_class);
    call.kind = KindOf(klass, it != names.end() ? trace.str(it->second) : std::string_view());
    if (!context.CheckTimes(kRuntimeTable, row, rows.Int(start), rows.Int(end), &call.duration_ns))
      continue;
    if (it == names.end()) {
      context.SkipRow(kRuntimeTable, row, "its name is not in StringIds");
      continue;
    }
    call.start_ns = *rows.Int(start);
    call.name = it->second;
    call.track = context.TrackOf(rows.IntOr(global_tid, 0));
    call.link.correlation =
        context.ProcessCorrelation(rows.IntOr(global_tid, 0), rows.IntOr(correlation, 0));
    ++(call.kind == ApiKind::kDriver ? trace.counts.driver_calls : trace.counts.runtime_calls);
    trace.api_calls.push_back(call);
  }
  return ReadSyncEvents(context);
}

}  // namespace tensormorph::nsys
