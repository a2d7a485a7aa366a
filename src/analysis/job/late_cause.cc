#include "analysis/job/late_cause.h"

#include <algorithm>
#include <array>

#include "analysis/common/device_work.h"
#include "analysis/common/intervals.h"
#include "analysis/common/statistics.h"

namespace tensormorph {
namespace {

enum Activity { kComputation, kCommunication, kIdle, kActivityCount };

// One rank's device time in its own clock: computation (kernels other than collectives, and
// copies), communication (collective kernels), and all of it, each merged.
struct RankBusy {
  std::vector<Interval> computation, communication, all;
  int64_t first_start_ns = 0;
};

RankBusy BusyOf(const Trace& trace, const JobRank& rank) {
  RankBusy busy;
  std::vector<Interval> computation, communication;
  for (const Kernel& k : trace.kernels) {
    if (!OnRankDevices(rank, k)) continue;
    const bool collective = ClassifyKernelName(trace.str(k.name)) == WorkClass::kCommunication;
    (collective ? communication : computation).push_back({k.start_ns, k.end_ns()});
  }
  for (const Transfer& t : trace.transfers) {
    if (rank.devices.empty() ||
        std::find(rank.devices.begin(), rank.devices.end(), t.device) != rank.devices.end()) {
      computation.push_back({t.start_ns, t.start_ns + t.duration_ns});
    }
  }
  std::vector<Interval> all = computation;
  all.insert(all.end(), communication.begin(), communication.end());
  busy.computation = MergeIntervals(std::move(computation));
  busy.communication = MergeIntervals(std::move(communication));
  busy.all = MergeIntervals(std::move(all));
  busy.first_start_ns = busy.all.empty() ? 0 : busy.all.front().start_ns;
  return busy;
}

// The rank's time in `window` (its own clock) per activity.
std::array<int64_t, kActivityCount> Split(const RankBusy& busy, Interval window) {
  std::array<int64_t, kActivityCount> out{};
  if (window.length() == 0) return out;  // collectives that overlap on two streams
  out[kComputation] = CoveredWithin(busy.computation, window);
  out[kCommunication] = CoveredWithin(busy.communication, window);
  out[kIdle] = window.length() - CoveredWithin(busy.all, window);
  return out;
}

}  // namespace

std::vector<RankWaits> RankWaitsOf(const std::vector<const LinkedTrace*>& inputs,
                                   const JobLayout& job, const std::vector<RankClock>& clocks,
                                   const std::vector<CollectiveInstance>& collectives) {
  const size_t n = job.ranks.size();
  std::vector<RankWaits> waits(n);
  std::vector<RankBusy> busy(n);
  for (size_t r = 0; r < n; ++r) {
    waits[r].input = job.ranks[r].input;
    waits[r].rank = job.ranks[r].rank;
    busy[r] = BusyOf(inputs[job.ranks[r].input]->trace(), job.ranks[r]);
  }
  for (size_t i = 0; i < collectives.size(); ++i) {
    const CollectiveInstance& c = collectives[i];
    size_t last = 0;
    int64_t caused = 0;
    for (size_t r = 0; r < n; ++r) {
      waits[r].wait_suffered_ns += c.ranks[r].wait_ns;
      if (c.ranks[r].rank == c.last_rank) {
        last = r;
      } else {
        caused += c.ranks[r].wait_ns;
      }
    }
    waits[last].wait_caused_ns += caused;
    ++waits[last].times_last;
    if (caused == 0) continue;
    // Each rank's time between its previous collective's end (or its first work) and this start.
    std::vector<std::array<int64_t, kActivityCount>> split(n);
    for (size_t r = 0; r < n; ++r) {
      const int64_t offset = clocks[r].offset_ns;
      const int64_t from =
          i == 0 ? busy[r].first_start_ns : collectives[i - 1].ranks[r].end_ns + offset;
      split[r] = Split(busy[r], {from, c.ranks[r].start_ns + offset});
    }
    LateCause& late = waits[last].late;
    int64_t* excess[kActivityCount] = {&late.computation_ns, &late.communication_ns, &late.idle_ns};
    for (int a = 0; a < kActivityCount; ++a) {
      std::vector<int64_t> others;
      for (size_t r = 0; r < n; ++r) {
        if (r != last) others.push_back(split[r][a]);
      }
      *excess[a] += std::max<int64_t>(0, split[last][a] - MedianNs(others).value_or(0));
    }
  }
  for (RankWaits& w : waits) {
    const LateCause& l = w.late;
    const int64_t most = std::max({l.computation_ns, l.communication_ns, l.idle_ns});
    if (w.wait_caused_ns == 0 || most == 0) continue;
    w.late.cause = most == l.computation_ns     ? "computation"
                   : most == l.communication_ns ? "communication"
                                                : "idle";
  }
  return waits;
}

}  // namespace tensormorph
