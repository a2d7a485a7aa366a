#include "analysis/common/intervals.h"

#include <algorithm>
#include <utility>

namespace tensormorph {

std::vector<Interval> MergeIntervals(std::vector<Interval> intervals) {
  for (Interval& i : intervals) i.end_ns = std::max(i.end_ns, i.start_ns);
  // Only the starts need to be in order: among equal starts the merge keeps the largest end
  // whatever their order. Device work usually comes sorted already, so a check saves the sort.
  auto by_start = [](const Interval& a, const Interval& b) { return a.start_ns < b.start_ns; };
  if (!std::is_sorted(intervals.begin(), intervals.end(), by_start)) {
    std::sort(intervals.begin(), intervals.end(), by_start);
  }
  std::vector<Interval> merged;
  for (const Interval& i : intervals) {
    // `<=`: touching intervals (and a zero-length one at either end) join the current one.
    if (!merged.empty() && i.start_ns <= merged.back().end_ns) {
      merged.back().end_ns = std::max(merged.back().end_ns, i.end_ns);
    } else {
      merged.push_back(i);
    }
  }
  return merged;
}

int64_t TotalLength(const std::vector<Interval>& merged) {
  int64_t total = 0;
  for (const Interval& i : merged) {
    if (__builtin_add_overflow(total, i.length(), &total)) return INT64_MAX;
  }
  return total;
}

int64_t IntersectionLength(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  int64_t total = 0;
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t start = std::max(a[i].start_ns, b[j].start_ns);
    const int64_t end = std::min(a[i].end_ns, b[j].end_ns);
    if (end > start && __builtin_add_overflow(total, end - start, &total)) return INT64_MAX;
    // Advance whichever ends first; the other may still overlap the next one.
    if (a[i].end_ns < b[j].end_ns) {
      ++i;
    } else {
      ++j;
    }
  }
  return total;
}

int64_t CoveredWithin(const std::vector<Interval>& merged, Interval window) {
  // Merged intervals are sorted and disjoint, so their ends are sorted too.
  auto it = std::upper_bound(merged.begin(), merged.end(), window.start_ns,
                             [](int64_t t, const Interval& i) { return t < i.end_ns; });
  int64_t total = 0;
  for (; it != merged.end() && it->start_ns < window.end_ns; ++it) {
    total += std::min(it->end_ns, window.end_ns) - std::max(it->start_ns, window.start_ns);
  }
  return total;
}

std::vector<Interval> GapsBetween(const std::vector<Interval>& merged, int64_t min_length_ns) {
  std::vector<Interval> gaps;
  for (size_t k = 1; k < merged.size(); ++k) {
    const Interval gap{merged[k - 1].end_ns, merged[k].start_ns};
    if (gap.length() > min_length_ns) gaps.push_back(gap);
  }
  return gaps;
}

std::vector<int64_t> ConcurrencyProfile(const std::vector<Interval>& intervals, Interval window) {
  if (window.length() == 0) return {};
  // (time, +1 start / -1 end); ends sort before starts at the same time, so back-to-back work is
  // never counted as running together.
  std::vector<std::pair<int64_t, int>> events;
  events.reserve(intervals.size() * 2);
  for (const Interval& i : intervals) {
    if (i.length() == 0) continue;
    events.emplace_back(i.start_ns, +1);
    events.emplace_back(i.end_ns, -1);
  }
  std::sort(events.begin(), events.end());
  std::vector<int64_t> profile(1, 0);
  int64_t running = 0;
  int64_t previous = window.start_ns;
  for (const auto& [time, delta] : events) {
    const int64_t t = std::clamp(time, window.start_ns, window.end_ns);
    if (t > previous) {
      if (profile.size() <= static_cast<size_t>(running)) profile.resize(running + 1, 0);
      profile[running] += t - previous;
      previous = t;
    }
    running += delta;
  }
  if (window.end_ns > previous) {
    if (profile.size() <= static_cast<size_t>(running)) profile.resize(running + 1, 0);
    profile[running] += window.end_ns - previous;
  }
  return profile;
}

}  // namespace tensormorph
