#include "import/rocprof/compute_db/kernels.h"

#include <fmt/format.h>

namespace tensormorph::rocprof::compute_db {
namespace {

std::optional<StringId> Find(const StringPool& strings, std::string_view text) {
  StringId id = 0;
  if (!strings.Find(text, &id)) return std::nullopt;
  return id;
}

Status ReadKernelRows(const sqlite::Database& db, const nsys::Schema& schema,
                      const DbVersion& version, RowWarnings* warnings,
                      std::map<int64_t, KernelInfo>* kernels) {
  TM_ASSIGN_OR_RETURN(sqlite::Statement row,
                      SelectColumns(db, schema, version, kKernelTable,
                                    {"kernel_uuid", "kernel_name"}, {"workload_id"}));
  const int uuid = row.Index("kernel_uuid"), name = row.Index("kernel_name");
  const int workload = row.Index("workload_id");
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, row.Step());
    if (!more) break;
    std::optional<int64_t> id = IntegerCell(row, uuid);
    std::optional<std::string_view> text = row.Text(name);
    if (!id || !text || text->empty()) {
      warnings->Add("compute_kernel",
                    "a row without an integer kernel_uuid or a kernel_name: "
                    "its dispatches are skipped");
      continue;
    }
    KernelInfo info;
    info.name = std::string(*text);
    info.workload_id = IntegerCell(row, workload).value_or(0);
    if (!kernels->try_emplace(*id, std::move(info)).second) {
      warnings->Add(fmt::format("compute_kernel kernel_uuid {}", *id),
                    "appears twice: the first row is used");
    }
  }
  return Status();
}

bool IsRawCounterTable(std::string_view sub_table) {
  return sub_table.find("Raw Counter") != std::string_view::npos;
}

Status ReadMetricValues(const sqlite::Database& db, const nsys::Schema& schema,
                        const DbVersion& version, StringPool* strings, RowWarnings* warnings,
                        std::map<int64_t, KernelInfo>* kernels) {
  if (!schema.HasTable(kKernelMetricValueTable) || !schema.HasTable(kMetricDefinitionTable)) {
    warnings->File(
        "no compute_kernel_metric_value / compute_metric_definition table: kernels "
        "have no counters (no FLOPs or bytes for the roofline, no launch "
        "configuration for occupancy)");
    return Status();
  }
  for (auto [table, column] : {std::pair{kKernelMetricValueTable, "kernel_uuid"},
                               {kKernelMetricValueTable, "metric_uuid"},
                               {kKernelMetricValueTable, "value"},
                               {kMetricDefinitionTable, "metric_uuid"},
                               {kMetricDefinitionTable, "name"}}) {
    if (!schema.HasColumn(table, column)) {
      return UnreadableInput(fmt::format(
          "table {} has no column '{}' ({}); this rocprof-compute database layout is not "
          "supported",
          table, column, version.Describe()));
    }
  }
  auto optional = [&](std::string_view table, const char* column, const char* alias) {
    return schema.HasColumn(table, column)
               ? fmt::format("{}.{} AS {}", table == kKernelMetricValueTable ? "v" : "d",
                             sqlite::QuoteIdentifier(column), alias)
               : fmt::format("NULL AS {}", alias);
  };
  const std::string sql = fmt::format(
      "SELECT v.kernel_uuid AS kernel_uuid, v.value AS value, {}, d.name AS name, {}, {}, {} "
      "FROM {} AS v JOIN {} AS d ON d.metric_uuid = v.metric_uuid ORDER BY v.rowid",
      optional(kKernelMetricValueTable, "value_name", "value_name"),
      optional(kMetricDefinitionTable, "table_name", "table_name"),
      optional(kMetricDefinitionTable, "sub_table_name", "sub_table_name"),
      optional(kMetricDefinitionTable, "unit", "unit"), kKernelMetricValueTable,
      kMetricDefinitionTable);
  TM_ASSIGN_OR_RETURN(sqlite::Statement row,
                      db.Prepare(sql, fmt::format("tables {} and {}", kKernelMetricValueTable,
                                                  kMetricDefinitionTable)));
  const int uuid = row.Index("kernel_uuid"), value = row.Index("value");
  const int value_name = row.Index("value_name"), name = row.Index("name");
  const int table_name = row.Index("table_name"), sub_table_name = row.Index("sub_table_name");
  const int unit = row.Index("unit");
  uint64_t orphans = 0, unreadable = 0;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, row.Step());
    if (!more) break;
    std::optional<int64_t> id = IntegerCell(row, uuid);
    auto kernel = id ? kernels->find(*id) : kernels->end();
    if (kernel == kernels->end()) {
      ++orphans;
      continue;
    }
    std::optional<double> v = FiniteCell(row, value);
    std::optional<std::string_view> metric = row.Text(name);
    if (!metric) {
      ++unreadable;
      continue;
    }
    if (!v) continue;  // NULL: not collected (a peak rocprof-compute has no benchmark for)
    const std::string sub_table(row.Text(sub_table_name).value_or(""));
    const std::string statistic(row.Text(value_name).value_or("Value"));
    const std::string section =
        fmt::format("{} / {}", row.Text(table_name).value_or(""), sub_table);
    const std::string shown = statistic == "Avg" || statistic == "Value"
                                  ? std::string(*metric)
                                  : fmt::format("{} ({})", *metric, statistic);
    const StringId metric_id = strings->Intern(*metric);
    kernel->second.metrics.push_back({strings->Intern(section), strings->Intern(shown),
                                      strings->Intern(row.Text(unit).value_or("")), *v});
    kernel->second.Add(strings->Intern(sub_table), metric_id, strings->Intern(statistic),
                       IsRawCounterTable(sub_table) && statistic == "Avg", *v);
  }
  if (orphans > 0) {
    warnings->File(
        fmt::format("{} metric values name no kernel of compute_kernel: not used", orphans));
  }
  if (unreadable > 0) {
    warnings->File(
        fmt::format("{} metric values have a definition without a name: not used", unreadable));
  }
  return Status();
}

