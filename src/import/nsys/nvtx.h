// NVTX_EVENTS: push/pop and start/end ranges become user-annotation slices on the track of the
// thread that opened them; marks are counted as instants, domain/category/thread naming events as
// metadata. A range's name is its `text`, or the StringIds entry `textId` names (registered
// strings).
#pragma once

#include "import/nsys/context.h"

namespace tensormorph::nsys {

Status ReadNvtx(ImportContext& context);

}  // namespace tensormorph::nsys
