// rocprofv3 hip_api_trace.csv (the docs' hip_trace.csv; hsa/marker api traces share the header)
// into Trace::api_calls, one track per (Process_Id, Thread_Id). Correlation_Id is the id that
// kernel_trace.csv and memory_copy_trace.csv rows carry: the linking stage joins on it.
#pragma once

#include "import/rocprof/common/csv_file.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof {

Status ReadApiCalls(CsvFile* file, Trace* trace, Warnings* warnings);

}  // namespace tensormorph::rocprof
