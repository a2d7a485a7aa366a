#include "export/sqlite/sqlite_exporter.h"

#include <filesystem>
#include <system_error>

#include "export/sqlite/database.h"
#include "export/sqlite/schema.h"
#include "export/sqlite/tables.h"

namespace tensormorph {
namespace {

void RemoveIfPresent(const std::string& path) {
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
}

// Everything in one transaction, with the journal off: the database is built in a temporary file
// that only replaces the output once it is complete, so a crash mid-way cannot leave a
// half-written database under the output's name and rollback protection buys nothing.
Status WriteDatabase(const LinkedTrace& linked, const std::string& path) {
  const Trace& trace = linked.trace();
  sqlite_export::Database db(path);
  TM_RETURN_IF_ERROR(db.Open());
  // One connection on one thread: no mutexes (NOMUTEX at open); a 64 MiB page cache keeps the
  // B-tree pages being appended to in memory instead of reading them back from the file; index
  // sorts may use helper threads.
  db.Exec(
      "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=65536; "
      "PRAGMA cache_size=-65536; PRAGMA locking_mode=EXCLUSIVE; PRAGMA threads=4;");
  db.Exec("BEGIN");
  db.Exec(sqlite_export::kCreateTables);
  {
    const TraceLinks& links = linked.links();
    sqlite_export::WriteMetadata(db, trace);
    sqlite_export::WriteDevices(db, trace);
    const sqlite_export::StreamIds streams = sqlite_export::WriteStreams(db, trace);
    sqlite_export::WriteThreads(db, trace);
    sqlite_export::WriteApiCalls(db, trace);
    sqlite_export::WriteSlices(db, trace, links);
    sqlite_export::WriteKernels(db, trace, links, streams);
    sqlite_export::WriteMemcpy(db, trace, links, streams);
    sqlite_export::WriteKernelCounters(db, trace);
    sqlite_export::WriteFlows(db, trace);
    sqlite_export::WriteWarnings(db, trace);
  }
  db.Exec(sqlite_export::kCreateIndexes);
  db.Exec("COMMIT");
  return db.Close();
}

}  // namespace

Status SqliteExporter::Export(const LinkedTrace& linked, const std::string& output_path) const {
  const std::string temp_path = output_path + ".tmp";
  RemoveIfPresent(
      temp_path);  // a leftover from an interrupted export would be opened, not replaced
  if (Status written = WriteDatabase(linked, temp_path); !written.ok()) {
    // By hand: the temporary file goes, and the message names the output path instead.
    RemoveIfPresent(temp_path);
    return {written.code(), written.message().starts_with(temp_path)
                                ? output_path + written.message().substr(temp_path.size())
                                : written.message()};
  }
  std::error_code error;
  std::filesystem::rename(temp_path, output_path, error);
  if (error) {
    RemoveIfPresent(temp_path);
    return {StatusCode::kIoError, output_path + ": cannot write: " + error.message()};
  }
  return Status::Ok();
}

}  // namespace tensormorph
