#include "io/sqlite_db.h"

#include <fmt/format.h>
#include <sqlite3.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>

namespace tensormorph::sqlite {
namespace {

// SQLite's page cache for one connection, in KiB (a negative cache_size is KiB). The importer scans
// each table once, so a small cache is enough and keeps memory flat whatever the file size.
constexpr int kCacheKib = 8 << 10;

// A file: URI for `path`, with every byte outside the unreserved set percent-encoded, so that
// names containing '?', '#' or '%' survive. immutable=1 tells SQLite that nobody changes the file
// while we read: it takes no lock and looks for no journal, so a read-only share works.
std::string ImmutableUri(const std::string& path) {
  std::string uri = "file:";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' || c == '~') {
      uri += static_cast<char>(c);
    } else {
      uri += fmt::format("%{:02X}", c);
    }
  }
  return uri + "?immutable=1";
}

// What an SQLite result code means for the user: damage is unreadable input, the rest are I/O.
Status SqliteError(sqlite3* db, int code, const std::string& what) {
  const char* message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  const int primary = code & 0xFF;
  if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB || primary == SQLITE_FORMAT) {
    return UnreadableInput(
        fmt::format("the SQLite database is damaged ({}) while reading {}", message, what));
  }
  if (primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN || primary == SQLITE_PERM) {
    return Status(StatusCode::kIoError, fmt::format("cannot read {}: {}", what, message));
  }
  return UnreadableInput(fmt::format("SQLite error while reading {}: {}", what, message));
}

}  // namespace

void Statement::Finalizer::operator()(sqlite3_stmt* statement) const {
  sqlite3_finalize(statement);
}

Statement::Statement(sqlite3* db, sqlite3_stmt* statement, std::string what)
    : db_(db), statement_(statement), what_(std::move(what)) {
  const int n = sqlite3_column_count(statement);
  columns_.reserve(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const char* name = sqlite3_column_name(statement, i);
    columns_.emplace_back(name != nullptr ? name : "");
  }
}

StatusOr<bool> Statement::Step() {
  const int rc = sqlite3_step(statement_.get());
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  return SqliteError(db_, rc, what_);
}

void Statement::Reset() {
  sqlite3_reset(statement_.get());
  sqlite3_clear_bindings(statement_.get());
}

void Statement::Bind(int parameter, int64_t value) {
  sqlite3_bind_int64(statement_.get(), parameter, value);
}

int Statement::Index(std::string_view column) const {
  for (size_t i = 0; i < columns_.size(); ++i) {
    if (columns_[i] == column) return static_cast<int>(i);
  }
  return -1;
}

bool Statement::IsNull(int index) const {
  return index < 0 || sqlite3_column_type(statement_.get(), index) == SQLITE_NULL;
}

std::optional<int64_t> Statement::Int(int index) const {
  if (IsNull(index)) return std::nullopt;
  return sqlite3_column_int64(statement_.get(), index);
}

int64_t Statement::IntOr(int index, int64_t fallback) const {
  if (IsNull(index)) return fallback;
  return sqlite3_column_int64(statement_.get(), index);
}

std::optional<double> Statement::Real(int index) const {
  if (IsNull(index)) return std::nullopt;
  const int type = sqlite3_column_type(statement_.get(), index);
  if (type != SQLITE_FLOAT && type != SQLITE_INTEGER) return std::nullopt;
  return sqlite3_column_double(statement_.get(), index);
}

std::optional<std::string_view> Statement::Text(int index) const {
  if (IsNull(index)) return std::nullopt;
  const unsigned char* text = sqlite3_column_text(statement_.get(), index);
  if (text == nullptr) return std::nullopt;  // out of memory while converting
  const int bytes = sqlite3_column_bytes(statement_.get(), index);
  return std::string_view(reinterpret_cast<const char*>(text), static_cast<size_t>(bytes));
}

void Database::Closer::operator()(sqlite3* db) const {
  sqlite3_close_v2(db);
}

Database::Database(std::string path, sqlite3* db) : path_(std::move(path)), db_(db) {}

StatusOr<Database> Database::Open(const Input& input) {
  const std::string& path = input.path();
  // SQLite opens lazily and would report a missing or foreign file only at the first query, with
  // a vaguer message; checking the magic first gives a precise one.
  FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    return Status(StatusCode::kIoError, std::string("cannot open: ") + std::strerror(errno));
  }
  char head[16] = {};
  const size_t got = std::fread(head, 1, sizeof head, file);
  std::fclose(file);
  const std::string_view magic(head, got);
  if (magic != kSqliteMagic) {
    if (got >= 2 && static_cast<unsigned char>(head[0]) == 0x1f &&
        static_cast<unsigned char>(head[1]) == 0x8b) {
      return UnreadableInput(
          "a gzip-compressed file, read as an SQLite database: SQLite cannot read compressed "
          "databases; decompress it first (gunzip)");
    }
    return UnreadableInput(
        "not an SQLite 3 database (the file does not start with 'SQLite format 3')",
        SourcePosition{1, 1});
  }

  sqlite3* raw = nullptr;
  const int rc =
      sqlite3_open_v2(ImmutableUri(path).c_str(), &raw,
                      SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, nullptr);
  Database db(path, raw);  // closes the handle on every path, also when opening failed
  if (rc != SQLITE_OK) return SqliteError(raw, rc, "the database header");
  sqlite3_extended_result_codes(raw, 1);
  // Belt and braces: even a statement that tried to write would be refused.
  sqlite3_exec(raw, "PRAGMA query_only = 1", nullptr, nullptr, nullptr);
  sqlite3_exec(raw, fmt::format("PRAGMA cache_size = -{}", kCacheKib).c_str(), nullptr, nullptr,
               nullptr);
  return db;
}

StatusOr<Statement> Database::Prepare(std::string_view sql, std::string what) const {
  sqlite3_stmt* statement = nullptr;
  const int rc =
      sqlite3_prepare_v2(db_.get(), sql.data(), static_cast<int>(sql.size()), &statement, nullptr);
  if (rc != SQLITE_OK) {
    sqlite3_finalize(statement);
    return SqliteError(db_.get(), rc, what);
  }
  return Statement(db_.get(), statement, std::move(what));
}

std::string QuoteIdentifier(std::string_view name) {
  std::string quoted = "\"";
  for (char c : name) {
    quoted += c;
    if (c == '"') quoted += '"';
  }
  return quoted + "\"";
}

}  // namespace tensormorph::sqlite
