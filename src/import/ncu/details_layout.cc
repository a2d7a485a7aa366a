// The details page (`ncu --csv --page details`, the default): one row per metric of a launch.
//
//   "ID","Process ID",...,"Kernel Name","Context","Stream","Block Size","Grid Size","Device","CC",
//   "Section Name",["Body Item Label",]"Metric Name","Metric Unit","Metric Value",
//   "Rule Name","Rule Type","Rule Description","Estimated Speedup Type","Estimated Speedup"
//
// Metric rows end after "Metric Value" (ncu writes one trailing comma and leaves the rule columns
// off), so a row shorter than the header is normal here; it is ragged only when it stops before
// "Metric Value". Rule results are rows of their own with empty metric columns: counted, not
// metrics. Columns are found by name: versions and section exports add and drop some.

#include <fmt/format.h>

#include <map>

#include "import/ncu/launch.h"

namespace tensormorph::ncu {

Status ReadDetailsLayout(CsvReader* reader, const Header& header, std::vector<Launch>* launches,
                         Diagnostics* diagnostics) {
  const size_t id_col = header.Find("ID");
  const size_t section_col = header.Find("Section Name");
  const size_t body_col = header.Find("Body Item Label");
  const size_t name_col = header.Find("Metric Name");
  const size_t unit_col = header.Find("Metric Unit");
  const size_t value_col = header.Find("Metric Value");
  const size_t rule_col = header.Find("Rule Name");

  std::map<int64_t, Launch> by_id;  // rows of one launch are adjacent, but need not be
  CsvRecord row;
  while (reader->Next(&row)) {
    if (SkipUnusableRow(row, diagnostics)) continue;
    if (row.malformed) {
      diagnostics->Add(row.line, row.malformed_column,
                       "text after a closing quote; kept as part of the field");
    }
    if (row.size() > header.size()) {
      diagnostics->Add(row.line, row.columns[header.size()],
                       fmt::format("{} fields, the header has {}; the extra fields are ignored",
                                   row.size(), header.size()));
    }
    std::optional<int64_t> id = ParseInteger(row.at(id_col));
    if (!id) {
      diagnostics->Add(row.line, 1,
                       fmt::format("the ID '{}' is not a launch number; row skipped",
                                   row.at(id_col).substr(0, 40)));
      continue;
    }
    auto [it, added] = by_id.try_emplace(*id);
    Launch& launch = it->second;
    if (added) {
      launch.id = *id;
      launch.line = row.line;
      ReadIdentity(header, row, &launch);
    }

    const std::string& name = row.at(name_col);
    // A rule result: advice for people, not a measurement.
    if (name.empty() && rule_col != Header::kMissing && !row.at(rule_col).empty()) continue;
    if (row.size() <= value_col) {
      diagnostics->Add(row.line, 1,
                       fmt::format("{} fields, too few to reach \"Metric Value\" (field {} of the "
                                   "header); row skipped",
                                   row.size(), value_col + 1));
      continue;
    }
    if (name.empty()) {
      diagnostics->Add(row.line, 1, "a row with neither a metric name nor a rule; skipped");
      continue;
    }
    LaunchMetric metric;
    metric.section = row.at(section_col);
    if (body_col != Header::kMissing && !row.at(body_col).empty()) {
      metric.section += " / " + row.at(body_col);
    }
    metric.name = name;
    metric.unit = row.at(unit_col);
    metric.value = row.at(value_col);
    metric.line = row.line;
    metric.column = row.columns[value_col];
    launch.metrics.push_back(std::move(metric));
  }
  TM_RETURN_IF_ERROR(reader->status());
  for (auto& [id, launch] : by_id) launches->push_back(std::move(launch));
  return Status::Ok();
}

}  // namespace tensormorph::ncu
