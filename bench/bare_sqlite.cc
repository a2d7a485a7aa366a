// tm_bare_sqlite: the baseline for the Nsight Systems import benchmark. It runs only the SQL of
// `nsys stats --report cuda_gpu_kern_sum` (per demangled kernel name: launches, total, mean, min
// and max duration) over an export through libsqlite3, opened as tensormorph opens it (read-only,
// immutable), and prints one line per kernel name. Nothing else is read.
//
//   tm_bare_sqlite EXPORT.sqlite
#include <fmt/core.h>
#include <sqlite3.h>

#include <cstdio>
#include <string>

namespace {

constexpr const char* kKernelSummary =
    "SELECT s.value AS name, count(*) AS launches, sum(k.\"end\" - k.start) AS total_ns, "
    "avg(k.\"end\" - k.start) AS mean_ns, min(k.\"end\" - k.start) AS min_ns, "
    "max(k.\"end\" - k.start) AS max_ns "
    "FROM CUPTI_ACTIVITY_KIND_KERNEL AS k JOIN StringIds AS s ON s.id = k.demangledName "
    "GROUP BY k.demangledName ORDER BY total_ns DESC";

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fmt::print(stderr, "usage: tm_bare_sqlite EXPORT.sqlite\n");
    return 2;
  }
  const std::string uri = fmt::format("file:{}?immutable=1", argv[1]);
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(uri.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr) !=
      SQLITE_OK) {
    fmt::print(stderr, "tm_bare_sqlite: cannot open {}: {}\n", argv[1], sqlite3_errmsg(db));
    sqlite3_close(db);
    return 1;
  }
  sqlite3_stmt* stmt = nullptr;
  int rc = sqlite3_prepare_v2(db, kKernelSummary, -1, &stmt, nullptr);
  uint64_t names = 0, launches = 0;
  while (rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW) {
    ++names;
    launches += static_cast<uint64_t>(sqlite3_column_int64(stmt, 1));
    fmt::print("{}\t{}\t{}\t{:.1f}\t{}\t{}\n",
               reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)),
               sqlite3_column_int64(stmt, 1), sqlite3_column_int64(stmt, 2),
               sqlite3_column_double(stmt, 3), sqlite3_column_int64(stmt, 4),
               sqlite3_column_int64(stmt, 5));
    rc = SQLITE_OK;
  }
  if (rc != SQLITE_DONE) {
    fmt::print(stderr, "tm_bare_sqlite: {}\n", sqlite3_errmsg(db));
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return 1;
  }
  fmt::print(stderr, "tm_bare_sqlite: {} kernel names, {} launches\n", names, launches);
  sqlite3_finalize(stmt);
  sqlite3_close(db);
  return 0;
}
