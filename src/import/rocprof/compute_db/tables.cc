#include "import/rocprof/compute_db/tables.h"

#include <fmt/format.h>

#include <cmath>

namespace tensormorph::rocprof::compute_db {

bool LooksLikeComputeDb(const nsys::Schema& schema) {
  return schema.HasTable(kDispatchTable) && schema.HasTable(kKernelTable) &&
         schema.HasTable(kWorkloadTable);
}

std::string DbVersion::Describe() const {
  std::string text = schema_version.empty() ? "schema unknown (no compute_metadata)"
                                            : fmt::format("schema {}", schema_version);
  if (!compute_version.empty()) text += fmt::format(", rocprof-compute {}", compute_version);
  return text;
}

StatusOr<DbVersion> ReadDbVersion(const sqlite::Database& db, const nsys::Schema& schema) {
  DbVersion version;
  if (!schema.HasTable(kMetadataTable)) return version;
  TM_ASSIGN_OR_RETURN(sqlite::Statement select,
                      SelectColumns(db, schema, version, kMetadataTable, {},
                                    {"compute_version", "schema_version"}, "LIMIT 1"));
  TM_ASSIGN_OR_RETURN(bool row, select.Step());
  if (row) {
    version.compute_version =
        std::string(select.Text(select.Index("compute_version")).value_or(""));
    version.schema_version = std::string(select.Text(select.Index("schema_version")).value_or(""));
  }
  return version;
}

StatusOr<sqlite::Statement> SelectColumns(const sqlite::Database& db, const nsys::Schema& schema,
                                          const DbVersion& version, std::string_view table,
                                          std::initializer_list<std::string_view> required,
                                          std::initializer_list<std::string_view> optional,
                                          std::string_view tail) {
  std::string list;
  auto add = [&](std::string_view column) {
    list += list.empty() ? "" : ", ";
    list += sqlite::QuoteIdentifier(column);
  };
  for (std::string_view column : required) {
    if (!schema.HasColumn(table, column)) {
      return UnreadableInput(fmt::format(
          "table {} has no column '{}' ({}); this rocprof-compute database layout is not "
          "supported",
          table, column, version.Describe()));
    }
    add(column);
  }
  for (std::string_view column : optional) {
    if (schema.HasColumn(table, column)) add(column);
  }
  if (list.empty()) list = "NULL AS nothing";
  return db.Prepare(fmt::format("SELECT {} FROM {} {}", list, sqlite::QuoteIdentifier(table), tail),
                    fmt::format("table {}", table));
}

std::optional<int64_t> IntegerCell(const sqlite::Statement& row, int index) {
  std::optional<double> real = row.Real(index);
  if (!real || !std::isfinite(*real) || std::floor(*real) != *real) return std::nullopt;
  if (std::fabs(*real) >= 4.6e18) return std::nullopt;  // 2^62: room for sums of times
  return row.Int(index);
}

std::optional<double> FiniteCell(const sqlite::Statement& row, int index) {
  std::optional<double> real = row.Real(index);
  if (!real || !std::isfinite(*real)) return std::nullopt;
  return real;
}

void RowWarnings::Add(const std::string& where, const std::string& message) {
  if (rows_.size() < kNamed) {
    rows_.push_back(fmt::format("{}: {}: {}", path_, where, message));
  } else {
    ++left_out_;
  }
}

void RowWarnings::AppendTo(std::vector<std::string>* out) const {
  out->insert(out->end(), file_.begin(), file_.end());
  out->insert(out->end(), rows_.begin(), rows_.end());
  if (left_out_ > 0) {
    out->push_back(fmt::format("{}: {} more row warnings like those above", path_, left_out_));
  }
}

}  // namespace tensormorph::rocprof::compute_db
