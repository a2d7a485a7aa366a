// JAX / XLA trace viewer JSON (<host>.trace.json.gz, perfetto_trace.json.gz): events carry no
// "cat", so they are told apart by the names of their process and thread
// (shared/reference/chrome-kineto-jax.md §3.2-3.3):
//   process "/device:GPU:N", thread "Stream #S(...)"  -> kernels (copy/memcpy/memset names ->
//                                                        transfers) on GPU N, stream S;
//   process "/host:CPU" (pid 701, 501 in older TF)    -> events with correlation_id are launch
//                                                        calls; "$..." python frames; other ranges
//                                                        user annotations;
//   anything else                                     -> counted as other.
// Kernels' hlo_op become ops around their launch calls, as for xplane.pb (import/common/hlo_ops.h).
#pragma once

#include <cstdint>
#include <map>

#include "import/chrome/chunk_merger.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::chrome {

struct JaxEvents {
  uint64_t gpu_events = 0;   // kernels and transfers read from /device:GPU:N processes
  uint64_t host_events = 0;  // events of /host: processes
  std::map<int64_t, int32_t> ordinal_of_device_key;  // merged device key -> N of /device:GPU:N
  bool any() const { return gpu_events > 0 || host_events > 0; }
};

// Turns merged.untyped into rows (device keys into merged.device_keys, as the Kineto path does)
// and counts every untyped event once. Call before BuildChromeTrace resolves devices.
JaxEvents ClassifyUntypedEvents(MergedChunks& merged, Trace* trace);

// After devices are resolved: JAX devices are numbered by their plane name, whatever the backend.
void NumberJaxDevices(const JaxEvents& jax, Trace* trace);

}  // namespace tensormorph::chrome
