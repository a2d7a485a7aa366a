// Interval arithmetic on device time: union, intersection, idle gaps and concurrency. Every
// timeline figure is built from these, so their edge rules are fixed here once:
//  * intervals are half-open [start, end) in ns; end < start is treated as zero length;
//  * overlapping and touching intervals merge (a kernel starting exactly when another ends leaves
//    no gap, as in nsys analyze's gpu_gaps, which keeps a gap only when end < next start);
//  * a zero-length interval adds no time but is still a piece of device work: alone inside an idle
//    stretch it splits it in two, exactly as gpu_gaps' pairing of sorted ends and starts does.
#pragma once

#include <cstdint>
#include <vector>

namespace tensormorph {

struct Interval {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int64_t length() const { return end_ns > start_ns ? end_ns - start_ns : 0; }
  bool operator==(const Interval&) const = default;
};

// Sorted, disjoint, non-touching intervals covering the same time as the input.
std::vector<Interval> MergeIntervals(std::vector<Interval> intervals);

// Summed length of merged intervals (the length of their union). Saturates at INT64_MAX.
int64_t TotalLength(const std::vector<Interval>& merged);

// Length of the time covered by both lists; both must come from MergeIntervals.
int64_t IntersectionLength(const std::vector<Interval>& a, const std::vector<Interval>& b);

// Length of the time `merged` (from MergeIntervals) covers within `window`: O(log n + the
// intervals the window touches), for many windows over one long list.
int64_t CoveredWithin(const std::vector<Interval>& merged, Interval window);

// The idle stretches between consecutive merged intervals that are strictly longer than
// `min_length_ns`. Time before the first and after the last interval is not a gap.
std::vector<Interval> GapsBetween(const std::vector<Interval>& merged, int64_t min_length_ns);

// Element k: the time within `window` during which exactly k of `intervals` (not merged: each
// counts) are running. The elements add up to the window's length; empty for an empty window.
std::vector<int64_t> ConcurrencyProfile(const std::vector<Interval>& intervals, Interval window);

}  // namespace tensormorph
