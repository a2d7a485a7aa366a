#include "import/rocprof/v1_results_db.h"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "import/common/finish_import.h"
#include "import/rocprof/common/kernels.h"
#include "import/rocprof/sysinfo.h"
#include "io/sqlite_db.h"

namespace tensormorph::rocprof {
namespace {

// The KERN columns read, in results.csv's names (V1DispatchRows finds its fields by them).
const std::vector<std::string>& KernColumns() {
  static const std::vector<std::string> kColumns = {
      "KernelName", "gpu-id",     "queue-id", "grd",  "wgr",       "lds",     "scr",
      "arch_vgpr",  "accum_vgpr", "vgpr",     "sgpr", "wave_size", "BeginNs", "EndNs"};
  return kColumns;
}

// '"name"' -> 'name': results.csv's quoting, kept in the database's text.
std::string_view Unquoted(std::string_view name) {
  if (name.size() >= 2 && name.front() == '"' && name.back() == '"') {
    name.remove_prefix(1);
    name.remove_suffix(1);
  }
  return name;
}

}  // namespace

bool LooksLikeV1ResultsDb(std::string_view head) {
  if (!head.starts_with(sqlite::kSqliteMagic)) return false;
  const size_t table = head.find("CREATE TABLE KERN");
  return table != std::string_view::npos &&
         head.find("\"BeginNs\"", table) != std::string_view::npos &&
         head.find("\"KernelName\"", table) != std::string_view::npos;
}

StatusOr<Trace> ImportV1ResultsDb(const Input& input) {
  const std::string& path = input.path();
  TM_ASSIGN_OR_RETURN(sqlite::Database db, sqlite::Database::Open(input));
  TM_ASSIGN_OR_RETURN(sqlite::Statement rows,
                      db.Prepare("SELECT * FROM KERN ORDER BY rowid", "table KERN"));
  for (const char* needed : {"KernelName", "gpu-id", "BeginNs", "EndNs"}) {
    if (rows.Index(needed) < 0) {
      return UnreadableInput(fmt::format(
          "rocprof v1 results.db: table KERN has no \"{}\" column (expected results.csv's 22 "
          "columns; BeginNs / EndNs are written only with --timestamp on)",
          needed));
    }
  }
  std::vector<int> index;
  for (const std::string& column : KernColumns()) index.push_back(rows.Index(column));

  Trace trace;
  trace.path = path;
  trace.format = "rocprof";
  trace.format_version = "rocprof v1 results.db (SQLite table KERN)";
  std::string warning;
  const SysinfoAgents sysinfo = ReadSysinfoBeside(input, &warning);
  if (!warning.empty()) trace.warnings.push_back(warning);
  if (!sysinfo.file_name.empty()) trace.format_version += "; with " + sysinfo.file_name;
  for (const AgentInfo& a : sysinfo.agents) trace.described_device_count += a.gpu ? 1 : 0;
  DeviceResolver devices(sysinfo.agents, &trace);
  V1DispatchRows dispatches(KernColumns(), &devices, &trace);
  CsvRecord row;
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, rows.Step());
    if (!more) break;
    row.fields.clear();
    for (int i : index) row.fields.emplace_back(rows.Text(i).value_or(std::string_view()));
    row.fields[0] = std::string(Unquoted(row.fields[0]));
    dispatches.Add(row);
  }
  dispatches.AppendWarnings(path);
  if (trace.counts.kernels == 0) {
    trace.warnings.push_back(path + ": table KERN has no dispatch rows");
  }
  FinishImport(&trace, {.backends = {.deviceless = Backend::kRocm}});
  return trace;
}

}  // namespace tensormorph::rocprof
