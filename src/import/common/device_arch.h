// Device::arch from what the importers read.
#pragma once

#include <string>

#include "tensormorph/model/trace.h"

namespace tensormorph {

// A CUDA device's arch, its compute capability "major.minor" ("9.0"), when compute_major is set
// and arch is not yet. Other backends' compute_major/minor name no arch (a ROCm device's 9.4 is
// gfx940 or gfx942): they are left alone.
void SetCudaArch(Device* device);
inline void SetCudaArchs(Trace* trace) {
  for (Device& d : trace->devices) SetCudaArch(&d);
}

}  // namespace tensormorph
