#include "import/common/device_arch.h"

#include <fmt/format.h>

namespace tensormorph {

void SetCudaArch(Device* device) {
  if (device->backend != Backend::kCuda || device->compute_major <= 0 || !device->arch.empty())
    return;
  device->arch = fmt::format("{}.{}", device->compute_major, device->compute_minor);
}

}  // namespace tensormorph
