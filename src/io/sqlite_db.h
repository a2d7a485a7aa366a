// A small RAII layer over the SQLite C API, for reading SQLite inputs (Nsight Systems exports,
// rocpd and rocprof-compute databases, the schema fuzzer): the database is opened read-only (and
// immutable, so that a file on a read-only share needs no lock or journal), statements are read row
// by row with Step(), and columns are found by name, never by position, because the export schema
// adds and reorders columns between Nsight versions.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/io/input.h"
#include "tensormorph/model/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace tensormorph::sqlite {

class Statement {
 public:
  Statement(Statement&&) noexcept = default;
  Statement& operator=(Statement&&) noexcept = default;

  // Advances to the next row: true when there is one, false at the end. Errors (a damaged page,
  // an interrupted read) name what was being read.
  StatusOr<bool> Step();
  // Rewinds the statement so that it can run again with new bindings.
  void Reset();
  void Bind(int parameter, int64_t value);  // parameters are 1-based, as in SQLite

  // The position of a result column by its name; -1 when the statement has no such column.
  int Index(std::string_view column) const;

  // Column accessors for the current row. An index of -1 reads as NULL, so optional columns that
  // a schema lacks need no special case at the call site.
  bool IsNull(int index) const;
  std::optional<int64_t> Int(int index) const;            // nullopt for NULL
  int64_t IntOr(int index, int64_t fallback) const;       // fallback for NULL
  std::optional<double> Real(int index) const;            // nullopt for NULL or non-numeric
  std::optional<std::string_view> Text(int index) const;  // valid until the next Step()

 private:
  friend class Database;
  struct Finalizer {
    void operator()(sqlite3_stmt* statement) const;
  };
  Statement(sqlite3* db, sqlite3_stmt* statement, std::string what);

  sqlite3* db_ = nullptr;
  std::unique_ptr<sqlite3_stmt, Finalizer> statement_;
  std::string what_;  // what the statement reads, for error messages ("table StringIds")
  std::vector<std::string> columns_;
};

class Database {
 public:
  Database(Database&&) noexcept = default;
  Database& operator=(Database&&) noexcept = default;

  // Opens the file `input` is read-only: SQLite reads it itself, by path (the Input checked its
  // size). Fails when the file is missing or is not an SQLite database; other damage only shows
  // once pages are read, as errors from Prepare() or Step().
  static StatusOr<Database> Open(const Input& input);

  // `what` names the thing being read in error messages ("table CUPTI_ACTIVITY_KIND_KERNEL").
  StatusOr<Statement> Prepare(std::string_view sql, std::string what) const;

  const std::string& path() const { return path_; }

 private:
  struct Closer {
    void operator()(sqlite3* db) const;
  };
  Database(std::string path, sqlite3* db);

  std::string path_;
  std::unique_ptr<sqlite3, Closer> db_;
};

// "SQLite format 3\0", the first 16 bytes of every SQLite 3 database.
inline constexpr std::string_view kSqliteMagic{"SQLite format 3\0", 16};

// Quotes an identifier for SQL text: "name" with embedded quotes doubled.
std::string QuoteIdentifier(std::string_view name);

}  // namespace tensormorph::sqlite
