#include "import/onnxruntime/warm_up.h"

#include <algorithm>

namespace tensormorph::onnxruntime {

size_t RunsToSkip(size_t run_count, int skip_runs) {
  if (skip_runs >= 0) return std::min(run_count, static_cast<size_t>(skip_runs));
  return run_count >= 2 ? 1 : 0;
}

int SkippedRunAt(const std::vector<RunWindow>& skipped, int64_t ns) {
  // Runs of one session do not overlap, so the only candidate is the last one starting at or
  // before `ns`.
  auto after = std::upper_bound(skipped.begin(), skipped.end(), ns,
                                [](int64_t t, const RunWindow& run) { return t < run.start_ns; });
  if (after == skipped.begin()) return -1;
  const RunWindow& run = *(after - 1);
  return ns <= run.end_ns ? static_cast<int>(after - 1 - skipped.begin()) : -1;
}

}  // namespace tensormorph::onnxruntime
