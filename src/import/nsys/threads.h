// Names the host tracks: ThreadNames gives each thread's name (globalTid → StringIds); PROCESSES
// gives process names, used for a process's main thread (tid == pid) when ThreadNames has none.
#pragma once

#include "import/nsys/context.h"

namespace tensormorph::nsys {

// Call after every table that creates tracks has been read.
Status NameTracks(ImportContext& context);

}  // namespace tensormorph::nsys
