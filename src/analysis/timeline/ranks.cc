#include "analysis/timeline/ranks.h"

#include <fmt/format.h>

#include <algorithm>

#include "analysis/common/statistics.h"
#include "tensormorph/analysis/job/collectives.h"
#include "tensormorph/analysis/kernels.h"

namespace tensormorph {

namespace {

// Devices by their rank in a job, by their input otherwise: the traces' own rank fields are not
// ranks when the inputs are not one job.
void LabelDevices(const std::vector<const LinkedTrace*>& inputs, const JobLayout& job,
                  std::vector<DeviceTimeline>* devices) {
  for (DeviceTimeline& d : *devices) {
    const Trace& trace = inputs[d.input]->trace();
    const std::string device = DeviceLabel(trace, d.device, /*with_rank=*/false);
    d.rank.reset();
    d.label = fmt::format("input {} {}", d.input, device);
    if (!job.is_job) continue;
    for (const JobRank& jr : job.ranks) {
      if (jr.input != d.input) continue;
      if (!jr.devices.empty() &&
          std::find(jr.devices.begin(), jr.devices.end(), d.device) == jr.devices.end()) {
        continue;
      }
      d.rank = jr.rank;
      d.label = fmt::format("rank {} {}", jr.rank, device);
      break;
    }
  }
}

}  // namespace

void DescribeRanks(const std::vector<const LinkedTrace*>& inputs, const TimelineOptions& options,
                   const CollectivesResult* given_collectives, TimelineResult* result) {
  const JobLayout job = DescribeJob(TracesOf(inputs), options.as_job);
  if (job.ranks.size() < 2) return;
  result->is_job = job.is_job;
  result->complete_job = job.complete;
  result->job_verdict = job.verdict;
  std::vector<int64_t> medians, spans;
  for (const JobRank& jr : job.ranks) {
    RankSteps r;
    r.input = jr.input;
    if (job.is_job) r.rank = jr.rank;
    std::vector<int64_t> durations;
    int64_t steps_ns = 0;
    for (const Step& s : inputs[jr.input]->steps()) {
      durations.push_back(s.end_ns - s.start_ns);
      steps_ns += durations.back();
    }
    r.step_count = durations.size();
    r.median_step_ns = MedianNs(std::move(durations));
    if (r.median_step_ns) medians.push_back(*r.median_step_ns);
    int64_t first = INT64_MAX, last = INT64_MIN;
    for (const Kernel& k : inputs[jr.input]->trace().kernels) {
      if (!OnRankDevices(jr, k)) continue;
      first = std::min(first, k.start_ns);
      last = std::max(last, k.end_ns());
    }
    if (first <= last) spans.push_back(last - first);
    r.profiled_ns = r.step_count > 0 ? steps_ns : first <= last ? last - first : 0;
    result->ranks.push_back(std::move(r));
  }
  result->median_rank_step_ns = MedianNs(medians);
  int64_t all_profiled_ns = 0;
  for (const RankSteps& r : result->ranks) all_profiled_ns += r.profiled_ns;
  LabelDevices(inputs, job, &result->devices);
  if (!job.is_job) return;
  result->straggler_basis_ns =
      result->median_rank_step_ns ? result->median_rank_step_ns : MedianNs(spans);
  std::optional<CollectivesResult> analysed;
  if (given_collectives == nullptr) analysed = AnalyzeCollectives(inputs, job, CollectiveOptions{});
  const CollectivesResult& collectives = given_collectives ? *given_collectives : *analysed;
  for (size_t i = 0; i < collectives.per_rank.size() && i < result->ranks.size(); ++i) {
    const RankWaits& w = collectives.per_rank[i];
    RankSteps& r = result->ranks[i];
    r.wait_suffered_ns = w.wait_suffered_ns;
    r.wait_caused_ns = w.wait_caused_ns;
    r.times_last = w.times_last;
    r.late_cause = w.late.cause;
    r.others_profiled_ns = all_profiled_ns - r.profiled_ns;
    if (r.others_profiled_ns > 0) {
      r.wait_caused_percent =
          100.0 * static_cast<double>(r.wait_caused_ns) / static_cast<double>(r.others_profiled_ns);
    }
    if (result->straggler_basis_ns) {
      const long double limit = static_cast<long double>(*result->straggler_basis_ns) *
                                options.straggler_threshold_percent / 100;
      r.straggler = job.complete && w.wait_caused_ns > 0 &&
                    static_cast<long double>(w.wait_caused_ns) > limit;
    }
  }
}

}  // namespace tensormorph
