#include "tensormorph/analysis/job/collectives.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "analysis/common/statistics.h"
#include "analysis/job/collective_calls.h"
#include "analysis/job/late_cause.h"

namespace tensormorph {
namespace {

// A collective's identity on every rank: (process group, Seq), or (kernel name, the stream's
// position among the rank's streams that ran that name, occurrence on it).
using MatchKey = std::tuple<std::string, int64_t, int64_t>;

bool AllHaveSeq(const std::vector<std::vector<CollectiveCall>>& calls) {
  bool any = false;
  for (const auto& rank : calls) {
    for (const CollectiveCall& c : rank) {
      if (!c.seq) return false;
      any = true;
    }
  }
  return any;
}

std::vector<MatchKey> KeysOf(const std::vector<CollectiveCall>& calls, bool by_seq) {
  std::vector<MatchKey> keys;
  keys.reserve(calls.size());
  if (by_seq) {
    for (const CollectiveCall& c : calls) keys.emplace_back(c.process_group, *c.seq, 0);
    return keys;
  }
  // Stream numbers differ between processes; their order among a name's streams does not.
  std::map<std::string_view, std::vector<int64_t>> streams_of_name;
  for (const CollectiveCall& c : calls) streams_of_name[c.name].push_back(c.stream);
  for (auto& [name, streams] : streams_of_name) {
    std::sort(streams.begin(), streams.end());
    streams.erase(std::unique(streams.begin(), streams.end()), streams.end());
  }
  std::map<std::pair<std::string_view, int64_t>, int64_t> seen;
  for (const CollectiveCall& c : calls) {
    const auto& streams = streams_of_name[c.name];
    const int64_t position =
        std::lower_bound(streams.begin(), streams.end(), c.stream) - streams.begin();
    keys.emplace_back(std::string(c.name), position, seen[{c.name, c.stream}]++);
  }
  return keys;
}

// Median of a - b and its scaled median absolute deviation.
void EstimateOffset(const std::vector<int64_t>& differences, RankClock* clock) {
  clock->samples = differences.size();
  const std::optional<int64_t> median = MedianNs(differences);
  if (!median) return;
  clock->offset_ns = *median;
  std::vector<int64_t> deviations;
  deviations.reserve(differences.size());
  for (int64_t d : differences) deviations.push_back(d >= *median ? d - *median : *median - d);
  clock->uncertainty_ns = std::llround(1.4826 * static_cast<double>(*MedianNs(deviations)));
}

void Summarize(CollectivesResult* result) {
  std::map<std::pair<std::string, std::string>, CollectiveTypeSummary> groups;
  std::map<std::pair<std::string, std::string>, int64_t> transfer_with_bytes;
  for (const CollectiveInstance& c : result->collectives) {
    const std::string bucket = BytesBucketName(c.bytes);
    CollectiveTypeSummary& g = groups[{c.type, bucket}];
    g.type = c.type;
    g.size_bucket = bucket;
    ++g.count;
    g.skew_ns += c.skew_ns;
    g.max_skew_ns = std::max(g.max_skew_ns, c.skew_ns);
    g.transfer_ns += c.transfer_ns;
    for (const CollectiveRankTiming& r : c.ranks) g.wait_ns += r.wait_ns;
    if (c.bytes) {
      g.bytes = g.bytes.value_or(0) + *c.bytes;
      transfer_with_bytes[{c.type, bucket}] += c.transfer_ns;
    }
  }
  for (auto& [key, g] : groups) {
    const int64_t transfer = transfer_with_bytes[key];
    if (g.bytes && transfer > 0) {
      g.algo_bytes_per_s = static_cast<double>(*g.bytes) / (static_cast<double>(transfer) * 1e-9);
      // Every instance of a group has one type; n may differ, so the bus figure sums per instance.
      double bus_bytes = 0;
      for (const CollectiveInstance& c : result->collectives) {
        if (c.type == g.type && c.bytes && BytesBucketName(c.bytes) == g.size_bucket) {
          bus_bytes += static_cast<double>(*c.bytes) * BusBandwidthFactor(c.type, c.group_size);
        }
      }
      g.bus_bytes_per_s = bus_bytes / (static_cast<double>(transfer) * 1e-9);
    }
    result->by_type.push_back(std::move(g));
  }
}

}  // namespace

std::string BytesBucketName(std::optional<int64_t> bytes) {
  if (!bytes) return "unknown";
  constexpr int64_t kKiB = 1024, kMiB = 1024 * 1024;
  if (*bytes < kKiB) return "< 1 KiB";
  if (*bytes < 64 * kKiB) return "1 KiB - 64 KiB";
  if (*bytes < kMiB) return "64 KiB - 1 MiB";
  if (*bytes < 16 * kMiB) return "1 MiB - 16 MiB";
  if (*bytes < 256 * kMiB) return "16 MiB - 256 MiB";
  return ">= 256 MiB";
}

double BusBandwidthFactor(const std::string& type, int64_t n) {
  if (n <= 0) return 1;
  const double ranks = static_cast<double>(n);
  if (type == "all_reduce") return 2 * (ranks - 1) / ranks;
  if (type == "all_gather" || type == "reduce_scatter" || type == "all_to_all") {
    return (ranks - 1) / ranks;
  }
  return 1;
}

CollectivesResult AnalyzeCollectives(const std::vector<const LinkedTrace*>& inputs,
                                     const JobLayout& job, const CollectiveOptions& options) {
  CollectivesResult result;
  result.job = job;
  if (!job.is_job) {
    result.warnings.push_back(
        fmt::format("{}: collectives are matched across the ranks of one job only", job.verdict));
    return result;
  }
  const size_t rank_count = job.ranks.size();
  std::vector<std::vector<CollectiveCall>> calls(rank_count);
  for (size_t r = 0; r < rank_count; ++r) {
    calls[r] = CollectiveCallsOf(*inputs[job.ranks[r].input], job.ranks[r]);
  }
  const bool by_seq = AllHaveSeq(calls);
  result.matched_by = by_seq ? "process group and Seq" : "kernel name and stream order";

  // key -> the call of each rank (-1: that rank has none).
  std::map<MatchKey, std::vector<int64_t>> by_key;
  for (size_t r = 0; r < rank_count; ++r) {
    const std::vector<MatchKey> keys = KeysOf(calls[r], by_seq);
    for (size_t i = 0; i < keys.size(); ++i) {
      auto [it, added] = by_key.try_emplace(keys[i], std::vector<int64_t>(rank_count, -1));
      if (it->second[r] >= 0) continue;  // a repeated (pg, Seq): the first call stands
      it->second[r] = static_cast<int64_t>(i);
    }
  }
  std::vector<std::vector<int64_t>> matched;
  size_t unmatched_calls = 0;
  for (const auto& [key, per_rank] : by_key) {
    const size_t present =
        std::count_if(per_rank.begin(), per_rank.end(), [](int64_t i) { return i >= 0; });
    if (present == rank_count) {
      matched.push_back(per_rank);
    } else {
      unmatched_calls += present;
    }
  }
  if (unmatched_calls > 0) {
    result.warnings.push_back(
        fmt::format("{} collective kernels are on some ranks only (matched by {}) and are left out",
                    unmatched_calls, result.matched_by));
  }

  // Clocks: each rank against the lowest rank, from the collectives' ends.
  result.clocks.resize(rank_count);
  for (size_t r = 0; r < rank_count; ++r) {
    RankClock& clock = result.clocks[r];
    clock.input = job.ranks[r].input;
    clock.rank = job.ranks[r].rank;
    if (r == 0 || !options.align_clocks) {
      clock.samples = matched.size();
      continue;
    }
    std::vector<int64_t> differences;
    differences.reserve(matched.size());
    for (const auto& m : matched)
      differences.push_back(calls[r][m[r]].end_ns - calls[0][m[0]].end_ns);
    EstimateOffset(differences, &clock);
  }

  for (const auto& m : matched) {
    CollectiveInstance c;
    const CollectiveCall& first = calls[0][m[0]];
    c.name = std::string(first.name);
    c.type = first.type;
    c.process_group = first.process_group;
    c.seq = first.seq;
    c.group_size =
        first.group_size.value_or(job.world_size.value_or(static_cast<int64_t>(rank_count)));
    c.first_start_ns = INT64_MAX;
    c.last_start_ns = INT64_MIN;
    int64_t last_end = INT64_MIN;
    for (size_t r = 0; r < rank_count; ++r) {
      const CollectiveCall& call = calls[r][m[r]];
      const int64_t offset = result.clocks[r].offset_ns;
      CollectiveRankTiming t{job.ranks[r].rank,    call.start_ns - offset,
                             call.end_ns - offset, 0,
                             call.bytes,           call.kernel};
      if (call.bytes) c.bytes = std::max(c.bytes.value_or(0), *call.bytes);
      c.first_start_ns = std::min(c.first_start_ns, t.start_ns);
      if (t.start_ns > c.last_start_ns) {  // ties keep the lower rank (ranks are in rank order)
        c.last_start_ns = t.start_ns;
        c.last_rank = t.rank;
      }
      last_end = std::max(last_end, t.end_ns);
      c.ranks.push_back(t);
    }
    for (CollectiveRankTiming& t : c.ranks) {
      t.wait_ns = std::max<int64_t>(0, std::min(t.end_ns, c.last_start_ns) - t.start_ns);
    }
    c.skew_ns = c.last_start_ns - c.first_start_ns;
    c.transfer_ns = std::max<int64_t>(0, last_end - c.last_start_ns);
    if (c.bytes && c.transfer_ns > 0) {
      c.algo_bytes_per_s =
          static_cast<double>(*c.bytes) / (static_cast<double>(c.transfer_ns) * 1e-9);
      c.bus_bytes_per_s = *c.algo_bytes_per_s * BusBandwidthFactor(c.type, c.group_size);
    }
    result.collectives.push_back(std::move(c));
  }
  std::sort(result.collectives.begin(), result.collectives.end(),
            [](const CollectiveInstance& a, const CollectiveInstance& b) {
              return std::tie(a.first_start_ns, a.name) < std::tie(b.first_start_ns, b.name);
            });
  for (size_t i = 0; i < result.collectives.size(); ++i) result.collectives[i].index = i;

  // An offset known less well than a typical transfer takes makes the waits guesses.
  std::vector<int64_t> transfers;
  for (const CollectiveInstance& c : result.collectives) transfers.push_back(c.transfer_ns);
  if (const std::optional<int64_t> typical = MedianNs(transfers)) {
    for (const RankClock& clock : result.clocks) {
      if (clock.uncertainty_ns && *clock.uncertainty_ns > *typical) {
        result.warnings.push_back(fmt::format(
            "rank {}'s clock offset ({} ns) is uncertain by {} ns, more than the median transfer "
            "({} ns): its skews and waits are not reliable",
            clock.rank, clock.offset_ns, *clock.uncertainty_ns, *typical));
      }
    }
  }
  if (rank_count == 1 && !result.collectives.empty()) {
    result.warnings.push_back(
        "one rank only: no skew or wait can be measured, and each transfer is the kernel's whole "
        "duration, including any wait for the ranks not given, so the bandwidths are lower bounds");
  }
  Summarize(&result);
  if (rank_count >= 2) {
    result.per_rank = RankWaitsOf(inputs, job, result.clocks, result.collectives);
  }
  return result;
}

}  // namespace tensormorph
