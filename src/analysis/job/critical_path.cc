#include "tensormorph/analysis/job/critical_path.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "analysis/job/path_walk.h"
#include "analysis/job/rank_work.h"

namespace tensormorph {
namespace {

// The step window of the walked ranks (docs/critical-path.md "The step").
struct Window {
  WalkWindow walk;      // its start, and each rank's own step start
  int64_t end_ns = 0;   // aligned
  size_t end_rank = 0;  // position in the walked ranks
  WalkState from;
};

// `step_index[r]`: the index into rank r's steps() of ProfilerStep#N.
std::optional<Window> StepWindow(const std::vector<WalkRank>& ranks,
                                 const std::vector<int32_t>& step_index) {
  Window w;
  w.walk.start_ns = INT64_MAX;
  w.end_ns = INT64_MIN;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const RankWork& work = *ranks[r].work;
    const Step& step = work.linked().steps()[step_index[r]];
    const int64_t offset = ranks[r].offset_ns;
    w.walk.rank_starts_ns.push_back(step.start_ns - offset);
    w.walk.start_ns = std::min(w.walk.start_ns, step.start_ns - offset);
    w.walk.step_name = fmt::format("ProfilerStep#{}", step.number);
    const uint32_t last = work.LastLaunchedIn(step_index[r]);
    const bool device_ends = last != kNoRow && work.items()[last].end_ns > step.end_ns;
    const int64_t end = (device_ends ? work.items()[last].end_ns : step.end_ns) - offset;
    if (end > w.end_ns) {
      w.end_ns = end;
      w.end_rank = r;
      w.from = device_ends ? WalkState::DeviceEnd(r, last)
                           : WalkState::Host(r, work.trace().slices[step.slice].track, step.end_ns);
    }
  }
  if (w.end_ns < w.walk.start_ns) return std::nullopt;
  return w;
}

// Without a common step: from the earliest device item or host op of any rank to the latest
// device item's end.
std::optional<Window> WholeWindow(const std::vector<WalkRank>& ranks) {
  Window w;
  w.walk.start_ns = INT64_MAX;
  w.end_ns = INT64_MIN;
  bool any = false;
  for (size_t r = 0; r < ranks.size(); ++r) {
    const RankWork& work = *ranks[r].work;
    const int64_t offset = ranks[r].offset_ns;
    for (uint32_t i = 0; i < work.items().size(); ++i) {
      const PathItem& item = work.items()[i];
      w.walk.start_ns = std::min(w.walk.start_ns, item.start_ns - offset);
      const int64_t end = item.end_ns - offset;
      if (!any || end > w.end_ns) {
        w.end_ns = end;
        w.end_rank = r;
        w.from = WalkState::DeviceEnd(r, i);
        any = true;
      }
    }
    for (const auto& [track, ops] : work.OutermostOpsByTrack()) {
      if (!ops.empty()) {
        w.walk.start_ns =
            std::min(w.walk.start_ns, work.trace().slices[ops.front()].start_ns - offset);
      }
    }
  }
  if (!any) return std::nullopt;
  w.walk.rank_starts_ns.assign(ranks.size(), w.walk.start_ns);
  return w;
}

CriticalPathStep Walk(const std::vector<WalkRank>& ranks, const Window& window,
                      std::optional<int64_t> step, std::optional<int> input, WalkTally* tally) {
  CriticalPathStep out;
  out.step = step;
  out.input = input;
  out.start_ns = window.walk.start_ns;
  out.end_ns = window.end_ns;
  out.end_rank = ranks[window.end_rank].label;
  out.path = WalkBack(ranks, window.walk, window.from, tally);
  std::set<int64_t> on_path;
  for (const PathPiece& p : out.path) {
    out.composition.Add(p.kind, p.end_ns - p.start_ns);
    if (p.rank) on_path.insert(*p.rank);
  }
  out.ranks.assign(on_path.begin(), on_path.end());
  return out;
}

// The walk of one group of ranks (a job, or one input): each step every rank has, or the whole
// window when they share none.
void WalkGroup(const std::vector<WalkRank>& ranks, std::optional<int> input,
               const CriticalPathOptions& options, CriticalPathResult* result, WalkTally* tally) {
  // Per rank: step number -> index into its steps() (the first step of that number).
  std::vector<std::map<int64_t, int32_t>> index_of(ranks.size());
  for (size_t r = 0; r < ranks.size(); ++r) {
    const std::vector<Step>& steps = ranks[r].work->linked().steps();
    for (size_t i = 0; i < steps.size(); ++i) {
      index_of[r].try_emplace(steps[i].number, static_cast<int32_t>(i));
    }
  }
  std::set<int64_t> common;  // the numbers every rank has
  for (const auto& [number, unused] : index_of[0]) {
    if (std::all_of(index_of.begin(), index_of.end(),
                    [n = number](const auto& numbers) { return numbers.count(n) > 0; })) {
      common.insert(number);
    }
  }
  const std::string who = input ? fmt::format("input {}", *input) : std::string("the job");
  if (options.step && common.count(*options.step) == 0) {
    result->warnings.push_back(
        fmt::format("ProfilerStep#{} is not on every rank of {}", *options.step, who));
    return;
  }
  if (common.empty()) {
    if (const std::optional<Window> w = WholeWindow(ranks)) {
      result->steps.push_back(Walk(ranks, *w, std::nullopt, input, tally));
    } else {
      result->warnings.push_back(fmt::format("{} has no device work: no critical path", who));
    }
    return;
  }
  for (const int64_t number : common) {
    if (options.step && number != *options.step) continue;
    std::vector<int32_t> index;
    for (const auto& numbers : index_of) index.push_back(numbers.at(number));
    if (const std::optional<Window> w = StepWindow(ranks, index)) {
      result->steps.push_back(Walk(ranks, *w, number, input, tally));
    }
  }
}

// The composition's categories, in PathComposition's field order.
enum class Category : uint8_t { kCompute, kCommTransfer, kCommWait, kHost, kIdle };

Category CategoryOf(PathKind kind) {
  switch (kind) {
    case PathKind::kKernel:
    case PathKind::kMemcpy:
    case PathKind::kMemset:
      return Category::kCompute;
    case PathKind::kCollectiveTransfer:
      return Category::kCommTransfer;
    case PathKind::kCollectiveWait:
      return Category::kCommWait;
    case PathKind::kLaunch:
    case PathKind::kSync:
    case PathKind::kCpuOp:
    case PathKind::kCpu:
    case PathKind::kStepNotStarted:
      return Category::kHost;
    case PathKind::kIdle:
      return Category::kIdle;
  }
  return Category::kIdle;
}

}  // namespace

