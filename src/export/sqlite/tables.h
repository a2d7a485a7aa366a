// Row writers of the SQLite export, one per table of schema.cc. Ids are the model's row indexes:
// kernels.id is the index into Trace::kernels, ops.id and annotations.id the index into
// Trace::slices (the two tables split that one index space), threads.id the track index.
#pragma once

#include <cstdint>
#include <vector>

#include "export/sqlite/database.h"
#include "tensormorph/link/work_links.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::sqlite_export {

// streams.id of every kernel and transfer, parallel to Trace::kernels / Trace::transfers.
struct StreamIds {
  std::vector<int64_t> kernels, transfers;
};

void WriteMetadata(Database& db, const Trace& trace);
void WriteDevices(Database& db, const Trace& trace);
StreamIds WriteStreams(Database& db, const Trace& trace);
void WriteThreads(Database& db, const Trace& trace);
void WriteApiCalls(Database& db, const Trace& trace);
void WriteSlices(Database& db, const Trace& trace, const TraceLinks& links);
void WriteFlows(Database& db, const Trace& trace);
void WriteWarnings(Database& db, const Trace& trace);
void WriteKernels(Database& db, const Trace& trace, const TraceLinks& links,
                  const StreamIds& streams);
void WriteMemcpy(Database& db, const Trace& trace, const TraceLinks& links,
                 const StreamIds& streams);
void WriteKernelCounters(Database& db, const Trace& trace);

}  // namespace tensormorph::sqlite_export
