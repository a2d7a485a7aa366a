// The raw page (`ncu --csv --page raw`): one row per launch, one column per metric.
//
//   "ID","Process ID",...,"Device","CC",<metric names...>
//   "","",...,"","",<units: "byte","%","nsecond",...>      <- units row, empty under the ids
//   "0","1234",...,"0","8.6",<values...>                   <- one row per profiled launch
//
// Layout as documented in ../shared/reference/nvidia.md §2.3 (CLI docs and parser fixtures); no
// real capture has been checked against it. Should a file come without the units row, the values
// are read in ncu's base units (ns, byte), as `--print-units base` writes them, with a warning.

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "import/ncu/launch.h"

namespace tensormorph::ncu {

Status ReadRawLayout(CsvReader* reader, const Header& header, std::vector<Launch>* launches,
                     Diagnostics* diagnostics) {
  const size_t id_col = header.Find("ID");
  std::vector<std::string> units(header.size());
  bool first = true, base_units = false;
  std::set<int64_t> seen;
  CsvRecord row;
  while (reader->Next(&row)) {
    if (SkipUnusableRow(row, diagnostics)) continue;
    if (first) {
      first = false;
      if (row.at(id_col).empty()) {  // the units row
        for (size_t c = 0; c < units.size(); ++c) units[c] = row.at(c);
        continue;
      }
      base_units = true;
      diagnostics->Note(
          "the raw page has no units row under its header; values are read in Nsight Compute's "
          "base units (ns, byte)");
    }
    if (row.malformed) {
      diagnostics->Add(row.line, row.malformed_column,
                       "text after a closing quote; kept as part of the field");
    }
    if (row.size() != header.size()) {
      diagnostics->Add(
          row.line, 1,
          fmt::format("{} fields, the header has {}; {}", row.size(), header.size(),
                      row.size() < header.size() ? "the metrics of the missing fields are absent"
                                                 : "the extra fields are ignored"));
    }
    std::optional<int64_t> id = ParseInteger(row.at(id_col));
    if (!id) {
      diagnostics->Add(row.line, 1,
                       fmt::format("the ID '{}' is not a launch number; row skipped",
                                   row.at(id_col).substr(0, 40)));
      continue;
    }
    if (!seen.insert(*id).second) {
      diagnostics->Add(row.line, 1, fmt::format("a second row for launch ID {}; skipped", *id));
      continue;
    }
    Launch launch;
    launch.id = *id;
    launch.line = row.line;
    launch.base_units = base_units;
    ReadIdentity(header, row, &launch);
    const size_t n = std::min(row.size(), header.size());
    for (size_t c = 0; c < n; ++c) {
      if (Header::IsIdentity(header.name(c)) || row.fields[c].empty()) continue;
      LaunchMetric metric;
      metric.name = header.name(c);
      metric.unit = units[c];
      metric.value = std::move(row.fields[c]);
      metric.line = row.line;
      metric.column = row.columns[c];
      launch.metrics.push_back(std::move(metric));
    }
    launches->push_back(std::move(launch));
  }
  TM_RETURN_IF_ERROR(reader->status());
  std::sort(launches->begin(), launches->end(),
            [](const Launch& a, const Launch& b) { return a.id < b.id; });
  return Status::Ok();
}

}  // namespace tensormorph::ncu
