// Checks every import gets, whatever its format (FinishImport runs them last): what a
// hostile or damaged file can do to device rows that no single importer sees.
#pragma once

#include "tensormorph/model/trace.h"

namespace tensormorph {

// On the sorted device tables (trace_order.h):
//  - drops exact duplicates: rows equal in every field, correlation id included (a nonzero one),
//    which is one launch recorded twice (a file concatenated with itself, an event repeated by a
//    buggy writer); counting them would inflate every total. Not done when kernel counters
//    refer to kernels by index (Nsight Compute rows are never duplicated that way).
//  - warns when kernels on one known stream overlap: kernels of one stream run in order, so the
//    clock or the stream ids are suspect, and per-stream busy time is a union, not a sum; except
//    on CUDA devices of compute capability 9.0 and later, where programmatic dependent launch
//    lets a kernel start while its predecessor finishes (said in a warning of its own).
// Each finding is one warning on the trace with a count and an example.
void CheckDeviceRows(Trace* trace);

// Warns when names hold bytes that are not UTF-8 (importers that do not repair text keep them
// as they are; every output shows them as U+FFFD).
void CheckStrings(Trace* trace);

}  // namespace tensormorph
