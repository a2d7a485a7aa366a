// Writes any Trace as a Perfetto protobuf trace (.pftrace): a Trace of TracePackets carrying
// TrackEvents, which Perfetto UI and trace_processor open, for traces too large for JSON.
//
// Invariants: packets are written one at a time straight to the file (memory does not hold the
// output); every slice is a TYPE_SLICE_BEGIN / TYPE_SLICE_END pair on a track where it nests
// properly (rows that overlap without nesting go to an "overlap" child track); launch flows link
// each runtime call to every kernel and copy with its correlation id. Schema subset:
// perfetto_trace.proto; layout and fields: docs/perfetto-export.md.
#pragma once

#include "export/exporter.h"

namespace tensormorph {

class PerfettoExporter : public Exporter {
 public:
  std::string_view name() const override { return "perfetto"; }
  std::string_view description() const override {
    return "Perfetto protobuf trace (TrackEvent) for Perfetto UI and trace_processor";
  }
  Status Export(const LinkedTrace& linked, const std::string& output_path) const override;
};

}  // namespace tensormorph