Status ReadRooflinePoints(const sqlite::Database& db, const nsys::Schema& schema,
                          const DbVersion& version, RowWarnings* warnings,
                          std::map<int64_t, KernelInfo>* kernels) {
  if (!schema.HasTable(kKernelRooflineTable)) return Status();
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement row,
      SelectColumns(db, schema, version, kKernelRooflineTable, {"kernel_uuid"},
                    {"total_flops", "l1_cache_data", "l2_cache_data", "hbm_cache_data"}));
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, row.Step());
    if (!more) break;
    std::optional<int64_t> id = IntegerCell(row, row.Index("kernel_uuid"));
    auto kernel = id ? kernels->find(*id) : kernels->end();
    if (kernel == kernels->end()) {
      warnings->Add("compute_kernel_roofline_data",
                    "a row for no kernel of compute_kernel: "
                    "not used");
      continue;
    }
    auto nonnegative = [&](const char* column) -> std::optional<double> {
      std::optional<double> v = FiniteCell(row, row.Index(column));
      if (v && *v < 0) return std::nullopt;
      return v;
    };
    kernel->second.roofline =
        KernelRoofline{nonnegative("total_flops"), nonnegative("l1_cache_data"),
                       nonnegative("l2_cache_data"), nonnegative("hbm_cache_data")};
  }
  return Status();
}

}  // namespace

void KernelInfo::Add(StringId sub_table, StringId name, StringId value_name, bool raw,
                     double value) {
  values_.try_emplace({sub_table, name, value_name}, value);
  if (raw) raw_.try_emplace(name, value);
}

std::optional<double> KernelInfo::Get(const StringPool& strings, std::string_view sub_table,
                                      std::string_view name, std::string_view value_name) const {
  std::optional<StringId> t = Find(strings, sub_table), n = Find(strings, name),
                          v = Find(strings, value_name);
  if (!t || !n || !v) return std::nullopt;
  auto it = values_.find({*t, *n, *v});
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> KernelInfo::Mean(const StringPool& strings, std::string_view sub_table,
                                       std::string_view name) const {
  if (std::optional<double> avg = Get(strings, sub_table, name, "Avg")) return avg;
  return Get(strings, sub_table, name, "Value");
}

std::optional<double> KernelInfo::RawCounter(const StringPool& strings,
                                             std::string_view name) const {
  std::optional<StringId> n = Find(strings, name);
  if (!n) return std::nullopt;
  auto it = raw_.find(*n);
  if (it == raw_.end()) return std::nullopt;
  return it->second;
}

StatusOr<std::map<int64_t, KernelInfo>> ReadKernels(const sqlite::Database& db,
                                                    const nsys::Schema& schema,
                                                    const DbVersion& version, StringPool* strings,
                                                    RowWarnings* warnings) {
  std::map<int64_t, KernelInfo> kernels;
  TM_RETURN_IF_ERROR(ReadKernelRows(db, schema, version, warnings, &kernels));
  TM_RETURN_IF_ERROR(ReadMetricValues(db, schema, version, strings, warnings, &kernels));
  TM_RETURN_IF_ERROR(ReadRooflinePoints(db, schema, version, warnings, &kernels));
  return kernels;
}

}  // namespace tensormorph::rocprof::compute_db
