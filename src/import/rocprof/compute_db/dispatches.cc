#include "import/rocprof/compute_db/dispatches.h"

#include <fmt/format.h>

namespace tensormorph::rocprof::compute_db {

StatusOr<Dispatches> ReadDispatches(const sqlite::Database& db, const nsys::Schema& schema,
                                    const DbVersion& version, RowWarnings* warnings) {
  Dispatches out;
  out.has_time_columns = schema.HasColumn(kDispatchTable, "start_timestamp") &&
                         schema.HasColumn(kDispatchTable, "end_timestamp");
  const bool ordered = schema.HasColumn(kDispatchTable, "dispatch_id");
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement row,
      SelectColumns(db, schema, version, kDispatchTable, {"dispatch_uuid", "kernel_uuid"},
                    {"dispatch_id", "gpu_id", "start_timestamp", "end_timestamp"},
                    ordered ? "ORDER BY dispatch_id, dispatch_uuid" : "ORDER BY dispatch_uuid"));
  const int uuid = row.Index("dispatch_uuid"), kernel = row.Index("kernel_uuid");
  const int id = row.Index("dispatch_id"), gpu = row.Index("gpu_id");
  const int start = row.Index("start_timestamp"), end = row.Index("end_timestamp");
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, row.Step());
    if (!more) break;
    std::optional<int64_t> u = IntegerCell(row, uuid), k = IntegerCell(row, kernel);
    if (!u || !k) {
      warnings->Add("compute_dispatch",
                    "a row without an integer dispatch_uuid and kernel_uuid: skipped");
      continue;
    }
    DispatchRow d;
    d.uuid = *u;
    d.kernel_uuid = *k;
    d.dispatch_id = IntegerCell(row, id).value_or(-1);
    d.gpu_id = IntegerCell(row, gpu).value_or(0);
    if (d.gpu_id < 0) d.gpu_id = 0;
    if (out.has_time_columns) {
      std::optional<int64_t> s = IntegerCell(row, start), e = IntegerCell(row, end);
      if (s && e && *s >= 0 && *e >= *s) {
        d.start_ns = s;
        d.end_ns = e;
      } else {
        ++out.untimed;
        if (!row.IsNull(start) || !row.IsNull(end)) {
          warnings->Add(fmt::format("compute_dispatch dispatch_uuid {}", d.uuid),
                        fmt::format("start/end_timestamp '{}', '{}' are not nanoseconds with end "
                                    ">= start",
                                    row.Text(start).value_or("NULL").substr(0, 30),
                                    row.Text(end).value_or("NULL").substr(0, 30)));
        }
      }
    } else {
      ++out.untimed;
    }
    out.rows.push_back(d);
  }
  return out;
}

}  // namespace tensormorph::rocprof::compute_db
