#include "import/rocpd/schema.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace tensormorph::rocpd {
namespace {

constexpr std::string_view kBases[] = {kMetadata, kStrings,    kProcesses,     kThreads,
                                       kAgents,   kPmcInfo,    kKernelSymbols, kEvents,
                                       kRegions,  kDispatches, kMemoryCopies,  kMemoryAllocations,
                                       kPmcEvents};

// "<base>_<uuid>" with the uuid's '-' written as '_': the rest after "<base>_" is hex digits and
// underscores only, so rocpd_event_operation_<uuid> is not a table of rocpd_event.
bool IsSuffixedTable(std::string_view name, std::string_view base) {
  if (!name.starts_with(base) || name.size() <= base.size() + 1 || name[base.size()] != '_') {
    return false;
  }
  const std::string_view suffix = name.substr(base.size() + 1);
  return std::all_of(suffix.begin(), suffix.end(), [](char c) {
    return c == '_' || std::isxdigit(static_cast<unsigned char>(c));
  });
}

StatusOr<std::vector<std::string>> ColumnsOf(const Database& db, const std::string& relation) {
  TM_ASSIGN_OR_RETURN(
      Statement info,
      db.Prepare(fmt::format("SELECT name FROM pragma_table_info({})",
                             "'" + relation + "'"),  // names hold no quote (checked by caller)
                 fmt::format("the columns of {}", relation)));
  std::vector<std::string> columns;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool row, info.Step());
    if (!row) break;
    if (std::optional<std::string_view> name = info.Text(0)) columns.emplace_back(*name);
  }
  return columns;
}

}  // namespace

StatusOr<RocpdSchema> RocpdSchema::Read(const Database& db) {
  TM_ASSIGN_OR_RETURN(
      Statement master,
      db.Prepare(
          "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') AND name LIKE "
          "'rocpd%' ORDER BY name",
          "the table list (sqlite_master)"));
  std::map<std::string, std::string, std::less<>> relations;  // name -> type
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool row, master.Step());
    if (!row) break;
    std::optional<std::string_view> type = master.Text(0), name = master.Text(1);
    if (!type || !name || name->find_first_of("'\"") != std::string_view::npos) continue;
    relations.emplace(std::string(*name), std::string(*type));
  }

  RocpdSchema schema;
  for (std::string_view base : kBases) {
    std::string first;
    if (relations.contains(base)) {
      first = std::string(base);
      schema.sources_.emplace(first, sqlite::QuoteIdentifier(base));
    } else {
      std::vector<std::string> parts;
      for (const auto& [name, type] : relations) {
        if (type == "table" && IsSuffixedTable(name, base)) parts.push_back(name);
      }
      if (parts.empty()) continue;
      first = parts.front();
      std::string text = "(";
      for (size_t i = 0; i < parts.size(); ++i) {
        text += fmt::format("{}SELECT * FROM {}", i ? " UNION ALL " : "",
                            sqlite::QuoteIdentifier(parts[i]));
      }
      schema.sources_.emplace(std::string(base), text + ")");
    }
    TM_ASSIGN_OR_RETURN(std::vector<std::string> columns, ColumnsOf(db, first));
    schema.columns_.emplace(std::string(base), std::move(columns));
  }

  if (schema.HasColumn(kMetadata, "tag") && schema.HasColumn(kMetadata, "value")) {
    TM_ASSIGN_OR_RETURN(
        Statement meta,
        db.Prepare(fmt::format("SELECT value FROM {} WHERE tag = 'schema_version' LIMIT 1",
                               schema.Source(kMetadata)),
                   "table rocpd_metadata"));
    TM_ASSIGN_OR_RETURN(bool row, meta.Step());
    if (row) schema.version_ = std::string(meta.Text(0).value_or(""));
  }
  return schema;
}

bool RocpdSchema::HasColumn(std::string_view base, std::string_view column) const {
  auto it = columns_.find(base);
  return it != columns_.end() &&
         std::find(it->second.begin(), it->second.end(), column) != it->second.end();
}

const std::string& RocpdSchema::Source(std::string_view base) const {
  static const std::string kNone;
  auto it = sources_.find(base);
  return it == sources_.end() ? kNone : it->second;
}

bool RocpdSchema::LooksLikeRocpd() const {
  return Has(kDispatches) || Has(kRegions) || Has(kMemoryCopies) || Has(kAgents);
}

std::string ColumnOrNull(const RocpdSchema& schema, std::string_view base, std::string_view alias,
                         std::string_view column, std::string_view as) {
  if (!schema.HasColumn(base, column)) return fmt::format("NULL AS {}", as);
  return fmt::format("{}.{} AS {}", alias, sqlite::QuoteIdentifier(column), as);
}

std::string JoinOn(const RocpdSchema& schema, std::string_view parent_base,
                   std::string_view parent_alias, std::string_view child_base,
                   std::string_view child_alias, std::string_view reference) {
  std::string on =
      fmt::format("{}.id = {}.{}", parent_alias, child_alias, sqlite::QuoteIdentifier(reference));
  if (schema.HasColumn(parent_base, "guid") && schema.HasColumn(child_base, "guid")) {
    on += fmt::format(" AND {}.guid = {}.guid", parent_alias, child_alias);
  }
  return on;
}

Status RequireColumns(const RocpdSchema& schema, std::string_view base,
                      std::initializer_list<std::string_view> columns) {
  for (std::string_view column : columns) {
    if (!schema.HasColumn(base, column)) {
      return UnreadableInput(fmt::format(
          "{} has no column '{}' (rocpd schema {}); this rocpd database layout is not supported",
          base, column, schema.version().empty() ? "unknown" : schema.version()));
    }
  }
  return Status::Ok();
}

}  // namespace tensormorph::rocpd