const char* PathKindName(PathKind kind) {
  switch (kind) {
    case PathKind::kKernel:
      return "kernel";
    case PathKind::kMemcpy:
      return "memcpy";
    case PathKind::kMemset:
      return "memset";
    case PathKind::kCollectiveTransfer:
      return "collective_transfer";
    case PathKind::kCollectiveWait:
      return "collective_wait";
    case PathKind::kLaunch:
      return "launch";
    case PathKind::kSync:
      return "sync";
    case PathKind::kCpuOp:
      return "cpu_op";
    case PathKind::kCpu:
      return "cpu";
    case PathKind::kStepNotStarted:
      return "step_not_started";
    case PathKind::kIdle:
      return "idle";
  }
  return "idle";
}

const char* PathCategoryName(PathKind kind) {
  static constexpr const char* kNames[] = {"compute", "comm_transfer", "comm_wait", "host", "idle"};
  return kNames[static_cast<int>(CategoryOf(kind))];
}

void PathComposition::Add(PathKind kind, int64_t ns) {
  int64_t* const fields[] = {&compute_ns, &comm_transfer_ns, &comm_wait_ns, &host_ns, &idle_ns};
  *fields[static_cast<int>(CategoryOf(kind))] += ns;
}

CriticalPathResult AnalyzeCriticalPath(const std::vector<const LinkedTrace*>& inputs,
                                       const JobLayout& job, const CriticalPathOptions& options) {
  CriticalPathResult result;
  result.job = job;
  WalkTally tally;
  if (job.is_job) {
    std::optional<CollectivesResult> computed;
    if (options.collectives == nullptr) {
      CollectiveOptions collective_options;
      collective_options.align_clocks = options.align_clocks;
      computed = AnalyzeCollectives(inputs, job, collective_options);
    }
    const CollectivesResult& collectives =
        options.collectives != nullptr ? *options.collectives : *computed;
    result.clocks = collectives.clocks;
    std::vector<RankWork> works;
    works.reserve(job.ranks.size());
    for (const JobRank& jr : job.ranks) works.emplace_back(*inputs[jr.input], jr);
    std::vector<WalkRank> ranks;
    for (size_t r = 0; r < job.ranks.size(); ++r) {
      WalkRank& rank = ranks.emplace_back();
      rank.work = &works[r];
      rank.input = job.ranks[r].input;
      rank.label = job.ranks[r].rank;
      rank.offset_ns = collectives.clocks[r].offset_ns;
      rank.uncertainty_ns = collectives.clocks[r].uncertainty_ns.value_or(0);
    }
    // Arrivals are known only when every rank of the job is given.
    if (job.ranks.size() >= 2) AttachCollectives(collectives.collectives, &ranks);
    WalkGroup(ranks, std::nullopt, options, &result, &tally);
  } else {
    for (size_t i = 0; i < inputs.size(); ++i) {
      JobRank alone;
      alone.input = static_cast<int>(i);
      RankWork work(*inputs[i], alone);
      std::vector<WalkRank> ranks(1);
      ranks[0].work = &work;
      ranks[0].input = alone.input;
      WalkGroup(ranks, alone.input, options, &result, &tally);
    }
  }
  if (tally.unmatched_collectives > 0) {
    result.warnings.push_back(fmt::format(
        "{} collective kernels on the path were not matched on every rank of the job (or its "
        "other ranks are not given): each counts whole as transfer, its wait unknown",
        tally.unmatched_collectives));
  }
  if (tally.cut_walks > 0) {
    result.warnings.push_back(fmt::format(
        "{} walks did not reach their step's start within their move limit (times that go "
        "backwards?): the rest of each is idle",
        tally.cut_walks));
  }
  return result;
}

}  // namespace tensormorph
