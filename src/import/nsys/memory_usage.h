// CUDA_GPU_MEMORY_USAGE_EVENTS (`nsys profile --cuda-memory-usage=true`): one row per allocation
// or free (memoryOperationType, ENUM_CUDA_DEV_MEM_EVENT_OPER: 0 allocation, 1 deallocation; bytes
// positive on both), written as the model's `[memory]` records
// (import/common/allocation_records.h): device memory on its device, pinned and pageable host
// memory on the host. The export has no allocated totals, so allocated memory is the running sum
// from the first record; these are CUDA's allocations, so under PyTorch's caching allocator they
// are its segments (what Kineto calls reserved), not its tensors. Allocations from memory pools
// (cudaMallocAsync) carry their pool's size (localMemoryPoolSize): the sum over the device's pools
// is written as the reserved total. CUDA_GPU_MEMORY_POOL_EVENTS (pool creation, trims) is not
// read. A row's thread is the runtime call with its correlation id (cudaMalloc, cudaFree) when
// the host rows were read; else the process's. Runs after ResolveDevices: "Device Id" is the
// device's CUDA ordinal.
#pragma once

#include "import/nsys/context.h"

namespace tensormorph::nsys {

inline constexpr std::string_view kMemoryUsageTable = "CUDA_GPU_MEMORY_USAGE_EVENTS";

Status ReadMemoryUsage(ImportContext& context);

}  // namespace tensormorph::nsys
