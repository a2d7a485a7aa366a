// The analyses as the Python package calls them: each runs the library's analysis over the
// traces' LinkedTraces and returns the text its command's `--format json` writes, from the same
// serializer (src/report), so a DataFrame and the command line can never disagree on a number or
// a column name. tensormorph/_results.py turns the documents into DataFrames.
//
// The GIL is released while an analysis runs; the traces are only read.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loaded_trace.h"
#include "report/html/report.h"
#include "tensormorph/analysis/compare/compare.h"
#include "tensormorph/analysis/diff/diff.h"
#include "tensormorph/analysis/findings/findings.h"
#include "tensormorph/analysis/job/critical_path.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/memory/memory.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/analysis/ops/ops.h"
#include "tensormorph/analysis/predict/predict.h"
#include "tensormorph/analysis/profile/profile.h"
#include "tensormorph/analysis/roofline.h"
#include "tensormorph/analysis/timeline/timeline.h"
#include "tensormorph/analysis/whatif/whatif.h"

namespace tensormorph::python {

using Traces = std::vector<const LoadedTrace*>;

// What a prediction reads (predict's devices=, ops' and report's predict=): the built-in device
// table with the spec files applied, the user's calibration, and the target keys resolved into
// `query`, which points into the other two (so a PredictTargets is never copied or moved).
struct PredictTargets {
  std::vector<DeviceSpec> devices;
  std::optional<Calibration> calibration;
  PredictQuery query;
};
// Throws std::invalid_argument with the command line's message for an unknown key or a spec or
// calibration file that cannot be read.
std::unique_ptr<PredictTargets> ResolvePredictTargets(const std::vector<std::string>& keys,
                                                      const std::string& calibration_path,
                                                      const std::vector<std::string>& spec_files);

std::string KernelsJson(const Traces& traces, const KernelQuery& query);
// `predict` (may be null) adds the predicted columns, as `ops --predict`.
std::string OpsJson(const Traces& traces, OpQuery query, const PredictTargets* predict);
std::string CompareJson(const Traces& traces, CompareQuery query,
                        const std::vector<DeviceSpec>& devices);
// `measured` (may be null) evaluates the prediction against a trace of the first target, as
// `predict --measured`; its errors throw std::invalid_argument.
std::string PredictJson(const LoadedTrace& trace, const LoadedTrace* measured,
                        const PredictTargets& targets, size_t top);
std::string TimelineJson(const Traces& traces, const TimelineOptions& options);
std::string RooflineJson(const Traces& traces, const RooflineQuery& query);
std::string OccupancyJson(const Traces& traces, const KernelOccupancyQuery& query);
// simulate: each fix replayed on the trace (whatif.h: SimulateFindings), as the command does.
std::string FindingsJson(const Traces& traces, const FindingsQuery& query, bool simulate);
std::string MemoryJson(const Traces& traces, const MemoryQuery& query);

// The job analyses also warn (clocks that cannot be aligned within the transfers' time, ...), as
// the command line does on stderr; the package passes these on through `warnings`.
struct JsonWithWarnings {
  std::string json;
  std::vector<std::string> warnings;
};
JsonWithWarnings CollectivesJson(const Traces& traces, bool as_job, bool align_clocks);
JsonWithWarnings CriticalPathJson(const Traces& traces, bool as_job,
                                  const CriticalPathOptions& options);
JsonWithWarnings WhatIfJson(const Traces& traces, const WhatIfQuery& query);

// A profile `diff` compares: a saved baseline, or traces summarised into one.
struct Profile {
  Baseline baseline;
  std::string path;  // the file it was read from, or the (first) trace's
  bool is_baseline = false;
};
Profile ProfileOfTraces(const Traces& traces);
std::string DiffJson(const Profile& base, const Profile& next, DiffOptions options);

// The HTML report of the traces, as `report` writes it; `base` adds the diff view.
std::string ReportHtml(const Traces& traces, const Profile* base, double threshold_percent,
                       const ReportAnalysesQuery& query, ReportPageOptions options);

}  // namespace tensormorph::python
