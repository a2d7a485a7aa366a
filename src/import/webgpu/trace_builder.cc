#include "import/webgpu/trace_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <utility>

#include "import/common/finish_import.h"

namespace tensormorph::webgpu {
namespace {
constexpr int64_t kMaxTimeNs = int64_t{1} << 62;
}  // namespace

void BuildWebGpuTrace(DispatchList list, Trace* trace) {
  Device device;
  device.backend = Backend::kWebGpu;
  device.name = "WebGPU";
  trace->devices.push_back(device);
  trace->tracks.push_back(Track{0, 0, {}, {}, list.host_track_name});
  trace->format_version = list.format_version;
  trace->metadata = std::move(list.metadata);

  int64_t cursor = 0;  // end of the previous dispatch on the synthetic timeline
  uint64_t untimed = 0, out_of_range = 0;
  // Where each dispatch was placed (start, end), for the run annotations; none when skipped.
  std::vector<std::optional<std::pair<int64_t, int64_t>>> placed(list.dispatches.size());
  for (size_t i = 0; i < list.dispatches.size(); ++i) {
    const Dispatch& d = list.dispatches[i];
    const int64_t duration = d.duration_ns.value_or(0);
    // On the synthetic timeline a 0 ns dispatch (TF.js Reshape, an untimed kernel) sits 1 ns
    // after the previous end and 1 ns before the next start: on a neighbour's boundary its op
    // would count as nested in that neighbour's op.
    const int64_t start =
        list.synthetic_starts ? cursor + (duration == 0 ? 1 : 0) : d.start_ns.value_or(cursor);
    // Times stay within ±2^62 ns, as every importer keeps them, so that sums cannot overflow.
    if (duration < 0 || duration > kMaxTimeNs || start < -kMaxTimeNs ||
        start > kMaxTimeNs - duration) {
      ++out_of_range;
      continue;
    }
    if (list.synthetic_starts) cursor = start + duration + (duration == 0 ? 1 : 0);
    placed[i] = std::make_pair(start, start + duration);
    const int64_t external_id = static_cast<int64_t>(i) + 1;

    Slice op;
    op.start_ns = start;
    op.duration_ns = duration;
    op.external_id = external_id;
    op.name = trace->strings.Intern(d.op);
    if (d.inputs) op.inputs = trace->op_inputs.Add(*d.inputs);
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
  for (const DispatchRun& run : list.runs) {
    std::optional<int64_t> begin, end;
    for (size_t i = run.first; i < run.first + run.count && i < placed.size(); ++i) {
      if (!placed[i]) continue;
      if (!begin) begin = placed[i]->first;
      begin = std::min(*begin, placed[i]->first);
      end = std::max(end.value_or(placed[i]->second), placed[i]->second);
    }
    if (!begin) continue;  // a run with no dispatch placed has nothing to span
    Slice annotation;
    annotation.start_ns = *begin;
    annotation.duration_ns = *end - *begin;
    annotation.name = trace->strings.Intern(run.name);
    annotation.track = 0;
    annotation.kind = SliceKind::kUserAnnotation;
    trace->slices.push_back(annotation);
    ++trace->counts.annotations;
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

  // The host is always traced and the WebGPU device always listed; the quantum is detected there.
  FinishImport(trace, {.backends = {.host_traced = true, .every_device = true}});
}

}  // namespace tensormorph::webgpu
