#include "fuzz_invariants.h"

#include <cstdio>
#include <cstdlib>

namespace tensormorph::fuzz {
namespace {

[[noreturn]] void Fail(const char* what, size_t row) {
  std::fprintf(stderr, "invariant broken: %s (row %zu)\n", what, row);
  std::abort();
}

template <typename Row>
void CheckTimes(const std::vector<Row>& rows, const char* table, int64_t span_start,
                int64_t span_end) {
  for (size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].duration_ns < 0) Fail(table, i);
    if (rows[i].start_ns < span_start || rows[i].start_ns > span_end - rows[i].duration_ns) {
      Fail(table, i);
    }
  }
}

}  // namespace

void CheckInvariants(const Trace& trace) {
  if (trace.span_end_ns < trace.span_start_ns) Fail("span ends before it starts", 0);
  CheckTimes(trace.kernels, "kernel time outside the span", trace.span_start_ns, trace.span_end_ns);
  CheckTimes(trace.transfers, "transfer time outside the span", trace.span_start_ns,
             trace.span_end_ns);
  for (size_t i = 0; i < trace.kernels.size(); ++i) {
    const Kernel& k = trace.kernels[i];
    // kNoDevice is the model's "names no device" (a rocprof record whose agent is unknown), as
    // for transfers below; any other index must name a device row.
    if (k.device >= trace.devices.size() && k.device != kNoDevice) {
      Fail("kernel device out of range", i);
    }
    if (k.name >= trace.strings.size()) Fail("kernel name id out of range", i);
    if (i > 0) {
      const Kernel& p = trace.kernels[i - 1];
      if (p.device > k.device || (p.device == k.device && p.stream > k.stream) ||
          (p.device == k.device && p.stream == k.stream && p.start_ns > k.start_ns)) {
        Fail("kernels not sorted by (device, stream, start)", i);
      }
    }
  }
  for (size_t i = 0; i < trace.transfers.size(); ++i) {
    if (trace.transfers[i].device >= trace.devices.size() &&
        trace.transfers[i].device != kNoDevice) {
      Fail("transfer device out of range", i);
    }
  }
  for (size_t i = 0; i < trace.api_calls.size(); ++i) {
    if (trace.api_calls[i].track >= trace.tracks.size()) Fail("api call track out of range", i);
    if (trace.api_calls[i].duration_ns < 0) Fail("api call duration negative", i);
  }
  for (size_t i = 0; i < trace.slices.size(); ++i) {
    if (trace.slices[i].track >= trace.tracks.size()) Fail("slice track out of range", i);
    if (trace.slices[i].duration_ns < 0) Fail("slice duration negative", i);
  }
  for (size_t i = 0; i < trace.kernel_counters.size(); ++i) {
    if (trace.kernel_counters[i].kernel >= trace.kernels.size()) {
      Fail("kernel counters of a kernel out of range", i);
    }
  }
}

}  // namespace tensormorph::fuzz
