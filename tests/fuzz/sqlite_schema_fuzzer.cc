// Schema drift in Nsight Systems exports: starting from a real export (TM_FUZZ_NSYS_SEED), the
// fuzz bytes pick edits — drop a table, rename or retype a column, set a column to NULL or to an
// extreme value, delete rows — applied with SQL to an in-memory copy, which is then imported. The
// importer must answer each variant with a Trace or a clear error, never a crash or a wrong row
// (fuzz_invariants.h).
#include <sqlite3.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz_invariants.h"
#include "import/importer.h"
#include "memory_file.h"

#ifndef TM_FUZZ_NSYS_SEED
#error "TM_FUZZ_NSYS_SEED must name a real Nsight Systems SQLite export"
#endif

namespace {

// Tables and columns the importer reads (src/import/nsys/schema.cc), the targets of the edits.
struct Target {
  const char* table;
  const char* column;
};
constexpr Target kTargets[] = {
    {"CUPTI_ACTIVITY_KIND_KERNEL", "start"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "end"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "deviceId"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "streamId"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "correlationId"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "globalPid"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "demangledName"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "shortName"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "gridX"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "blockX"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "registersPerThread"},
    {"CUPTI_ACTIVITY_KIND_KERNEL", "staticSharedMemory"},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", "start"},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", "bytes"},
    {"CUPTI_ACTIVITY_KIND_MEMCPY", "copyKind"},
    {"CUPTI_ACTIVITY_KIND_MEMSET", "end"},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", "start"},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", "nameId"},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", "globalTid"},
    {"CUPTI_ACTIVITY_KIND_RUNTIME", "correlationId"},
    {"NVTX_EVENTS", "start"},
    {"NVTX_EVENTS", "end"},
    {"NVTX_EVENTS", "text"},
    {"NVTX_EVENTS", "textId"},
    {"NVTX_EVENTS", "eventType"},
    {"StringIds", "id"},
    {"StringIds", "value"},
    {"TARGET_INFO_GPU", "id"},
    {"TARGET_INFO_GPU", "name"},
    {"TARGET_INFO_GPU", "numMultiprocessors"},
    {"TARGET_INFO_GPU", "smCount"},
    {"ThreadNames", "nameId"},
    {"META_DATA_EXPORT", "value"},
};
constexpr const char* kValues[] = {
    "NULL",  "-1",     "0",         "9223372036854775807", "-9223372036854775808",
    "1e308", "'text'", "x'ff00fe'", "4294967296"};

std::vector<unsigned char> LoadSeed() {
  std::ifstream in(TM_FUZZ_NSYS_SEED, std::ios::binary);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), {});
  if (bytes.empty()) {
    std::fprintf(stderr, "cannot read the seed export %s\n", TM_FUZZ_NSYS_SEED);
    std::abort();
  }
  return bytes;
}

void Exec(sqlite3* db, const std::string& sql) {
  sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr);  // a failing edit is just skipped
}

// One edit per 3 fuzz bytes: (operation, target, value).
void ApplyEdit(sqlite3* db, uint8_t operation, uint8_t target_index, uint8_t value_index) {
  const Target& t = kTargets[target_index % std::size(kTargets)];
  const std::string table = t.table, column = t.column;
  const char* value = kValues[value_index % std::size(kValues)];
  switch (operation % 7) {
    case 0:
      Exec(db, "DROP TABLE IF EXISTS " + table);
      break;
    case 1:
      Exec(db, "ALTER TABLE " + table + " RENAME COLUMN " + column + " TO " + column + "_renamed");
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

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::vector<unsigned char> seed = LoadSeed();
  static tensormorph::fuzz::MemoryFile file;
  if (size > 60) return 0;  // at most 20 edits: more adds nothing but time
  sqlite3* db = nullptr;
  sqlite3_open(":memory:", &db);
  unsigned char* copy = static_cast<unsigned char*>(sqlite3_malloc64(seed.size()));
  std::copy(seed.begin(), seed.end(), copy);
  sqlite3_deserialize(db, "main", copy, static_cast<sqlite3_int64>(seed.size()),
                      static_cast<sqlite3_int64>(seed.size()),
                      SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE);
  for (size_t i = 0; i + 2 < size; i += 3) ApplyEdit(db, data[i], data[i + 1], data[i + 2]);
  sqlite3_int64 edited_size = 0;
  unsigned char* edited = sqlite3_serialize(db, "main", &edited_size, 0);
  sqlite3_close(db);
  if (edited == nullptr) return 0;
  file.Assign(edited, static_cast<size_t>(edited_size));
  sqlite3_free(edited);

  tensormorph::ImportOptions options;
  options.input_format = "nsys-sqlite";
  tensormorph::StatusOr<tensormorph::Trace> trace = tensormorph::LoadTrace(file.path(), options);
  if (trace.ok()) tensormorph::fuzz::CheckInvariants(*trace);
  return 0;
}
