// What every table reader of the Nsight Systems importer shares: the open database and its schema,
// the trace being filled, the StringIds lookup, the thread and device numbering, the checks on
// times and the warnings about skipped rows.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "import/nsys/schema.h"
#include "io/sqlite_db.h"
#include "tensormorph/import/importer.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::nsys {

// Nsight encodes a thread as <hardware id:8><VM id:8><pid:24><tid:24> (globalTid); a process
// (globalPid) is the same with the tid bits zero.
inline int64_t PidOf(int64_t global_id) {
  return (global_id >> 24) & 0xFFFFFF;
}
inline int64_t TidOf(int64_t global_id) {
  return global_id & 0xFFFFFF;
}

class ImportContext {
 public:
  ImportContext(const sqlite::Database& db, const Schema& schema, const ImportOptions& options,
                Trace* trace);

  const sqlite::Database& db() const { return db_; }
  const Schema& schema() const { return schema_; }
  Trace& trace() { return *trace_; }

  // The text of StringIds row `id`, interned into the trace. nullopt when the export has no such
  // string (a dangling reference); errors only when the database cannot be read.
  StatusOr<std::optional<StringId>> String(int64_t id);

  // The track of a globalTid, created on first use.
  uint32_t TrackOf(int64_t global_tid);
  // The globalTid of each track, by track index.
  const std::vector<int64_t>& track_global_tids() const { return track_global_tids_; }

  // A device slot for the deviceId the activity tables carry. Rows store the slot in their
  // `device` field until the device table is built (devices.h), which replaces it with the index
  // into Trace::devices.
  uint32_t DeviceSlot(int64_t device_id);
  const std::vector<int64_t>& device_ids() const { return device_ids_; }

  // Checks a row's [start, end] (ns, session time) and gives its duration. A row with a missing
  // time, an end before its start, a time out of range or an implausibly long duration is
  // skipped with a warning that names the table and the row's position in it.
  bool CheckTimes(std::string_view table, uint64_t row, std::optional<int64_t> start,
                  std::optional<int64_t> end, int64_t* duration);
  // Records a skipped row: the first few are described, the rest counted.
  void SkipRow(std::string_view table, uint64_t row, std::string_view why);
  // Warnings about skipped rows, once every table is read.
  void FlushRowWarnings();

  // How many rows to reserve for a table: its estimated row count, bounded by what the file could
  // hold, so that a damaged rowid cannot ask for an absurd allocation.
  size_t ReserveHint(std::string_view table) const;

  // Counts a row read from any table and now and then reports progress: rows read of the
  // estimated total, mapped onto the file size.
  void RowRead() {
    if (++rows_done_ % kProgressRows == 0) ReportProgress();
  }
  void set_rows_total(uint64_t rows) { rows_total_ = rows; }

  // Steps `rows` of an activity table; on a row, advances the 1-based `row` number (for warnings)
  // and counts it for progress. False at the end.
  StatusOr<bool> NextRow(sqlite::Statement& rows, uint64_t* row) {
    StatusOr<bool> more = rows.Step();
    if (more.ok() && *more) {
      ++*row;
      RowRead();
    }
    return more;
  }

  // Where a GPU activity ran: device slot, stream and correlation id, from the columns every
  // CUPTI activity table has. Without a deviceId the row is skipped (with a warning): false.
  struct PlacementColumns {
    int device, stream, correlation, global_pid;
  };
  template <typename Row>
  bool ReadPlacement(std::string_view table, uint64_t row, const sqlite::Statement& rows,
                     const PlacementColumns& columns, Row* out) {
    const std::optional<int64_t> device_id = rows.Int(columns.device);
    if (!device_id) {
      SkipRow(table, row, "no deviceId");
      return false;
    }
    out->device = DeviceSlot(*device_id);
    out->stream = rows.IntOr(columns.stream, -1);
    out->link.correlation =
        ProcessCorrelation(rows.IntOr(columns.global_pid, 0), rows.IntOr(columns.correlation, 0));
    return true;
  }

  // CUPTI correlation ids are unique only within a process (nsys stats joins on correlationId
  // and globalPid), so the model's correlation id is <process ordinal + 1:32><correlationId:32>,
  // the ordinal counting the distinct processes (globalId >> 24, hardware and VM ids included)
  // in the order first seen. 0 (no correlation) stays 0.
  uint64_t ProcessCorrelation(int64_t global_id, int64_t correlation_id) {
    if (correlation_id <= 0 || correlation_id > UINT32_MAX) return 0;
    auto [it, added] = process_ordinals_.try_emplace(global_id >> 24, process_ordinals_.size());
    return ((it->second + 1) << 32) | static_cast<uint64_t>(correlation_id);
  }

 private:
  const sqlite::Database& db_;
  const Schema& schema_;
  const ImportOptions& options_;
  Trace* trace_;

  std::optional<sqlite::Statement> string_lookup_;
  std::unordered_map<int64_t, uint64_t> process_ordinals_;
  std::unordered_map<int64_t, std::optional<StringId>> strings_;
  std::unordered_map<int64_t, uint32_t> tracks_;
  std::vector<int64_t> track_global_tids_;
  std::unordered_map<int64_t, uint32_t> device_slots_;
  std::vector<int64_t> device_ids_;

  std::vector<std::string> row_warnings_;
  uint64_t more_skipped_ = 0;
  static constexpr uint64_t kProgressRows = 1 << 16;
  void ReportProgress();
  uint64_t rows_done_ = 0;
  uint64_t rows_total_ = 0;
  uint64_t file_size_ = 0;
};

}  // namespace tensormorph::nsys
