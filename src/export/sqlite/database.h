// A thin RAII layer over the SQLite C API for the exporter: a database opened for writing and
// prepared insert statements. Errors are kept (the first one) rather than checked at every row,
// and reported once with the file's name.
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "tensormorph/model/status.h"

namespace tensormorph::sqlite_export {

class Database;

// One prepared statement. Bind parameters by 1-based position, then Insert() runs it once and
// resets it for the next row.
class Statement {
 public:
  Statement(Database* db, const char* sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;

  Statement& Int(int index, int64_t value);
  Statement& Real(int index, double value);
  Statement& Null(int index);
  // Texts must outlive Insert() (names point into the trace's string pool).
  Statement& Text(int index, std::string_view value);
  Statement& OptionalInt(int index, std::optional<int64_t> value);
  Statement& OptionalReal(int index, std::optional<double> value);
  void Insert();

 private:
  Database* db_;
  sqlite3_stmt* statement_ = nullptr;
};

class Database {
 public:
  explicit Database(std::string path) : path_(std::move(path)) {}
  ~Database();
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  Status Open();
  void Exec(const char* sql);
  Status Close();  // an error when any statement failed, naming the file
  sqlite3* handle() { return db_; }
  void RecordError(const char* what);  // keeps the first error

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
  std::string first_error_;
};

}  // namespace tensormorph::sqlite_export
