// compute_dispatch: one row per kernel dispatch (dispatch_id, gpu_id, start/end_timestamp in ns,
// the rocprofv3 clock of the profiled run), naming its kernel by kernel_uuid. Rows come in
// (dispatch_id, dispatch_uuid) order. A row whose times are not integers, or end before they
// start, keeps no times (the importer then skips it, or lays out every dispatch end to end when
// no row has times at all: compute_db_importer.h).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "import/nsys/schema.h"
#include "import/rocprof/compute_db/tables.h"
#include "io/sqlite_db.h"

namespace tensormorph::rocprof::compute_db {

struct DispatchRow {
  int64_t uuid = 0;
  int64_t kernel_uuid = 0;
  int64_t dispatch_id = -1;  // -1 when absent
  int64_t gpu_id = 0;        // 0 when absent (rocprof-compute profiles one GPU, --device)
  std::optional<int64_t> start_ns, end_ns;  // both set, or neither
};

struct Dispatches {
  std::vector<DispatchRow> rows;
  bool has_time_columns = false;  // the table has start_timestamp and end_timestamp
  uint64_t untimed = 0;           // rows whose times are missing or unreadable
};

StatusOr<Dispatches> ReadDispatches(const sqlite::Database& db, const nsys::Schema& schema,
                                    const DbVersion& version, RowWarnings* warnings);

}  // namespace tensormorph::rocprof::compute_db
