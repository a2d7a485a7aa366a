#include "import/webgpu/dispatch.h"

#include <fmt/format.h>

#include "model/timestamp_quantum.h"
#include "model/trace_order.h"

namespace tensormorph::webgpu {
namespace {
constexpr int64_t kMaxTimeNs = int64_t{1} << 62;
}  // namespace

void BuildDispatchTrace(DispatchList list, Trace* trace) {
  Device device;
  device.backend = Backend::kWebGpu;
  device.name = "WebGPU";
  trace->devices.push_back(device);
  trace->backends = {Backend::kCpu, Backend::kWebGpu};
  trace->tracks.push_back(Track{0, 0, {}, {}, list.host_track_name});
  trace->format_version = list.format_version;
  trace->metadata = std::move(list.metadata);

  int64_t cursor = 0;  // end of the previous dispatch on the synthetic timeline
  uint64_t untimed = 0, out_of_range = 0;
  for (size_t i = 0; i < list.dispatches.size(); ++i) {
    const Dispatch& d = list.dispatches[i];
    const int64_t duration = d.duration_ns.value_or(0);
    const int64_t start = list.synthetic_starts ? cursor : d.start_ns.value_or(cursor);
    // Times stay within ±2^62 ns, as every importer keeps them, so that sums cannot overflow.
    if (duration < 0 || duration > kMaxTimeNs || start < -kMaxTimeNs ||
        start > kMaxTimeNs - duration) {
      ++out_of_range;
      continue;
    }
    if (list.synthetic_starts) cursor = start + duration;
    const int64_t external_id = static_cast<int64_t>(i) + 1;

    Slice op;
    op.start_ns = start;
    op.duration_ns = duration;
    op.external_id = external_id;
    op.name = trace->strings.Intern(d.op);
    if (!d.inputs.empty()) op.inputs = trace->strings.Intern(d.inputs);
    op.track = 0;
    op.kind = SliceKind::kOp;
    trace->slices.push_back(op);
    ++trace->counts.ops;
    ++trace->counts.kernels;  // untimed dispatches count too: they ran, unmeasured
    if (!d.duration_ns) {
      ++untimed;
      continue;
    }
    Kernel k;
    k.start_ns = start;
    k.duration_ns = duration;
    k.link.external_id = external_id;
    k.name = trace->strings.Intern(d.kernel);
    k.device = 0;
    k.stream = 0;
    trace->kernels.push_back(k);
  }
  trace->counts.other += list.other;
  trace->counts.skipped += list.skipped + out_of_range;
  trace->warnings = std::move(list.warnings);
  if (list.synthetic_starts && !list.dispatches.empty()) {
    trace->metadata["timeline"] = "\"synthetic\"";
    trace->format_version += "; durations only, timeline synthetic";
    trace->warnings.push_back(fmt::format(
        "the input gives dispatch durations only: the {} dispatches are laid end to end from 0 "
        "in input order; kernel and op totals are exact, start times and gaps are not",
        list.dispatches.size()));
  }
  if (out_of_range > 0) {
    trace->warnings.push_back(
        fmt::format("{} dispatches with a time beyond 2^62 ns (146 years) skipped", out_of_range));
  }
  if (untimed > 0) trace->metadata["untimed_kernels"] = std::to_string(untimed);

  SortTraceTables(trace);
  ComputeTraceSpan(trace);
  trace->timestamp_resolution_ns = DetectTimestampQuantum(*trace);
  if (trace->timestamp_resolution_ns > 0) {
    trace->warnings.push_back(QuantizedTimestampsWarning(*trace));
  }
}

}  // namespace tensormorph::webgpu
