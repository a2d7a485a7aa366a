// Which tables and columns an Nsight Systems export has. Tables are created lazily (a table exists
// only when the report had that kind of data) and columns are added, renamed and reordered between
// export schema versions (3.24 vs 3.25 differ, for example), so every reader asks here first and
// selects the columns it needs by name.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "io/sqlite_db.h"
#include "tensormorph/model/status.h"

namespace tensormorph::nsys {

inline constexpr std::string_view kStringTable = "StringIds";
inline constexpr std::string_view kKernelTable = "CUPTI_ACTIVITY_KIND_KERNEL";
inline constexpr std::string_view kMemcpyTable = "CUPTI_ACTIVITY_KIND_MEMCPY";
inline constexpr std::string_view kMemsetTable = "CUPTI_ACTIVITY_KIND_MEMSET";
inline constexpr std::string_view kRuntimeTable = "CUPTI_ACTIVITY_KIND_RUNTIME";
inline constexpr std::string_view kSyncTable = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
inline constexpr std::string_view kNvtxTable = "NVTX_EVENTS";
inline constexpr std::string_view kGpuTable = "TARGET_INFO_GPU";
inline constexpr std::string_view kCudaDeviceTable = "TARGET_INFO_CUDA_DEVICE";
// Exports of nsys before TARGET_INFO_GPU had an `id` column (no META_DATA_EXPORT either): GPU
// properties in TARGET_INFO_CUDA_GPU by deviceId, TARGET_INFO_GPU holding only names.
inline constexpr std::string_view kLegacyCudaGpuTable = "TARGET_INFO_CUDA_GPU";
inline constexpr std::string_view kSessionStartTable = "TARGET_INFO_SESSION_START_TIME";
inline constexpr std::string_view kExportMetaTable = "META_DATA_EXPORT";
// The same name/value table as Nsight Systems 2022 exports name it.
inline constexpr std::string_view kLegacyExportMetaTable = "EXPORT_META_DATA";
inline constexpr std::string_view kProcessTable = "PROCESSES";
inline constexpr std::string_view kThreadNameTable = "ThreadNames";

class Schema {
 public:
  // Reads the table list and every table's columns (from sqlite_master and PRAGMA table_info),
  // and the export's own description (META_DATA_EXPORT) when present.
  static StatusOr<Schema> Read(const sqlite::Database& db);

  bool HasTable(std::string_view table) const;
  bool HasColumn(std::string_view table, std::string_view column) const;
  // True when any table's name starts with `prefix`.
  bool HasTableWithPrefix(std::string_view prefix) const;

  // A META_DATA_EXPORT value ("EXPORT_SCHEMA_VERSION", "EXPORT_PRODUCT_VERSION"); empty if absent.
  std::string ExportValue(std::string_view name) const;

  // An Nsight Systems export has the string table and at least one CUPTI activity or target
  // information table; any other SQLite database is not one.
  bool LooksLikeNsysExport() const;

 private:
  std::map<std::string, std::vector<std::string>, std::less<>> columns_;  // by table
  std::map<std::string, std::string, std::less<>> export_values_;
};

// Prepares "SELECT <columns> FROM <table>" over the columns the table has: every `required` column
// must exist (else an error naming the table, the column and the export schema version), the
// `optional` ones are selected when present. Read the row with Statement::Index(name).
StatusOr<sqlite::Statement> SelectColumns(const sqlite::Database& db, const Schema& schema,
                                          std::string_view table,
                                          std::initializer_list<std::string_view> required,
                                          std::initializer_list<std::string_view> optional);

// An estimate of a table's row count that costs one B-tree descent (its largest rowid), for
// reserving memory and reporting progress. Nsight writes rows with consecutive rowids.
int64_t EstimateRows(const sqlite::Database& db, std::string_view table);

}  // namespace tensormorph::nsys
