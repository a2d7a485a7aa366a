// rocprofv3 memory_copy_trace.csv into Trace::transfers. The copy belongs to its GPU side: the
// destination of a host-to-device copy, the source otherwise. The CSV has no byte count (bytes
// stay 0 unless a Size/Bytes column appears).
#pragma once

#include "import/rocprof/common/agents.h"
#include "import/rocprof/common/csv_file.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocprof {

Status ReadMemoryCopies(CsvFile* file, DeviceResolver* devices, Trace* trace, Warnings* warnings);

}  // namespace tensormorph::rocprof
