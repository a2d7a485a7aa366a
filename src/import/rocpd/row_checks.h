// Checks shared by the rocpd row readers: a row's times, and the warnings about rows skipped
// (the first few described with their table and row number, the rest counted).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph::rocpd {

class RowChecks {
 public:
  // [start, end] in ns: both present, 0 <= start <= end <= 2^62 (the model keeps times within
  // 2^62 so that differences stay in range). Otherwise the row is skipped: false.
  bool Span(std::string_view table, uint64_t row, std::optional<int64_t> start,
            std::optional<int64_t> end, int64_t* start_ns, int64_t* duration_ns);
  void Skip(std::string_view table, uint64_t row, std::string_view why);
  uint64_t skipped() const { return skipped_; }
  // Moves the warnings into the trace and counts the skipped rows in trace->counts.skipped.
  void Flush(const std::string& path, Trace* trace);

 private:
  static constexpr size_t kDescribed = 5;
  std::vector<std::string> described_;
  uint64_t skipped_ = 0;
};

}  // namespace tensormorph::rocpd
