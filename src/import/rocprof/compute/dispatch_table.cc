#include "import/rocprof/compute/dispatch_table.h"

#include <fmt/format.h>

#include <charconv>
#include <filesystem>
#include <limits>

#include "import/rocprof/common/columns.h"
#include "import/rocprof/common/kernels.h"

namespace tensormorph::rocprof::compute {
namespace {

// Identity and launch columns of every backend's spelling (lowercase), never counters.
bool IsIdentityColumn(std::string_view lower) {
  static constexpr std::string_view kIdentity[] = {"dispatch_id",
                                                   "kernel_name",
                                                   "gpu_id",
                                                   "queue_id",
                                                   "queue-id",
                                                   "queue-index",
                                                   "pid",
                                                   "tid",
                                                   "grid_size",
                                                   "workgroup_size",
                                                   "lds_per_workgroup",
                                                   "scratch_per_workitem",
                                                   "arch_vgpr",
                                                   "accum_vgpr",
                                                   "sgpr",
                                                   "wave_size",
                                                   "sig",
                                                   "obj",
                                                   "correlation_id",
                                                   "kernel_id",
                                                   "xcc_index",
                                                   "dispatchns",
                                                   "start_timestamp",
                                                   "end_timestamp",
                                                   "completens",
                                                   "node",
                                                   "agent_id",
                                                   "guid"};
  for (std::string_view name : kIdentity) {
    if (lower == name) return true;
    // The copies a side-by-side merge of counter passes adds: wave_size_1, Correlation_ID_17.
    if (lower.size() > name.size() + 1 && lower.starts_with(name) && lower[name.size()] == '_' &&
        lower.find_first_not_of("0123456789", name.size() + 1) == std::string_view::npos) {
      return true;
    }
  }
  return false;
}

double ParseCounter(std::string_view text) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(value)) {
    return std::numeric_limits<double>::quiet_NaN();
  }
  return value;
}

}  // namespace

