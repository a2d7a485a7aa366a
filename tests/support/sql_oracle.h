// SQL over a database with the SQLite C API: the oracle of the tests of every SQLite input
// (Nsight Systems exports, rocpd and rocprof-compute databases). Shares no code with src/.
// Failures (a database that does not open, SQL that does not run) are test failures.
#pragma once

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cmath>
#include <cstdint>
#include <string>

namespace tensormorph::testing {

class SqlOracle {
 public:
  enum class Mode { kReadOnly, kWritable };
  // kReadOnly opens the file immutable (the shared samples are read-only files).
  explicit SqlOracle(const std::string& path, Mode mode = Mode::kReadOnly) {
    const bool writable = mode == Mode::kWritable;
    const std::string uri = writable ? path : "file:" + path + "?immutable=1";
    const int flags = writable ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                               : SQLITE_OPEN_READONLY | SQLITE_OPEN_URI;
    if (sqlite3_open_v2(uri.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "cannot open " << path << ": " << sqlite3_errmsg(db_);
    }
  }
  ~SqlOracle() { sqlite3_close(db_); }
  SqlOracle(const SqlOracle&) = delete;
  SqlOracle& operator=(const SqlOracle&) = delete;

  // Runs `sql`, calling `row` with each result row's statement.
  template <typename F>
  void Query(const std::string& sql, F row) {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << "SQL error: " << sqlite3_errmsg(db_) << " in: " << sql;
      return;
    }
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) row(st);
    EXPECT_EQ(rc, SQLITE_DONE) << sqlite3_errmsg(db_) << " in: " << sql;
    sqlite3_finalize(st);
  }
  // The first column of the last row; -1, NaN or "" when the query gives no row.
  int64_t Int(const std::string& sql) {
    int64_t v = -1;
    Query(sql, [&](sqlite3_stmt* st) { v = sqlite3_column_int64(st, 0); });
    return v;
  }
  double Real(const std::string& sql) {
    double v = NAN;
    Query(sql, [&](sqlite3_stmt* st) { v = sqlite3_column_double(st, 0); });
    return v;
  }
  std::string Text(const std::string& sql) {
    std::string v;
    Query(sql, [&](sqlite3_stmt* st) {
      const unsigned char* t = sqlite3_column_text(st, 0);
      v = t ? reinterpret_cast<const char*>(t) : "";
    });
    return v;
  }
  void Exec(const std::string& sql) {
    char* error = nullptr;
    if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
      ADD_FAILURE() << (error ? error : "?") << " in: " << sql.substr(0, 200);
    }
    sqlite3_free(error);
  }
  bool HasTable(const std::string& name) {
    return Int("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '" + name +
               "'") > 0;
  }

 private:
  sqlite3* db_ = nullptr;
};

}  // namespace tensormorph::testing
