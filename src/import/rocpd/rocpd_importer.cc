#include "import/rocpd/rocpd_importer.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "import/common/finish_import.h"
#include "import/rocpd/processes.h"
#include "import/rocpd/readers.h"
#include "import/rocpd/row_checks.h"
#include "import/rocpd/schema.h"

namespace tensormorph::rocpd {
namespace {

// Trace::rank / world_size from the processes' environments; with several processes the trace
// is not one rank, and each process is listed in the metadata instead.
void SetRanks(const Processes& processes, Trace* trace) {
  const auto& all = processes.all();
  if (all.size() == 1) {
    trace->rank = all.front().rank;
    trace->world_size = all.front().world_size;
    return;
  }
  if (all.empty()) return;
  nlohmann::json list = nlohmann::json::array();
  std::optional<int64_t> world;
  bool same_world = true;
  for (const ProcessInfo& p : all) {
    nlohmann::json entry = {{"pid", p.pid}, {"guid", p.guid}};
    entry["rank"] = p.rank ? nlohmann::json(*p.rank) : nlohmann::json(nullptr);
    if (!p.command.empty()) entry["command"] = p.command;
    list.push_back(std::move(entry));
    if (!world) world = p.world_size;
    same_world = same_world && p.world_size == world;
  }
  // Commands and guids come from the database as they are: bytes that are not UTF-8 are replaced
  // rather than thrown on.
  trace->metadata["rocpd_processes"] =
      list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  trace->world_size = same_world && world ? world : std::optional<int64_t>(all.size());
  trace->warnings.push_back(fmt::format(
      "{} processes in one rocpd database (a `rocpd merge` of several runs or ranks): each keeps "
      "its own devices, threads and correlation ids; they are listed in the metadata "
      "(rocpd_processes); give one database per rank for per-rank timeline figures",
      all.size()));
}

}  // namespace

int RocpdImporter::Sniff(std::string_view head) const {
  if (!head.starts_with(sqlite::kSqliteMagic)) return 0;
  // sqlite_master sits on the first pages; rocprofv3 creates its tables before writing rows.
  for (std::string_view marker : {"rocpd_kernel_dispatch", "rocpd_info_agent", "rocpd_region",
                                  "rocpd_string", "rocpd_metadata"}) {
    if (head.find(marker) != std::string_view::npos) return 100;
  }
  return 0;
}

StatusOr<Trace> RocpdImporter::Import(const Input& input, const ImportOptions& options) const {
  const std::string& path = input.path();
  TM_ASSIGN_OR_RETURN(Database db, Database::Open(input));
  TM_ASSIGN_OR_RETURN(RocpdSchema schema, RocpdSchema::Read(db));
  if (!schema.LooksLikeRocpd()) {
    return UnreadableInput(
        "an SQLite database, but not a rocpd database: it has no rocpd_kernel_dispatch, "
        "rocpd_region, rocpd_memory_copy or rocpd_info_agent table or view (expected "
        "rocprofv3's <pid>_results.db)");
  }
  Trace trace;
  trace.path = path;
  trace.format = "rocpd";
  trace.format_version = schema.version().empty()
                             ? "rocpd SQLite (schema version not recorded)"
                             : fmt::format("rocpd SQLite, schema {}", schema.version());
  if (!schema.version().empty()) {
    trace.metadata["rocpd_schema_version"] =
        nlohmann::json(schema.version())
            .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }

  Processes processes(&trace);
  TM_RETURN_IF_ERROR(processes.Read(db, schema));
  RowChecks checks;
  Context context{db, schema, processes, checks, trace};
  TM_RETURN_IF_ERROR(ReadDispatches(context));
  TM_RETURN_IF_ERROR(ReadMemoryCopies(context));
  TM_RETURN_IF_ERROR(ReadMemoryAllocations(context));
  if (options.host_rows) {
    TM_RETURN_IF_ERROR(ReadRegions(context));
  } else {
    trace.metadata["host_rows"] = "skipped";  // as the Nsight Systems importer writes it
  }
  checks.Flush(path, &trace);
  SetRanks(processes, &trace);
  if (trace.kernels.empty()) {
    trace.warnings.push_back(
        schema.Has(kDispatches)
            ? "the database holds no kernel dispatches that could be read (rocprofv3 ran "
              "without --kernel-trace, or nothing ran on the GPU)"
            : "the database has no rocpd_kernel_dispatch table: no kernels were traced");
  }

  // Kernels are already in the model's order, with kernel_counters pointing at them.
  FinishImport(&trace,
               {.order = TableOrder::kKernelsInOrder, .backends = {.deviceless = Backend::kRocm}});
  return trace;
}

}  // namespace tensormorph::rocpd
