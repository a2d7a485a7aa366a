#include "tensormorph/analysis/job/job.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace tensormorph {
namespace {

// The host processes whose launches each device ran, when every device ran work for one process
// only and there are at least two: pid -> its devices. Empty otherwise. A kernel's process is its
// launch call's (same correlation id); kernels without one are left out.
std::map<int64_t, std::vector<uint32_t>> ProcessesOnOwnDevices(const Trace& trace) {
  if (trace.devices.size() < 2 || trace.api_calls.empty()) return {};
  std::unordered_map<uint64_t, int64_t> pid_of_correlation;
  pid_of_correlation.reserve(trace.api_calls.size());
  for (const ApiCall& call : trace.api_calls) {
    if (call.link.correlation != 0 && call.track < trace.tracks.size()) {
      pid_of_correlation.emplace(call.link.correlation, trace.tracks[call.track].pid);
    }
  }
  std::vector<std::set<int64_t>> pids_of_device(trace.devices.size());
  for (const Kernel& k : trace.kernels) {
    if (k.device >= trace.devices.size() || k.link.correlation == 0) continue;
    if (auto it = pid_of_correlation.find(k.link.correlation); it != pid_of_correlation.end()) {
      pids_of_device[k.device].insert(it->second);
    }
  }
  std::map<int64_t, std::vector<uint32_t>> devices_of_pid;
  for (uint32_t d = 0; d < pids_of_device.size(); ++d) {
    if (pids_of_device[d].size() > 1) return {};  // a device shared by processes: not one per GPU
    if (pids_of_device[d].size() == 1) devices_of_pid[*pids_of_device[d].begin()].push_back(d);
  }
  if (devices_of_pid.size() < 2) return {};
  return devices_of_pid;
}

std::string WorldText(const std::optional<int64_t>& world_size) {
  return world_size ? fmt::format(" of {}", *world_size) : std::string();
}

JobLayout OneInput(const Trace& trace) {
  JobLayout job;
  if (trace.rank) {
    job.is_job = true;
    job.world_size = trace.world_size;
    job.backend = trace.distributed_backend.value_or("");
    job.ranks.push_back({0, *trace.rank, true, std::nullopt, {}});
    job.verdict = fmt::format(
        "one input: rank {}{} of a job", *trace.rank,
        trace.world_size ? fmt::format(" of {} ranks", *trace.world_size) : std::string());
    if (trace.world_size && *trace.world_size > 1) {
      job.verdict += "; the other ranks' traces are not given, so nothing is compared across ranks";
    }
    return job;
  }
  const auto processes = ProcessesOnOwnDevices(trace);
  if (!processes.empty()) {
    job.is_job = true;
    job.world_size = static_cast<int64_t>(processes.size());
    int64_t rank = 0;
    for (const auto& [pid, devices] : processes) {
      job.ranks.push_back({0, rank++, false, pid, devices});
    }
    job.verdict = fmt::format(
        "one input of {} processes, each on its own devices: one rank per process, by pid",
        processes.size());
    return job;
  }
  job.ranks.push_back({0, 0, false, std::nullopt, {}});
  job.verdict = "one input";
  return job;
}

// Marks whether every rank is given, and says so in the verdict when not.
JobLayout WithCompleteness(JobLayout job) {
  job.complete =
      job.is_job && (!job.world_size || static_cast<int64_t>(job.ranks.size()) >= *job.world_size);
  if (job.is_job && !job.complete && job.ranks.size() > 1) {
    job.verdict += fmt::format(
        "; {} of its {} ranks are given, so a collective's last arrival may be on a rank not "
        "given and no rank is named a straggler",
        job.ranks.size(), *job.world_size);
  }
  return job;
}

JobLayout DescribeInputs(const std::vector<const Trace*>& inputs, bool as_job) {
  if (inputs.empty()) return {};
  if (inputs.size() == 1) return OneInput(*inputs[0]);

  // Why the inputs are not one job, each reason once.
  std::vector<std::string> reasons;
  std::set<int64_t> ranks, world_sizes;
  bool duplicate_rank = false;
  size_t without_rank = 0;
  int64_t latest_start = INT64_MIN, earliest_end = INT64_MAX;
  for (const Trace* t : inputs) {
    if (!t->rank) {
      ++without_rank;
    } else if (!ranks.insert(*t->rank).second) {
      duplicate_rank = true;
    }
    if (t->world_size) world_sizes.insert(*t->world_size);
    latest_start = std::max(latest_start, t->span_start_ns);
    earliest_end = std::min(earliest_end, t->span_end_ns);
  }
  if (without_rank > 0) {
    reasons.push_back(without_rank == inputs.size() ? std::string("no input names its rank")
                                                    : fmt::format("{} of {} inputs name no rank",
                                                                  without_rank, inputs.size()));
  }
  if (world_sizes.size() > 1) reasons.push_back("their world sizes differ");
  if (duplicate_rank) reasons.push_back("two inputs name the same rank");
  if (latest_start > earliest_end && latest_start - earliest_end > kJobClockTolerance) {
    reasons.push_back(fmt::format("their time spans do not overlap (apart by {:.1f} s)",
                                  static_cast<double>(latest_start - earliest_end) / 1e9));
  }

  JobLayout job;
  if (world_sizes.size() == 1) job.world_size = *world_sizes.begin();
  job.backend = inputs[0]->distributed_backend.value_or("");
  if (reasons.empty()) {
    job.is_job = true;
    for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
      job.ranks.push_back({i, *inputs[i]->rank, true, std::nullopt, {}});
    }
    std::sort(job.ranks.begin(), job.ranks.end(),
              [](const JobRank& a, const JobRank& b) { return a.rank < b.rank; });
    job.verdict = fmt::format("one job: {} ranks{}{}", inputs.size(), WorldText(job.world_size),
                              job.backend.empty() ? "" : fmt::format(" ({})", job.backend));
    return job;
  }
  std::string why;
  for (size_t i = 0; i < reasons.size(); ++i) why += (i == 0 ? "" : "; ") + reasons[i];
  // Ranks the traces name, where they are all present and distinct; else input positions.
  const bool named = without_rank == 0 && !duplicate_rank;
  for (int i = 0; i < static_cast<int>(inputs.size()); ++i) {
    job.ranks.push_back({i, named ? *inputs[i]->rank : i, named, std::nullopt, {}});
  }
  if (as_job) {
    job.is_job = job.forced = true;
    if (world_sizes.size() != 1) job.world_size = static_cast<int64_t>(inputs.size());
    std::sort(job.ranks.begin(), job.ranks.end(),
              [](const JobRank& a, const JobRank& b) { return a.rank < b.rank; });
    job.verdict =
        fmt::format("{} inputs treated as one job (--as-job), although {}", inputs.size(), why);
    return job;
  }
  job.world_size.reset();
  job.backend.clear();
  job.verdict = fmt::format(
      "{} inputs, not one job: {}; each is analysed as an input (--as-job "
      "treats them as one job's ranks)",
      inputs.size(), why);
  return job;
}

}  // namespace

bool OnRankDevices(const JobRank& rank, const Kernel& kernel) {
  return rank.devices.empty() ||
         std::find(rank.devices.begin(), rank.devices.end(), kernel.device) != rank.devices.end();
}

JobLayout DescribeJob(const std::vector<const Trace*>& inputs, bool as_job) {
  return WithCompleteness(DescribeInputs(inputs, as_job));
}

}  // namespace tensormorph
