#include "import/nsys/nsys_importer.h"

#include <fmt/format.h>

#include "import/common/device_arch.h"
#include "import/common/finish_import.h"
#include "import/nsys/api_calls.h"
#include "import/nsys/context.h"
#include "import/nsys/devices.h"
#include "import/nsys/kernels.h"
#include "import/nsys/memory_usage.h"
#include "import/nsys/nvtx.h"
#include "import/nsys/schema.h"
#include "import/nsys/stats_report.h"
#include "import/nsys/threads.h"
#include "import/nsys/transfers.h"
#include "io/sqlite_db.h"
#include "model/trace_order.h"

namespace tensormorph::nsys {
namespace {

// Activity times are nanoseconds since the session start; TARGET_INFO_SESSION_START_TIME gives
// that start as UTC epoch nanoseconds. Adding it puts the rows on the epoch like Kineto's, so
// `info` shows wall-clock times and inputs of one job line up.
StatusOr<std::optional<int64_t>> SessionStartUtc(const sqlite::Database& db, const Schema& schema) {
  if (!schema.HasColumn(kSessionStartTable, "utcEpochNs")) return std::optional<int64_t>();
  TM_ASSIGN_OR_RETURN(sqlite::Statement select,
                      SelectColumns(db, schema, kSessionStartTable, {"utcEpochNs"}, {}));
  TM_ASSIGN_OR_RETURN(bool row, select.Step());
  if (!row) return std::optional<int64_t>();
  return select.Int(0);
}

std::string DescribeVersion(const Schema& schema) {
  const std::string version = schema.ExportValue("EXPORT_SCHEMA_VERSION");
  const std::string product = schema.ExportValue("EXPORT_PRODUCT_VERSION");
  std::string text = version.empty()
                         ? "export schema unknown (no META_DATA_EXPORT or EXPORT_META_DATA)"
                         : fmt::format("export schema {}", version);
  if (!product.empty()) text += fmt::format(", Nsight Systems {}", product);
  return text;
}

}  // namespace

int NsysImporter::Sniff(std::string_view head) const {
  if (IsStatsReportHeader(head)) return 60;  // Import refuses it, saying what to read instead
  if (!head.starts_with(sqlite::kSqliteMagic)) return 0;
  // The schema (table names) sits near the start of the file; any SQLite database still gets a
  // lower score, so that Import can say why it is not an Nsight export.
  for (std::string_view marker : {"CUPTI_ACTIVITY_KIND_", "TARGET_INFO_", "StringIds"}) {
    if (head.find(marker) != std::string_view::npos) return 100;
  }
  return 50;
}

StatusOr<Trace> NsysImporter::Import(const Input& input, const ImportOptions& options) const {
  const std::string& path = input.path();
  if (StatusOr<std::string> head = input.Head(4096);
      head.ok() && !head->starts_with(sqlite::kSqliteMagic) && IsStatsReportHeader(*head)) {
    return UnreadableInput(std::string(kStatsReportMessage), SourcePosition{1, 1});
  }
  TM_ASSIGN_OR_RETURN(sqlite::Database db, sqlite::Database::Open(input));
  TM_ASSIGN_OR_RETURN(Schema schema, Schema::Read(db));
  if (!schema.LooksLikeNsysExport()) {
    return UnreadableInput(fmt::format(
        "an SQLite database, but not an Nsight Systems export: it has no {} (expected the output "
        "of `nsys export --type sqlite`)",
        schema.HasTable(kStringTable) ? "CUPTI_ACTIVITY_KIND_* or TARGET_INFO_* table"
                                      : "StringIds table"));
  }

  Trace trace;
  trace.path = path;
  trace.format = "nsys-sqlite";
  trace.kernels_traced_on_request = true;  // only with --trace=cuda
  trace.format_version = DescribeVersion(schema);
  for (const char* key : {"EXPORT_PRODUCT_VERSION", "EXPORT_SCHEMA_VERSION"}) {
    const std::string value = schema.ExportValue(key);
    if (!value.empty()) trace.metadata[key] = value;
  }

  ImportContext context(db, schema, options, &trace);
  uint64_t rows_total = 0;
  std::vector<std::string_view> tables = {kKernelTable, kMemcpyTable, kMemsetTable};
  std::vector<Status (*)(ImportContext&)> readers = {&ReadKernels, &ReadTransfers};
  if (options.host_rows) {
    tables.insert(tables.end(), {kRuntimeTable, kNvtxTable});
    readers.insert(readers.end(), {&ReadApiCalls, &ReadNvtx, &NameTracks});
  } else {
    trace.metadata["host_rows"] = "skipped";
  }
  readers.push_back(&ResolveDevices);
  readers.push_back(&ReadMemoryUsage);  // after the devices: records carry their CUDA ordinal
  tables.push_back(kMemoryUsageTable);
  for (std::string_view table : tables) {
    if (schema.HasTable(table)) rows_total += static_cast<uint64_t>(EstimateRows(db, table));
  }
  context.set_rows_total(rows_total);

  for (Status (*read)(ImportContext&) : readers) {
    TM_RETURN_IF_ERROR(read(context));
  }
  context.FlushRowWarnings();

  if (trace.kernels.empty()) {
    // As `nsys stats` says ("does not contain CUDA kernel data"). Tables are created only for
    // data the report holds (unless exported with --lazy=false), so a missing table means that
    // no kernel was traced.
    if (!schema.HasTable(kKernelTable) || EstimateRows(db, kKernelTable) == 0) {
      trace.warnings.push_back(
          "the export holds no CUDA kernel data (no rows in CUPTI_ACTIVITY_KIND_KERNEL: CUDA was "
          "not traced, or nothing ran on the GPU)");
    } else {
      trace.warnings.push_back(
          "no CUDA kernel data could be kept: every CUPTI_ACTIVITY_KIND_KERNEL row was skipped");
    }
  }

  TM_ASSIGN_OR_RETURN(std::optional<int64_t> base, SessionStartUtc(db, schema));
  int64_t shift = 0;
  if (base && *base >= 0 && *base < (int64_t{1} << 62)) {
    shift = *base;
    trace.base_time_ns = shift;
    ShiftTraceTimes(shift, &trace);
  } else if (base) {
    trace.warnings.push_back(fmt::format(
        "session start {} ns is not a plausible epoch time; times are left relative to the "
        "session start",
        *base));
  }
  SetCudaArchs(&trace);
  FinishImport(&trace, {.backends = {.deviceless = Backend::kCuda}});
  return trace;
}

}  // namespace tensormorph::nsys
