#include "model/trace_order.h"

#include <algorithm>
#include <tuple>

namespace tensormorph {

void SortTraceTables(Trace* trace) {
  auto by_device = [](const auto& a, const auto& b) {
    return std::tie(a.device, a.stream, a.start_ns, a.duration_ns, a.name) <
           std::tie(b.device, b.stream, b.start_ns, b.duration_ns, b.name);
  };
  auto by_track = [](const auto& a, const auto& b) {
    // Longer first at equal start, so that parents precede their children.
    return std::make_tuple(a.track, a.start_ns, -a.duration_ns, a.name) <
           std::make_tuple(b.track, b.start_ns, -b.duration_ns, b.name);
  };
  std::sort(trace->kernels.begin(), trace->kernels.end(), by_device);
  std::sort(trace->transfers.begin(), trace->transfers.end(), by_device);
  std::sort(trace->api_calls.begin(), trace->api_calls.end(), by_track);
  std::sort(trace->slices.begin(), trace->slices.end(), by_track);
  std::sort(trace->instants.begin(), trace->instants.end(), [](const Instant& a, const Instant& b) {
    return std::tie(a.track, a.ts_ns, a.name) < std::tie(b.track, b.ts_ns, b.name);
  });
}

void ShiftTraceTimes(int64_t offset_ns, Trace* trace) {
  for (Kernel& k : trace->kernels) k.start_ns += offset_ns;
  for (Transfer& t : trace->transfers) t.start_ns += offset_ns;
  for (ApiCall& c : trace->api_calls) c.start_ns += offset_ns;
  for (Slice& s : trace->slices) s.start_ns += offset_ns;
  for (Flow& f : trace->flows) f.ts_ns += offset_ns;
  for (Instant& i : trace->instants) i.ts_ns += offset_ns;
}

void ComputeTraceSpan(Trace* trace) {
  int64_t lo = INT64_MAX, hi = INT64_MIN;
  auto take = [&](const auto& rows) {
    for (const auto& r : rows) {
      lo = std::min(lo, r.start_ns);
      hi = std::max(hi, r.start_ns + r.duration_ns);
    }
  };
  take(trace->kernels);
  take(trace->transfers);
  take(trace->api_calls);
  take(trace->slices);
  if (lo == INT64_MAX) lo = hi = 0;
  trace->span_start_ns = lo;
  trace->span_end_ns = hi;
}

}  // namespace tensormorph
