#include "import/nsys/context.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

namespace tensormorph::nsys {
namespace {

// Rows skipped for bad times: this many are spelled out, the rest counted, so that a damaged
// export with a million bad rows does not print a million lines (as the Kineto importer does).
constexpr size_t kDetailedWarnings = 20;

// Times beyond ±2^62 ns (±146 years) are CUPTI timestamp corruption; so are single activities
// longer than a week (the limits the Kineto importer applies, after HTA).
constexpr int64_t kTimeLimitNs = int64_t{1} << 62;
constexpr int64_t kMaxDurationNs = int64_t{7} * 24 * 3600 * 1000000000;

}  // namespace

ImportContext::ImportContext(const sqlite::Database& db, const Schema& schema,
                             const ImportOptions& options, Trace* trace)
    : db_(db), schema_(schema), options_(options), trace_(trace) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(db.path(), ec);
  file_size_ = ec ? 0 : static_cast<uint64_t>(size);
}

StatusOr<std::optional<StringId>> ImportContext::String(int64_t id) {
  // Names repeat (every launch of a kernel names the same StringIds row), so each id is looked up
  // and interned once.
  auto it = strings_.find(id);
  if (it != strings_.end()) return it->second;
  if (!string_lookup_) {
    if (!schema_.HasColumn(kStringTable, "id") || !schema_.HasColumn(kStringTable, "value")) {
      return UnreadableInput("table StringIds lacks its id or value column");
    }
    // id is the INTEGER PRIMARY KEY (the rowid), so this is one B-tree descent.
    TM_ASSIGN_OR_RETURN(
        sqlite::Statement lookup,
        db_.Prepare("SELECT value FROM StringIds WHERE id = ?1", "table StringIds"));
    string_lookup_.emplace(std::move(lookup));
  }
  sqlite::Statement& lookup = *string_lookup_;
  lookup.Reset();
  lookup.Bind(1, id);
  TM_ASSIGN_OR_RETURN(bool row, lookup.Step());
  std::optional<StringId> result;
  if (row) {
    std::optional<std::string_view> text = lookup.Text(0);
    if (text) result = trace_->strings.Intern(*text);
  }
  strings_.emplace(id, result);
  return result;
}

uint32_t ImportContext::TrackOf(int64_t global_tid) {
  auto [it, added] = tracks_.emplace(global_tid, static_cast<uint32_t>(trace_->tracks.size()));
  if (added) {
    Track track;
    track.pid = PidOf(global_tid);
    track.tid = TidOf(global_tid);
    trace_->tracks.push_back(std::move(track));
    track_global_tids_.push_back(global_tid);
  }
  return it->second;
}

uint32_t ImportContext::DeviceSlot(int64_t device_id) {
  auto [it, added] = device_slots_.emplace(device_id, static_cast<uint32_t>(device_ids_.size()));
  if (added) device_ids_.push_back(device_id);
  return it->second;
}

bool ImportContext::CheckTimes(std::string_view table, uint64_t row, std::optional<int64_t> start,
                               std::optional<int64_t> end, int64_t* duration) {
  if (!start || !end) {
    SkipRow(table, row, !start ? "no start time" : "no end time");
    return false;
  }
  if (*start <= -kTimeLimitNs || *start >= kTimeLimitNs || *end <= -kTimeLimitNs ||
      *end >= kTimeLimitNs) {
    SkipRow(table, row,
            fmt::format("time {} ns is beyond ±146 years (corrupt timestamp)",
                        std::abs(*start) >= kTimeLimitNs ? *start : *end));
    return false;
  }
  if (*end < *start) {
    SkipRow(table, row, fmt::format("ends {} ns before it starts", *start - *end));
    return false;
  }
  *duration = *end - *start;
  if (*duration > kMaxDurationNs) {
    SkipRow(table, row, fmt::format("lasts {} ns, over 7 days (corrupt timestamp)", *duration));
    return false;
  }
  return true;
}

void ImportContext::SkipRow(std::string_view table, uint64_t row, std::string_view why) {
  ++trace_->counts.skipped;
  if (row_warnings_.size() < kDetailedWarnings) {
    row_warnings_.push_back(fmt::format("{} row {}: {}; skipped", table, row, why));
  } else {
    ++more_skipped_;
  }
}

void ImportContext::FlushRowWarnings() {
  for (std::string& w : row_warnings_) trace_->warnings.push_back(std::move(w));
  row_warnings_.clear();
  if (more_skipped_ > 0) {
    trace_->warnings.push_back(
        fmt::format("... and {} more rows skipped for the same kinds of reasons", more_skipped_));
    more_skipped_ = 0;
  }
}

size_t ImportContext::ReserveHint(std::string_view table) const {
  // An activity row takes well over 16 bytes of the file.
  const uint64_t limit = file_size_ / 16;
  return static_cast<size_t>(
      std::min<uint64_t>(static_cast<uint64_t>(EstimateRows(db_, table)), limit));
}

void ImportContext::ReportProgress() {
  if (!options_.progress || rows_total_ == 0 || file_size_ == 0) return;
  const double fraction = std::min(1.0, static_cast<double>(rows_done_) / rows_total_);
  options_.progress(static_cast<uint64_t>(fraction * file_size_), file_size_);
}

}  // namespace tensormorph::nsys
