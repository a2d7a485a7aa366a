#include "import/rocprof/api_calls.h"

#include <map>
#include <utility>

#include "import/rocprof/common/columns.h"

namespace tensormorph::rocprof {

Status ReadApiCalls(CsvFile* file, Trace* trace, Warnings* warnings) {
  const Columns c(file->header());
  const size_t function = c.Find({"Function"}), pid = c.Find({"Process_Id"}),
               tid = c.Find({"Thread_Id"}), correlation = c.Find({"Correlation_Id"}),
               start = c.Find({"Start_Timestamp"}), end = c.Find({"End_Timestamp"});
  std::map<std::pair<int64_t, int64_t>, uint32_t> tracks;
  for (uint32_t i = 0; i < trace->tracks.size(); ++i) {
    tracks.emplace(std::make_pair(trace->tracks[i].pid, trace->tracks[i].tid), i);
  }
  CsvRecord row;
  while (file->Next(&row, warnings)) {
    int64_t start_ns = 0, duration_ns = 0;
    if (!ReadRowSpan(*file, row, start, end, trace, warnings, &start_ns, &duration_ns)) continue;
    ApiCall call;
    call.start_ns = start_ns;
    call.duration_ns = duration_ns;
    call.name = trace->strings.Intern(row.at(function));
    call.kind = ApiKind::kRuntime;
    std::optional<int64_t> id = ParseInt(row.at(correlation));
    if (id && *id > 0) call.link.correlation = static_cast<uint64_t>(*id);
    const auto key =
        std::make_pair(ParseInt(row.at(pid)).value_or(0), ParseInt(row.at(tid)).value_or(0));
    auto [it, added] = tracks.emplace(key, static_cast<uint32_t>(trace->tracks.size()));
    if (added) {
      Track track;
      track.pid = key.first;
      track.tid = key.second;
      trace->tracks.push_back(std::move(track));
    }
    call.track = it->second;
    trace->api_calls.push_back(call);
    ++trace->counts.runtime_calls;
  }
  return file->status();
}

}  // namespace tensormorph::rocprof
