// Schema drift in SQLite inputs (Nsight Systems exports, rocpd databases, rocprof-compute
// databases): starting from a real database (the file TM_FUZZ_SCHEMA_SEED names), the fuzz bytes
// pick edits — drop a table, rename, drop or retype a column, set a column to NULL or to an
// extreme value, delete or duplicate rows — applied with SQL to an in-memory copy, which is then
// imported with the importer TM_FUZZ_FORMAT. The importer must answer each variant with a Trace
// or a clear error, never a crash or a wrong row (fuzz_invariants.h).
//
// The edits target every column of the seed's tables whose names start with one of the
// comma-separated prefixes TM_FUZZ_SCHEMA_TABLES (the tables the importer reads), read from the
// seed itself, so a schema the harness has not seen needs no list here. The three variables come
// from the format's tests/fuzz/formats/<name>.conf (scripts/fuzz.sh).
#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_invariants.h"
#include "memory_file.h"
#include "tensormorph/import/importer.h"

namespace {

std::string seed_path, format, table_prefixes;  // from the environment, before the first input

struct Target {
  std::string table;
  std::string column;
};

constexpr const char* kValues[] = {
    "NULL",  "-1",     "0",         "9223372036854775807", "-9223372036854775808",
    "1e308", "'text'", "x'ff00fe'", "4294967296"};

bool HasTablePrefix(std::string_view table) {
  std::string_view prefixes = table_prefixes;
  while (!prefixes.empty()) {
    const size_t comma = prefixes.find(',');
    if (table.starts_with(prefixes.substr(0, comma))) return true;
    if (comma == std::string_view::npos) break;
    prefixes.remove_prefix(comma + 1);
  }
  return false;
}

// (table, column) of every table of the seed that the importer reads.
std::vector<Target> ReadTargets(sqlite3* db) {
  std::vector<Target> targets;
  sqlite3_stmt* st = nullptr;
  sqlite3_prepare_v2(
      db,
      "SELECT m.name, p.name FROM sqlite_master AS m, pragma_table_info(m.name) AS p "
      "WHERE m.type = 'table' ORDER BY m.name, p.cid",
      -1, &st, nullptr);
  while (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
    const char* table = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
    const char* column = reinterpret_cast<const char*>(sqlite3_column_text(st, 1));
    if (table != nullptr && column != nullptr && HasTablePrefix(table))
      targets.push_back({table, column});
  }
  sqlite3_finalize(st);
  if (targets.empty()) {
    std::fprintf(stderr, "the seed %s has no table starting with %s\n", seed_path.c_str(),
                 table_prefixes.c_str());
    std::abort();
  }
  return targets;
}

std::vector<unsigned char> LoadSeed() {
  std::ifstream in(seed_path, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), {});
  if (bytes.empty()) {
    std::fprintf(stderr, "cannot read the seed database %s\n", seed_path.c_str());
    std::abort();
  }
  return bytes;
}

void Exec(sqlite3* db, const std::string& sql) {
  sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);  // a failing edit is just skipped
}

// One edit per 4 fuzz bytes: (operation, target as two bytes, value).
void ApplyEdit(sqlite3* db, const std::vector<Target>& targets, uint8_t operation,
               uint16_t target_index, uint8_t value_index) {
  const Target& t = targets[target_index % targets.size()];
  const std::string table = "\"" + t.table + "\"", column = "\"" + t.column + "\"";
  const char* value = kValues[value_index % std::size(kValues)];
  switch (operation % 7) {
    case 0:
      Exec(db, "DROP TABLE IF EXISTS " + table);
      break;
    case 1:
      Exec(db, "ALTER TABLE " + table + " RENAME COLUMN " + column + " TO \"" + t.column +
                   "_renamed\"");
      break;
    case 2:
      Exec(db, "ALTER TABLE " + table + " DROP COLUMN " + column);
      break;
    case 3:  // every row
      Exec(db, "UPDATE " + table + " SET " + column + " = " + value);
      break;
    case 4:  // some rows
      Exec(db, "UPDATE " + table + " SET " + column + " = " + value + " WHERE rowid % " +
                   std::to_string(2 + value_index % 5) + " = 0");
      break;
    case 5:
      Exec(db, "DELETE FROM " + table + " WHERE rowid % " + std::to_string(1 + value_index % 4) +
                   " = 0");
      break;
    case 6:  // duplicate rows
      Exec(db, "INSERT INTO " + table + " SELECT * FROM " + table + " LIMIT " +
                   std::to_string(1 + value_index));
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  const char* seed = std::getenv("TM_FUZZ_SCHEMA_SEED");
  const char* name = std::getenv("TM_FUZZ_FORMAT");
  const char* tables = std::getenv("TM_FUZZ_SCHEMA_TABLES");
  if (seed == nullptr || name == nullptr || tables == nullptr ||
      tensormorph::FindImporter(name) == nullptr) {
    std::fprintf(stderr,
                 "set TM_FUZZ_SCHEMA_SEED (a database), TM_FUZZ_FORMAT (its importer) and "
                 "TM_FUZZ_SCHEMA_TABLES (prefixes of the tables it reads)\n");
    std::exit(2);
  }
  seed_path = seed;
  format = name;
  table_prefixes = tables;
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<unsigned char> seed = LoadSeed();
  static tensormorph::fuzz::MemoryFile file;
  if (size > 80) return 0;  // at most 20 edits: more adds nothing but time
  sqlite3* db = nullptr;
  sqlite3_open(":memory:", &db);
  unsigned char* copy = static_cast<unsigned char*>(sqlite3_malloc64(seed.size()));
  std::copy(seed.begin(), seed.end(), copy);
  sqlite3_deserialize(db, "main", copy, static_cast<sqlite3_int64>(seed.size()),
                      static_cast<sqlite3_int64>(seed.size()),
                      SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE);
  static const std::vector<Target> targets = ReadTargets(db);
  for (size_t i = 0; i + 3 < size; i += 4) {
    ApplyEdit(db, targets, data[i], static_cast<uint16_t>(data[i + 1] << 8 | data[i + 2]),
              data[i + 3]);
  }
  sqlite3_int64 edited_size = 0;
  unsigned char* edited = sqlite3_serialize(db, "main", &edited_size, 0);
  sqlite3_close(db);
  if (edited == nullptr) return 0;
  file.Assign(edited, static_cast<size_t>(edited_size));
  sqlite3_free(edited);

  tensormorph::ImportOptions options;
  options.input_format = format;
  tensormorph::StatusOr<tensormorph::Trace> trace = tensormorph::LoadTrace(file.path(), options);
  if (trace.ok()) tensormorph::fuzz::CheckInvariants(*trace);
  return 0;
}
