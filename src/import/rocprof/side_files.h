// Files that rocprof tools write beside their traces but that hold no per-dispatch rows: the
// statistics and summary of rocprofv3, its allocation traces, and rocprof-compute's system,
// roofline and dispatch tables. Recognised by their first line so that `tensormorph FILE` says
// what the file is and which file (or folder) to give instead, or — for rocprof-compute tables —
// reads the workload folder they belong to.
#pragma once

#include <string>
#include <string_view>

#include "tensormorph/import/importer.h"

namespace tensormorph::rocprof {

enum class SideFile {
  kNone,
  kStatistics,        // *_stats.csv: "Name","Calls","TotalDurationNs",...
  kSummary,           // -S / --summary text: "ROCPROFV3 ... SUMMARY:"
  kMemoryAllocation,  // memory_allocation_trace.csv:
                      // "Kind","Operation","Agent_Id","Allocation_Size"
  kScratchMemory,     // scratch_memory_trace.csv: "Kind","Operation","Agent_Id","Queue_Id"
  kComputeTable,      // rocprof-compute sysinfo.csv, roofline.csv, pmc_dispatch_info.csv
  kRocminfo,          // rocprof v1's results.sysinfo.txt: rocminfo's text (the run's agents)
};

// What `head` (the start of a file) is, by its first line.
SideFile ClassifySideFile(std::string_view head);

// A rocprof-compute table is read as its workload folder when it lies in one; everything else is
// an error saying what the file holds and what to give instead.
StatusOr<Trace> ImportSideFile(SideFile kind, const Input& input);

}  // namespace tensormorph::rocprof
