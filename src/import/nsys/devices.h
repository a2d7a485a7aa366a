// Builds Trace::devices from the deviceIds that kernels, copies and sets carry, with the
// properties of TARGET_INFO_GPU (name, compute capability, SMs, memory, warp and SM limits; the
// memory bandwidth, clock, L2 size and chip name, which the model has no fields for yet, go to
// Trace::metadata as "gpu.<deviceId>.<column>"). Exports often lack TARGET_INFO_GPU (nsys 2026.2
// wrote none in our samples): the devices are then known only by id, with a warning. Older
// exports (no META_DATA_EXPORT; TARGET_INFO_GPU keyed by deviceId with names only) take the
// properties from TARGET_INFO_CUDA_GPU.
#pragma once

#include "import/nsys/context.h"

namespace tensormorph::nsys {

// Call after every activity table has been read: replaces the device slots in kernel and
// transfer rows with indices into Trace::devices, which is ordered by deviceId.
Status ResolveDevices(ImportContext& context);

}  // namespace tensormorph::nsys
