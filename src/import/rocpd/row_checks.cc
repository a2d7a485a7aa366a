#include "import/rocpd/row_checks.h"

#include <fmt/format.h>

namespace tensormorph::rocpd {

bool RowChecks::Span(std::string_view table, uint64_t row, std::optional<int64_t> start,
                     std::optional<int64_t> end, int64_t* start_ns, int64_t* duration_ns) {
  constexpr int64_t kMax = int64_t{1} << 62;
  if (!start || !end) {
    Skip(table, row, "no start or end time");
    return false;
  }
  if (*start < 0 || *end > kMax || *end < *start) {
    Skip(table, row, fmt::format("times {}..{} ns are out of order or out of range", *start, *end));
    return false;
  }
  *start_ns = *start;
  *duration_ns = *end - *start;
  return true;
}

void RowChecks::Skip(std::string_view table, uint64_t row, std::string_view why) {
  ++skipped_;
  if (described_.size() < kDescribed) {
    described_.push_back(fmt::format("{} row {}: {}; skipped", table, row, why));
  }
}

void RowChecks::Flush(const std::string& path, Trace* trace) {
  for (const std::string& w : described_) trace->warnings.push_back(fmt::format("{}: {}", path, w));
  if (skipped_ > described_.size()) {
    trace->warnings.push_back(
        fmt::format("{}: {} more rows skipped", path, skipped_ - described_.size()));
  }
  trace->counts.skipped += skipped_;
  described_.clear();
  skipped_ = 0;
}

}  // namespace tensormorph::rocpd
