#include "model/timestamp_quantum.h"

#include <fmt/format.h>

#include <algorithm>
#include <vector>

namespace tensormorph {

int64_t DetectQuantum(std::span<const int64_t> values) {
  for (int64_t quantum : {kDawnTimestampQuantumNs, kChromeTimestampQuantumNs}) {
    size_t nonzero = 0;
    bool all_multiples = true;
    for (int64_t v : values) {
      if (v == 0) continue;
      ++nonzero;
      if (v % quantum != 0) {
        all_multiples = false;
        break;
      }
    }
    if (all_multiples && nonzero >= kMinQuantumSamples) return quantum;
  }
  return 0;
}

int64_t DetectTimestampQuantum(const Trace& trace) {
  // Starts alone are no evidence: a synthetic end-to-end timeline makes them sums of durations.
  // The durations must qualify on their own; then every start must lie on the same grid.
  std::vector<int64_t> durations;
  durations.reserve(trace.kernels.size());
  for (const Kernel& k : trace.kernels) durations.push_back(k.duration_ns);
  const int64_t quantum = DetectQuantum(durations);
  if (quantum == 0) return 0;
  int64_t origin = trace.kernels.front().start_ns;
  for (const Kernel& k : trace.kernels) origin = std::min(origin, k.start_ns);
  for (const Kernel& k : trace.kernels) {
    if ((k.start_ns - origin) % quantum != 0) return 0;
  }
  return quantum;
}

std::string QuantizedTimestampsWarning(const Trace& trace) {
  const int64_t q = trace.timestamp_resolution_ns;
  const char* source = q == kDawnTimestampQuantumNs ? " (Dawn's timestamp_quantization toggle)"
                       : q == kChromeTimestampQuantumNs
                           ? " (Chrome without WebGPU developer features)"
                           : "";
  return fmt::format(
      "every kernel time is a multiple of {} ns{}: timestamps are quantized, so kernel times are "
      "only good to {} ns and shorter differences are not real",
      q, source, q);
}

}  // namespace tensormorph
