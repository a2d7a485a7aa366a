// A rocprof-compute (Omniperf) workload folder, `workloads/<name>/<SoC>/`, into a Trace: kernels
// from pmc_perf.csv (or its per-pass pmc_perf_N.csv files) joined by Dispatch_ID with the SQ_*.csv
// passes and timestamps.csv; the device from sysinfo.csv; its measured peaks from roofline.csv;
// FLOPs and bytes per dispatch by rocprof-compute's formulas (work.h).
//
// Times: pmc_perf's own Start/End when they are exact integers, else timestamps.csv's. When both
// went through a spreadsheet ("8.1097E+14") the kernels keep the rounded start, a duration of 0
// and Trace::timestamp_resolution_ns says how coarse that is, with a warning: their counters are
// real, their times are not, and no time is invented.
#pragma once

#include <string>

#include "tensormorph/import/importer.h"

namespace tensormorph::rocprof::compute {

// How sure we are that `folder` is a workload: 100 with a pmc_perf csv in it or in its only
// subfolder, 60 with only other rocprof-compute files (Import then says what is missing), else 0.
int SniffWorkloadFolder(const std::string& folder);

// Whether a CSV file given on its own is a rocprof-compute counter file (pmc_perf*.csv or a
// Dispatch_ID header with hardware counter columns): it is read with its folder.
bool IsWorkloadCounterFile(const std::string& path, const std::vector<std::string>& header);

// `path` is the workload folder, its parent with one SoC subfolder, or a pmc_perf csv in it:
// `input` itself, or its folder. Every file is read through `input` (its limits).
StatusOr<Trace> ImportWorkload(const Input& input, const std::string& path);

}  // namespace tensormorph::rocprof::compute
