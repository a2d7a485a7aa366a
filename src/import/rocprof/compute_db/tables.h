// The tables of a rocprof-compute SQLite database (rocprof-compute 3.5+, `--format-rocprof-output
// rocpd` profiles analysed with `analyze --output-format db`; schema 1.x in compute_metadata):
// names, a SELECT over the columns a table has (required ones must exist, optional ones are
// taken when present: columns are found by name, never by position, as for Nsight exports), and
// numeric cells read strictly (a text or blob cell is "absent", never 0).
//
// Row-level trouble is reported through RowWarnings: the first few rows are named (table and
// uuid), the rest counted, so a damaged database of millions of rows prints a short list.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "import/nsys/schema.h"
#include "io/sqlite_db.h"
#include "tensormorph/model/status.h"

namespace tensormorph::rocprof::compute_db {

inline constexpr std::string_view kWorkloadTable = "compute_workload";
inline constexpr std::string_view kMetadataTable = "compute_metadata";
inline constexpr std::string_view kKernelTable = "compute_kernel";
inline constexpr std::string_view kDispatchTable = "compute_dispatch";
inline constexpr std::string_view kMetricDefinitionTable = "compute_metric_definition";
inline constexpr std::string_view kKernelMetricValueTable = "compute_kernel_metric_value";
inline constexpr std::string_view kKernelRooflineTable = "compute_kernel_roofline_data";
inline constexpr std::string_view kWorkloadRooflineTable = "compute_workload_roofline_data";

// A rocprof-compute database has its dispatch, kernel and workload tables.
bool LooksLikeComputeDb(const nsys::Schema& schema);

// The database's own description: compute_metadata's versions, empty when absent.
struct DbVersion {
  std::string compute_version;   // "3.5.0"
  std::string schema_version;    // "1.3.0"
  std::string Describe() const;  // "schema 1.3.0, rocprof-compute 3.5.0"
};
StatusOr<DbVersion> ReadDbVersion(const sqlite::Database& db, const nsys::Schema& schema);

// "SELECT <columns> FROM <table> <tail>": every `required` column must exist (else an error naming
// the table, the column and the schema version), `optional` ones are selected when present.
StatusOr<sqlite::Statement> SelectColumns(const sqlite::Database& db, const nsys::Schema& schema,
                                          const DbVersion& version, std::string_view table,
                                          std::initializer_list<std::string_view> required,
                                          std::initializer_list<std::string_view> optional,
                                          std::string_view tail = "");

// An integer cell: an INTEGER, or a REAL with an integral value below 2^62; else nullopt.
std::optional<int64_t> IntegerCell(const sqlite::Statement& row, int index);
// A finite number; nullopt for NULL, text, blobs, NaN and infinities.
std::optional<double> FiniteCell(const sqlite::Statement& row, int index);

class RowWarnings {
 public:
  static constexpr size_t kNamed = 20;
  explicit RowWarnings(std::string path) : path_(std::move(path)) {}
  // `where` names the row ("compute_dispatch dispatch_uuid 12").
  void Add(const std::string& where, const std::string& message);
  void File(const std::string& message) { file_.push_back(path_ + ": " + message); }
  void AppendTo(std::vector<std::string>* out) const;

 private:
  std::string path_;
  std::vector<std::string> file_, rows_;
  uint64_t left_out_ = 0;
};

}  // namespace tensormorph::rocprof::compute_db
