// The last step of every importer: put the tables in the model's order and record the span.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph {

// Sorts device tables by (device, stream, start) and host tables by (track, start, longer first).
// In place: std::sort needs no buffer, unlike stable_sort, whose buffer would be the peak of a
// whole import. Rows that tie on every key (same place, time, duration and name, differing only
// in ids or launch configuration) keep no particular order; results stay deterministic because
// importers hand rows over in a fixed order (the Kineto importer merges chunks in file order).
void SortTraceTables(Trace* trace);

// The rows of a host table (Trace::slices, Trace::api_calls) in track order, for readers that walk
// one track's rows as one run: `order[k]` is the k-th row. The table itself when it already is in
// that order (SortTraceTables' order, every importer's; nothing is stored), else its row indices
// stably sorted by track.
class TrackOrder {
 public:
  template <typename Rows>
  explicit TrackOrder(const Rows& rows) {
    bool sorted = true;
    for (size_t r = 1; r < rows.size() && sorted; ++r) sorted = rows[r - 1].track <= rows[r].track;
    if (sorted) return;
    order_.resize(rows.size());
    for (uint32_t r = 0; r < order_.size(); ++r) order_[r] = r;
    std::stable_sort(order_.begin(), order_.end(),
                     [&rows](uint32_t a, uint32_t b) { return rows[a].track < rows[b].track; });
  }
  uint32_t operator[](size_t k) const {
    return order_.empty() ? static_cast<uint32_t>(k) : order_[k];
  }

 private:
  std::vector<uint32_t> order_;  // empty: the table's own order
};

// Adds `offset_ns` to every timestamp (a profiler's time base: Kineto's baseTimeNanoseconds,
// Nsight's session start). The caller checks the offset keeps times in range; importers keep
// timestamps within ±2^62 ns, so any offset in [0, 2^62) is safe.
void ShiftTraceTimes(int64_t offset_ns, Trace* trace);

// Earliest start and latest end over every timed row; {0, 0} for a trace without any.
void ComputeTraceSpan(Trace* trace);

}  // namespace tensormorph
