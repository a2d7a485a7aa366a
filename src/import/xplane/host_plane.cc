// The host plane ("/host:CPU"): one track per thread line. Events with a correlation_id are the
// runtime calls that launched device work (hipModuleLaunchKernel, cuLaunchKernel,
// hipMemcpyDtoDAsync, ...; JAX 0.6 on ROCm names them after the kernel instead); python frames
// (the python tracer's "$file:line function") become python slices; zero-length markers
// (ThreadpoolListener::StartRegion) are counted as instants; every other range (PjRt execution,
// thunks, "jit_f:XLA GPU module") is kept as a user annotation.
#include "import/xplane/event_stats.h"
#include "import/xplane/plane_readers.h"

namespace tensormorph::xplane {

void ReadHostPlane(const xplane_pb::XPlane& plane, ReadState* state) {
  Trace& trace = *state->trace;
  const PlaneStats stats(plane);
  for (const xplane_pb::XLine& line : plane.lines()) {
    Track track;
    track.pid_name = plane.name();
    track.tid = line.display_id() != 0 ? line.display_id() : line.id();
    track.thread_name = !line.display_name().empty() ? line.display_name() : line.name();
    if (std::string_view(line.name()).starts_with("Host Threads/")) ++state->host_thread_lines;
    const uint32_t track_index = static_cast<uint32_t>(trace.tracks.size());
    trace.tracks.push_back(std::move(track));
    for (const xplane_pb::XEvent& event : line.events()) {
      const std::optional<LineEvent> read = ReadLineEvent(plane, line, event, stats, state);
      if (!read) continue;
      const auto& [metadata, span, name, es] = *read;
      if (es.correlation != 0) {
        state->hlo_ops.Add(es.correlation, es.hlo_op, es.hlo_module, &trace);
        ApiCall call;
        call.start_ns = span.start_ns;
        call.duration_ns = span.duration_ns;
        call.link.correlation = es.correlation;
        call.name = trace.strings.Intern(name);
        call.track = track_index;
        call.kind = ApiKind::kRuntime;
        trace.api_calls.push_back(call);
        ++trace.counts.runtime_calls;
        continue;
      }
      if (event.duration_ps() == 0) {
        ++trace.counts.instants;
        continue;
      }
      Slice slice;
      slice.start_ns = span.start_ns;
      slice.duration_ns = span.duration_ns;
      slice.name = trace.strings.Intern(name);
      slice.track = track_index;
      if (name.starts_with("$")) {
        slice.kind = SliceKind::kPythonFunction;
        ++trace.counts.python_functions;
      } else {
        slice.kind = SliceKind::kUserAnnotation;
        ++trace.counts.annotations;
      }
      trace.slices.push_back(slice);
    }
  }
}

}  // namespace tensormorph::xplane
