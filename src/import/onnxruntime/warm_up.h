// Warm-up runs of an ONNX Runtime profile. The first model run of a session pays for memory
// arena growth, kernel selection and (GPU providers) compilation, often 10-1000x a later run's
// node times, so by default it is left out when there are several runs and summarised instead.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tensormorph::onnxruntime {

struct RunWindow {
  int64_t start_ns = 0, end_ns = 0;  // the model_run event
};

// How many of the runs (in time order) to leave out: `skip_runs` when >= 0 (at most all of
// them), else 1 when there are at least 2 runs, else 0.
size_t RunsToSkip(size_t run_count, int skip_runs);

// Index of the skipped run whose window holds `ns`, or -1. `skipped` is sorted by start.
int SkippedRunAt(const std::vector<RunWindow>& skipped, int64_t ns);

}  // namespace tensormorph::onnxruntime
