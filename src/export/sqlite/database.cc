#include "export/sqlite/database.h"

#include <fmt/format.h>

namespace tensormorph::sqlite_export {

Statement::Statement(Database* db, const char* sql) : db_(db) {
  if (sqlite3_prepare_v2(db->handle(), sql, -1, &statement_, nullptr) != SQLITE_OK) {
    db_->RecordError("prepare");
    statement_ = nullptr;
  }
}

Statement::~Statement() {
  sqlite3_finalize(statement_);
}

Statement& Statement::Int(int index, int64_t value) {
  if (statement_) sqlite3_bind_int64(statement_, index, value);
  return *this;
}

Statement& Statement::Real(int index, double value) {
  if (statement_) sqlite3_bind_double(statement_, index, value);
  return *this;
}

Statement& Statement::Null(int index) {
  if (statement_) sqlite3_bind_null(statement_, index);
  return *this;
}

Statement& Statement::Text(int index, std::string_view value) {
  if (statement_) {
    sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()),
                      SQLITE_STATIC);
  }
  return *this;
}

Statement& Statement::OptionalInt(int index, std::optional<int64_t> value) {
  return value ? Int(index, *value) : Null(index);
}

Statement& Statement::OptionalReal(int index, std::optional<double> value) {
  return value ? Real(index, *value) : Null(index);
}

void Statement::Insert() {
  if (!statement_) return;
  if (sqlite3_step(statement_) != SQLITE_DONE) db_->RecordError("insert");
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

Database::~Database() {
  if (db_ != nullptr) sqlite3_close(db_);
}

Status Database::Open() {
  if (sqlite3_open_v2(path_.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
                      nullptr) != SQLITE_OK) {
    std::string message =
        fmt::format("{}: cannot write: {}", path_, db_ ? sqlite3_errmsg(db_) : "out of memory");
    sqlite3_close(db_);
    db_ = nullptr;
    return {StatusCode::kIoError, std::move(message)};
  }
  return Status::Ok();
}

void Database::Exec(const char* sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK && first_error_.empty()) {
    first_error_ = error ? error : "unknown error";
  }
  sqlite3_free(error);
}

void Database::RecordError(const char* what) {
  if (first_error_.empty()) first_error_ = fmt::format("{}: {}", what, sqlite3_errmsg(db_));
}

Status Database::Close() {
  if (db_ != nullptr && sqlite3_close(db_) != SQLITE_OK && first_error_.empty()) {
    first_error_ = sqlite3_errmsg(db_);
  }
  db_ = nullptr;
  if (!first_error_.empty()) {
    return {StatusCode::kIoError, fmt::format("{}: cannot write: {}", path_, first_error_)};
  }
  return Status::Ok();
}

}  // namespace tensormorph::sqlite_export
