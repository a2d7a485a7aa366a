#include "import/nsys/schema.h"

#include <fmt/format.h>

#include <algorithm>

namespace tensormorph::nsys {

StatusOr<Schema> Schema::Read(const sqlite::Database& db) {
  Schema schema;
  // pragma_table_info as a table-valued function gives every table's columns in one query.
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement columns,
      db.Prepare("SELECT m.name AS table_name, p.name AS column_name FROM sqlite_master AS m, "
                 "pragma_table_info(m.name) AS p WHERE m.type = 'table' ORDER BY m.name, p.cid",
                 "the table list (sqlite_master)"));
  const int table_index = columns.Index("table_name");
  const int column_index = columns.Index("column_name");
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool row, columns.Step());
    if (!row) break;
    std::optional<std::string_view> table = columns.Text(table_index);
    std::optional<std::string_view> column = columns.Text(column_index);
    if (!table || !column) continue;
    auto it = schema.columns_.find(*table);
    if (it == schema.columns_.end()) it = schema.columns_.try_emplace(std::string(*table)).first;
    it->second.emplace_back(*column);
  }

  for (std::string_view table : {kExportMetaTable, kLegacyExportMetaTable}) {
    if (!schema.HasColumn(table, "name") || !schema.HasColumn(table, "value")) continue;
    TM_ASSIGN_OR_RETURN(sqlite::Statement meta,
                        SelectColumns(db, schema, table, {"name", "value"}, {}));
    const int name = meta.Index("name");
    const int value = meta.Index("value");
    for (;;) {
      TM_ASSIGN_OR_RETURN(bool row, meta.Step());
      if (!row) break;
      std::optional<std::string_view> key = meta.Text(name);
      if (key) schema.export_values_.emplace(std::string(*key), meta.Text(value).value_or(""));
    }
    break;
  }
  return schema;
}

bool Schema::HasTable(std::string_view table) const {
  return columns_.contains(table);
}

bool Schema::HasColumn(std::string_view table, std::string_view column) const {
  auto it = columns_.find(table);
  return it != columns_.end() &&
         std::find(it->second.begin(), it->second.end(), column) != it->second.end();
}

bool Schema::HasTableWithPrefix(std::string_view prefix) const {
  auto it = columns_.lower_bound(prefix);
  return it != columns_.end() && std::string_view(it->first).starts_with(prefix);
}

std::string Schema::ExportValue(std::string_view name) const {
  auto it = export_values_.find(name);
  return it == export_values_.end() ? std::string() : it->second;
}

bool Schema::LooksLikeNsysExport() const {
  return HasTable(kStringTable) &&
         (HasTableWithPrefix("CUPTI_ACTIVITY_KIND_") || HasTableWithPrefix("TARGET_INFO_"));
}

StatusOr<sqlite::Statement> SelectColumns(const sqlite::Database& db, const Schema& schema,
                                          std::string_view table,
                                          std::initializer_list<std::string_view> required,
                                          std::initializer_list<std::string_view> optional) {
  std::string list;
  auto add = [&](std::string_view column) {
    list += list.empty() ? "" : ", ";
    list += sqlite::QuoteIdentifier(column);
  };
  for (std::string_view column : required) {
    if (!schema.HasColumn(table, column)) {
      const std::string version = schema.ExportValue("EXPORT_SCHEMA_VERSION");
      return UnreadableInput(fmt::format(
          "table {} has no column '{}' (export schema {}); this Nsight Systems export layout is "
          "not supported",
          table, column, version.empty() ? "unknown" : version));
    }
    add(column);
  }
  for (std::string_view column : optional) {
    if (schema.HasColumn(table, column)) add(column);
  }
  return db.Prepare(fmt::format("SELECT {} FROM {}", list, sqlite::QuoteIdentifier(table)),
                    fmt::format("table {}", table));
}

int64_t EstimateRows(const sqlite::Database& db, std::string_view table) {
  StatusOr<sqlite::Statement> statement =
      db.Prepare(fmt::format("SELECT max(rowid) AS n FROM {}", sqlite::QuoteIdentifier(table)),
                 fmt::format("table {}", table));
  if (!statement.ok()) return 0;  // WITHOUT ROWID or damaged: the real read will say so
  StatusOr<bool> row = statement->Step();
  if (!row.ok() || !*row) return 0;
  return std::max<int64_t>(0, statement->IntOr(statement->Index("n"), 0));
}

}  // namespace tensormorph::nsys