StatusOr<DispatchTable> DispatchTable::Read(const Input& input, const std::string& path,
                                            Warnings* warnings) {
  TM_ASSIGN_OR_RETURN(std::unique_ptr<CsvFile> opened, CsvFile::Open(input, path));
  CsvFile& file = *opened;
  const Columns columns(file.header());
  const size_t dispatch = columns.Find({"Dispatch_ID"});
  const KernelColumns kc(columns);
  if (dispatch == kMissing || kc.name == kMissing) {
    return UnreadableInput(
        fmt::format("not a rocprof-compute per-dispatch CSV: the header has no {}",
                    dispatch == kMissing ? "Dispatch_ID" : "Kernel_Name"),
        SourcePosition{1, 1});
  }
  DispatchTable t;
  t.path_ = path;
  t.section_ = std::filesystem::path(path).stem().string();
  if (t.section_.starts_with("pmc_perf")) t.section_ = "pmc_perf";  // pmc_perf_N: one pass
  t.header_ = file.header();
  t.has_times_ = kc.start != kMissing && kc.end != kMissing;
  const size_t counter_name = columns.Find({"Counter_Name"});
  const size_t counter_value = columns.Find({"Counter_Value"});
  t.long_layout_ = counter_name != kMissing && counter_value != kMissing;
  std::vector<size_t> counter_columns;  // wide layout: the header's counter columns
  for (size_t i = 0; i < file.header().size() && !t.long_layout_; ++i) {
    const std::string lower = Lower(file.header()[i]);
    if (lower.empty() || IsIdentityColumn(lower) || t.by_name_.count(lower)) continue;
    counter_columns.push_back(i);  // a repeated name: the first column is read
    t.CounterIndex(file.header()[i]);
  }
  auto new_row = [&](const CsvRecord& record, int64_t dispatch_id) {
    DispatchRow row;
    row.line = record.line;
    row.dispatch_id = dispatch_id;
    row.kernel_name = record.at(kc.name);
    if (kc.agent != kMissing) row.gpu_id = record.at(kc.agent);
    if (t.has_times_) {
      row.start_text = record.at(kc.start);
      row.end_text = record.at(kc.end);
    }
    ReadLaunchConfiguration(kc, record, &row.launch);
    if (row.dispatch_id >= 0) t.by_dispatch_.emplace(row.dispatch_id, t.rows_.size());
    t.rows_.push_back(std::move(row));
    return &t.rows_.back();
  };
  uint64_t unjoined = 0, unjoined_line = 0;
  // Long layout: the cells the pivot holds stay within a multiple of the rows read (a real file
  // gives every dispatch the same counters); dispatches that each bring new counters would make
  // it grow as their product.
  uint64_t long_rows = 0, cells = 0;
  CsvRecord record;
  while (file.Next(&record, warnings)) {
    const int64_t dispatch_id = ParseInt(record.at(dispatch)).value_or(-1);
    if (!t.long_layout_) {
      DispatchRow* row = new_row(record, dispatch_id);
      row->values.reserve(counter_columns.size());
      for (size_t column : counter_columns) row->values.push_back(ParseCounter(record.at(column)));
      continue;
    }
    if (dispatch_id < 0) {
      warnings->Row(path, record.line, "Dispatch_ID is not an integer: counter row skipped");
      continue;
    }
    const std::optional<size_t> seen = t.RowOf(dispatch_id);
    DispatchRow* row = seen ? &t.rows_[*seen] : new_row(record, dispatch_id);
    if (row->kernel_name != record.at(kc.name)) {
      if (unjoined++ == 0) unjoined_line = record.line;
      continue;
    }
    if (record.at(counter_name).empty()) continue;
    ++long_rows;
    const size_t index = t.CounterIndex(record.at(counter_name));
    if (row->values.size() <= index) {
      cells += index + 1 - row->values.size();
      if (cells > 4 * long_rows + (uint64_t{1} << 20)) {
        return UnreadableInput(
            fmt::format("a (dispatch, counter) pmc_perf.csv whose {} dispatches and {} counters "
                        "do not form a table ({} rows read): each dispatch brings counters of "
                        "its own; not a rocprof-compute counter file",
                        t.rows_.size(), t.counter_names_.size(), long_rows),
            SourcePosition{record.line, 1});
      }
      row->values.resize(index + 1, std::numeric_limits<double>::quiet_NaN());
    }
    row->values[index] = ParseCounter(record.at(counter_value));
  }
  TM_RETURN_IF_ERROR(file.status());
  if (unjoined > 0) {
    warnings->Row(path, unjoined_line,
                  fmt::format("{} counter rows name another kernel than the first row of their "
                              "Dispatch_ID: not joined to it",
                              unjoined));
  }
  return t;
}

size_t DispatchTable::CounterIndex(const std::string& name) {
  const std::string lower = Lower(name);
  auto [it, added] = by_name_.emplace(lower, counter_names_.size());
  if (!added) return it->second;
  counter_names_.push_back(name);
  if (const size_t open = lower.find('['); open != std::string::npos && lower.ends_with("]")) {
    instances_[lower.substr(0, open)].push_back(it->second);
  }
  return it->second;
}

std::optional<size_t> DispatchTable::RowOf(int64_t dispatch_id) const {
  auto it = by_dispatch_.find(dispatch_id);
  if (it == by_dispatch_.end()) return std::nullopt;
  return it->second;
}

std::optional<double> DispatchTable::Counter(const DispatchRow& row, std::string_view name) const {
  auto it = by_name_.find(Lower(name));
  if (it == by_name_.end() || it->second >= row.values.size()) return std::nullopt;
  const double v = row.values[it->second];
  if (std::isnan(v)) return std::nullopt;
  return v;
}

std::optional<double> DispatchTable::CounterSum(const DispatchRow& row,
                                                std::string_view name) const {
  if (std::optional<double> v = Counter(row, name)) return v;
  const std::string lower = Lower(name);
  if (!lower.ends_with("_sum")) return std::nullopt;
  auto it = instances_.find(lower.substr(0, lower.size() - 4));
  if (it == instances_.end()) return std::nullopt;
  double sum = 0;
  for (size_t index : it->second) {
    if (index >= row.values.size() || std::isnan(row.values[index])) return std::nullopt;
    sum += row.values[index];
  }
  return sum;
}

}  // namespace tensormorph::rocprof::compute
