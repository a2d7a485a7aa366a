// The rocpd table readers, each appending one kind of row to the trace. Rows are matched to
// their event (rocpd_event: category, stack_id = correlation id), names (rocpd_string) and kernel
// symbols by (id, guid) with LEFT JOINs, so a row whose event or string is missing is still read
// (without a correlation id or with a placeholder name), never dropped silently.
#pragma once

#include "import/rocpd/processes.h"
#include "import/rocpd/row_checks.h"
#include "import/rocpd/schema.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::rocpd {

struct Context {
  const Database& db;
  const RocpdSchema& schema;
  Processes& processes;
  RowChecks& checks;
  Trace& trace;
};

// rocpd_kernel_dispatch with its kernel symbols, and the PMC counters of each dispatch
// (rocpd_pmc_event by event id, summed over dimension instances as rocpd's counters_collection
// view does; SPM samples, rows with a sample_id, are not per-dispatch and are left out) into
// Trace::kernels and Trace::kernel_counters, in the model's order.
//
// Launch configuration, as the rocprofv3 JSON importer reads the same dispatch record:
// block = workgroup_size_x/y/z; grid = workgroups per dimension, ceil(grid_size / workgroup_size)
// (rocpd stores HSA grid sizes in work-items); shared_memory_bytes = the dispatch's
// group_segment_size (static + dynamic LDS); registers = the symbol's arch_vgpr_count,
// accum_vgpr_count, sgpr_count; name = the symbol's display_name (rocprofv3's formatted name, the
// CSV's Kernel_Name), else kernel_name; stream = stream_id, else queue_id.
Status ReadDispatches(Context& c);

// rocpd_region rows by their event category: HIP_* / RCCL_API / ROCDECODE_API / ROCJPEG_API as
// runtime calls, HSA_* as driver calls, MARKER_* as user annotations named by the roctx message
// (the event's extdata {"message": ...}) or else the function; KFD and other categories are
// counted as other. Zero-length API records (rocpd_sample) are not read.
Status ReadRegions(Context& c);

// rocpd_memory_copy as memcpys: name from the copy direction (Memcpy HtoD, DtoH, DtoD, HtoH),
// device = the GPU side (the destination of a host-to-device copy, else the source).
Status ReadMemoryCopies(Context& c);

// rocpd_memory_allocate (REAL memory) as `[memory]` records: allocations with their agent's
// device (a CPU agent's on the host), frees paired with them by address (allocations.cc).
Status ReadMemoryAllocations(Context& c);

}  // namespace tensormorph::rocpd
