// CUPTI synchronization records (CUPTI_ACTIVITY_KIND_SYNCHRONIZATION): the time a host thread
// spent waiting in cudaStreamSynchronize, cudaEventSynchronize, cudaStreamWaitEvent or
// cudaDeviceSynchronize. They become ApiCall rows of kind kSync, as Kineto's cuda_sync events do.
//
// CUPTI writes them per process and stream, without a thread; a record shares its correlationId
// with the runtime call that waited, so it goes on that call's thread (the process's main track,
// tid 0, when no runtime call of the process has that id). The row keeps the model correlation id
// of that call; the linker never joins sync rows to device work by it.
#pragma once

#include "import/nsys/context.h"

namespace tensormorph::nsys {

// Call after the runtime calls are read (ReadApiCalls). Counts every record in
// counts.sync_events, kept or not.
Status ReadSyncEvents(ImportContext& context);

}  // namespace tensormorph::nsys
