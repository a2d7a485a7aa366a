// CUPTI_ACTIVITY_KIND_KERNEL: one Kernel row per launch, named by its demangled name (the name
// `nsys stats --report cuda_gpu_kern_sum` prints), with its device, stream, correlation id, grid,
// block, registers and shared memory.
#pragma once

#include "import/nsys/context.h"

namespace tensormorph::nsys {

Status ReadKernels(ImportContext& context);

}  // namespace tensormorph::nsys
