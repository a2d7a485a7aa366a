#include "link/slice_device_time.h"

namespace tensormorph {

SliceDeviceTime ComputeSliceDeviceTime(const Trace& trace, const TraceLinks& links,
                                       const OpStacks& stacks, std::optional<Backend> backend) {
  SliceDeviceTime out;
  out.inclusive_ns.assign(trace.slices.size(), 0);
  out.device.assign(trace.slices.size(), kNoDevice);
  for (size_t k = 0; k < trace.kernels.size(); ++k) {
    const Kernel& kernel = trace.kernels[k];
    const uint32_t op = links.kernels[k].op;
    if (op == kNoRow) continue;
    if (backend) {
      const Backend kernel_backend = kernel.device < trace.devices.size()
                                         ? trace.devices[kernel.device].backend
                                         : Backend::kOther;
      if (kernel_backend != *backend) continue;
    }
    for (uint32_t s = op; s != kNoRow; s = stacks.TargetParentOf(s)) {
      int64_t& ns = out.inclusive_ns[s];
      if (__builtin_add_overflow(ns, kernel.duration_ns, &ns)) ns = INT64_MAX;
      if (out.device[s] == kNoDevice) out.device[s] = kernel.device;
    }
  }
  return out;
}

}  // namespace tensormorph
