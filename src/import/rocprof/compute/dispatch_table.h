// One per-dispatch CSV of a rocprof-compute workload (pmc_perf.csv, pmc_perf_N.csv, SQ_*.csv,
// timestamps.csv): a row per kernel dispatch, identity and launch columns first, then one column
// per hardware counter. Three spellings exist, one per profiler backend (rocprof v1 renamed,
// rocprofv2, rocprofv3; ../shared/reference/other-backends.md §1.4), so every column is found by
// name, case-insensitively. rocprof-compute merges one file per counter pass side by side, which
// repeats the identity columns with a suffix (wave_size_1, obj_1, Correlation_ID_1): those are
// identity columns too, never counters.
//
// rocprof-compute profiling through rocpd (ROCm 7) writes pmc_perf.csv long instead: one row per
// (dispatch, counter), the identity columns repeated on each, the counter in Counter_Name /
// Counter_Value (its SQL over rocpd's counters_collection view; every pass's rows concatenated).
// Such a file is pivoted as it is read: one row per Dispatch_ID, in the order first seen, its
// identity, launch and times from its first row, each counter a column (a counter repeated for
// one dispatch keeps its last value, as rocprof-compute's own pivot does). A row whose
// Kernel_Name differs from its dispatch's first row is not joined (counted, one warning).
//
// Counters are kept as doubles (rocprofv3 writes "98304.0"); an empty or unreadable cell is NaN,
// which every lookup treats as "not collected". Per-instance columns `TCC_X[n]` are counters of
// their own; CounterSum("TCC_X_sum") adds them up when the file has no `_sum` column.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "import/rocprof/common/columns.h"
#include "import/rocprof/common/csv_file.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof::compute {

struct DispatchRow {
  uint64_t line = 0;
  int64_t dispatch_id = -1;  // -1 when the cell is not an integer
  std::string kernel_name;
  std::string gpu_id;  // as written; "" when absent
  std::string start_text, end_text;
  Kernel launch;               // launch configuration only: no times, name or device yet
  std::vector<double> values;  // by counter index; NaN = not collected
};

class DispatchTable {
 public:
  // Reads the whole file. Errors: unreadable file, or a header without Dispatch_ID and
  // Kernel_Name (named in the message). Ragged rows are skipped with a warning (CsvFile).
  // `path`: a file of the workload `input` is (import/rocprof/common/csv_file.h).
  static StatusOr<DispatchTable> Read(const Input& input, const std::string& path,
                                      Warnings* warnings);

  const std::string& path() const { return path_; }
  // The file name without ".csv": "pmc_perf", "SQ_LEVEL_WAVES"; the section of its counters.
  const std::string& section() const { return section_; }
  const std::vector<std::string>& header() const { return header_; }
  const std::vector<std::string>& counter_names() const { return counter_names_; }
  const std::vector<DispatchRow>& rows() const { return rows_; }
  bool has_times() const { return has_times_; }
  // Whether the file was the long (dispatch, counter) layout, pivoted.
  bool long_layout() const { return long_layout_; }
  // The index of a row by dispatch id, or nullopt.
  std::optional<size_t> RowOf(int64_t dispatch_id) const;

  // A counter of one row by exact (case-insensitive) name; nullopt when absent or NaN.
  std::optional<double> Counter(const DispatchRow& row, std::string_view name) const;
  // Counter(name), else, for a name ending in "_sum", the sum of its per-instance columns
  // `<base>[n]` (nullopt when it has none or any is NaN).
  std::optional<double> CounterSum(const DispatchRow& row, std::string_view name) const;

 private:
  std::string path_, section_;
  std::vector<std::string> header_, counter_names_;
  std::unordered_map<std::string, size_t> by_name_;                 // lowercase -> index
  std::unordered_map<std::string, std::vector<size_t>> instances_;  // lowercase base -> [n]s
  std::vector<DispatchRow> rows_;
  std::unordered_map<int64_t, size_t> by_dispatch_;
  bool has_times_ = false;
  bool long_layout_ = false;

  // The index of a counter by name, added on first sight (with its per-instance base).
  size_t CounterIndex(const std::string& name);
};

}  // namespace tensormorph::rocprof::compute
