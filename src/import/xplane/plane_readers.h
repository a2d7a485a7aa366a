// XPlane -> Trace rows. Device planes ("/device:GPU:N") give devices, kernels and transfers, TPU
// planes ("/device:TPU:N") devices and their XLA ops as kernels; the host plane ("/host:CPU")
// gives tracks, launch calls, python frames and annotations.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "import/common/hlo_ops.h"
#include "import/xplane/event_stats.h"
#include "import/xplane/xplane.pb.h"
#include "tensormorph/model/trace.h"

namespace tensormorph::xplane {

// What one import gathered besides rows, for the warnings and the format version.
struct ReadState {
  Trace* trace = nullptr;
  HloOpIndex hlo_ops;
  uint64_t implausible_details = 0;  // kernel_details with uninitialised registers (JAX 0.6 ROCm)
  uint64_t aggregated_events = 0;    // events with num_occurrences instead of a time
  uint64_t out_of_range = 0;         // times beyond ±2^62 ns
  uint64_t negative_durations = 0;   // read as 0
  uint64_t host_thread_lines = 0;    // "Host Threads/<tid>" lines (runtime API callbacks)
  uint64_t tpu_ops = 0;              // TPU "XLA Ops" events read as kernels
  uint64_t tpu_lines_not_read = 0;   // events of a TPU plane's other lines
  std::vector<std::string> unknown_vendors;
};

// Event time: start = XLine.timestamp_ns * 1000 + XEvent.offset_ps picoseconds, computed in 128
// bits (an epoch timestamp_ns times 1000 overflows int64). Picoseconds become nanoseconds rounded
// half away from zero, the start and the duration each on its own: the rule the Chrome importer
// applies to the same times written as decimal microseconds in XLA's trace JSON, so both files of
// one profile give the same numbers. A negative duration is read as 0 (counted). nullopt when the
// start lies beyond ±2^62 ns.
struct EventSpan {
  int64_t start_ns = 0, duration_ns = 0;
};
std::optional<EventSpan> EventTimes(int64_t line_timestamp_ns, int64_t offset_ps,
                                    int64_t duration_ps, ReadState* state);

// One event of a line, read: its metadata (nullptr when the plane lacks it), times, name and
// stats. nullopt, counted as skipped, for aggregated events (num_occurrences, no time of their
// own) and times out of range (EventTimes).
struct LineEvent {
  const xplane_pb::XEventMetadata* metadata = nullptr;
  EventSpan span;
  std::string_view name;
  EventStats stats;
};
std::optional<LineEvent> ReadLineEvent(const xplane_pb::XPlane& plane, const xplane_pb::XLine& line,
                                       const xplane_pb::XEvent& event, const PlaneStats& stats,
                                       ReadState* state);

// "/device:GPU:3" -> 3; nullopt for any other name.
std::optional<int32_t> GpuOrdinal(std::string_view plane_name);
// "Stream #16(Kernel)" -> 16; nullopt for any other line name.
std::optional<int64_t> StreamNumber(std::string_view line_name);

void ReadDevicePlane(const xplane_pb::XPlane& plane, int32_t ordinal, ReadState* state);

// "/device:TPU:2" -> 2; nullopt for any other name.
std::optional<int32_t> TpuOrdinal(std::string_view plane_name);
// A TPU plane: its "XLA Ops" line as kernels on stream 0 (tpu_plane.cc says why the other lines
// are not read).
void ReadTpuPlane(const xplane_pb::XPlane& plane, int32_t ordinal, ReadState* state);
void ReadHostPlane(const xplane_pb::XPlane& plane, ReadState* state);

}  // namespace tensormorph::xplane
