// Which rocpd relations a ROCm 7 rocprofv3 database (`<pid>_results.db`, rocpd schema 3.x) has.
//
// rocprofv3 writes each table with a per-run uuid suffix (`rocpd_kernel_dispatch_<uuid>`, the
// uuid v7 with '-' replaced by '_') and an unsuffixed view over it (`rocpd_kernel_dispatch`);
// `rocpd merge` puts several runs in one file, each with its own suffixed tables, and makes the
// unsuffixed views UNION ALL of them. Rows of different runs are told apart by their `guid`
// column; ids (process id = OS pid, agent id = node id, kernel id, event id, ...) are unique only
// within one guid, so every join here matches on (id, guid). The unsuffixed view is read when it
// exists; without it (a database whose views were dropped) the suffixed tables are read together.
// Columns are found by name: schema 3.0.2 added graph columns, 3.0.3 pmc sample_id, and more may
// come.
#pragma once

#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "io/sqlite_db.h"
#include "tensormorph/model/status.h"

namespace tensormorph::rocpd {

using sqlite::Database;
using sqlite::Statement;

// The relations the importer reads (rocpd_tables.sql of rocprofiler-sdk, schema 3.0.x).
inline constexpr std::string_view kMetadata = "rocpd_metadata";
inline constexpr std::string_view kStrings = "rocpd_string";
inline constexpr std::string_view kProcesses = "rocpd_info_process";
inline constexpr std::string_view kThreads = "rocpd_info_thread";
inline constexpr std::string_view kAgents = "rocpd_info_agent";
inline constexpr std::string_view kPmcInfo = "rocpd_info_pmc";
inline constexpr std::string_view kKernelSymbols = "rocpd_info_kernel_symbol";
inline constexpr std::string_view kEvents = "rocpd_event";
inline constexpr std::string_view kRegions = "rocpd_region";
inline constexpr std::string_view kDispatches = "rocpd_kernel_dispatch";
inline constexpr std::string_view kMemoryCopies = "rocpd_memory_copy";
inline constexpr std::string_view kMemoryAllocations = "rocpd_memory_allocate";
inline constexpr std::string_view kPmcEvents = "rocpd_pmc_event";

class RocpdSchema {
 public:
  // Reads sqlite_master and the columns of every relation above that the file has.
  static StatusOr<RocpdSchema> Read(const Database& db);

  bool Has(std::string_view base) const { return sources_.contains(base); }
  bool HasColumn(std::string_view base, std::string_view column) const;
  // SQL text to put after FROM for `base`: the quoted view or table, or a parenthesised
  // UNION ALL of the suffixed tables. Only valid when Has(base).
  const std::string& Source(std::string_view base) const;
  // A rocpd database has at least one of its activity or info tables.
  bool LooksLikeRocpd() const;
  // rocpd_metadata's schema_version ("3.0.1"); empty when absent.
  const std::string& version() const { return version_; }

 private:
  std::map<std::string, std::string, std::less<>> sources_;
  std::map<std::string, std::vector<std::string>, std::less<>> columns_;
  std::string version_;
};

// "A.<column>" when `base` has the column, else "NULL", aliased "AS <alias>": a SELECT list
// entry that reads as NULL (Statement::IntOr's fallback) where an older schema lacks the column.
std::string ColumnOrNull(const RocpdSchema& schema, std::string_view base, std::string_view alias,
                         std::string_view column, std::string_view as);

// The ON condition joining `child.<reference>` to `parent.id`, with the guids matched when both
// relations carry one.
std::string JoinOn(const RocpdSchema& schema, std::string_view parent_base,
                   std::string_view parent_alias, std::string_view child_base,
                   std::string_view child_alias, std::string_view reference);

// Fails with an error naming the relation and column when `base` lacks one of `columns`.
Status RequireColumns(const RocpdSchema& schema, std::string_view base,
                      std::initializer_list<std::string_view> columns);

}  // namespace tensormorph::rocpd
