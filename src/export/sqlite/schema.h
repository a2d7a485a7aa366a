// The SQL schema of the SQLite export. Bump kSchemaVersion when a table or column changes meaning;
// adding tables or columns keeps it (readers select columns by name).
#pragma once

namespace tensormorph::sqlite_export {

inline constexpr int kSchemaVersion = 1;

// CREATE TABLE statements, run before any row is written.
extern const char* const kCreateTables;
// CREATE INDEX statements, run after the rows (building an index once is faster than keeping it
// up to date row by row). Only the lookups most queries need: each index costs export time
// (ops(name) alone is ~1.7 s on a 1.5M-op trace), and rows are already in (device, stream, start)
// and (thread, start) order.
extern const char* const kCreateIndexes;

}  // namespace tensormorph::sqlite_export
