// CUPTI_ACTIVITY_KIND_MEMCPY and CUPTI_ACTIVITY_KIND_MEMSET: one Transfer row per copy or set, with
// its bytes, device, stream and correlation id. Copies are named as `nsys stats` names them,
// "[CUDA memcpy Host-to-Device]" from the export's ENUM_CUDA_MEMCPY_OPER labels; sets are
// "[CUDA memset]".
#pragma once

#include "import/nsys/context.h"

namespace tensormorph::nsys {

Status ReadTransfers(ImportContext& context);

}  // namespace tensormorph::nsys
