// The tracks of a Perfetto export and the order of its events.
//
// Tracks: one group track per device ("cuda 0 NVIDIA H100 ...") with a child track per stream
// that ran something ("stream 7"); one process track per host process and a thread track per
// model Track (ProcessDescriptor / ThreadDescriptor when pid and tid are real ids, named tracks
// for string pids and pids <= 0, which Perfetto reserves). A row that overlaps another on its
// track without nesting inside it (a BEGIN/END pair cannot express that) goes to the first
// "overlap N" child track where it nests.
//
// Events: every row's BEGIN and END (instants: one event), sorted by time; events at the same
// time keep the order the nesting sweep emitted them in, so each track's pairs stay balanced.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensormorph/model/trace.h"

namespace tensormorph::perfetto_export {

enum class Table : uint8_t { kKernel, kTransfer, kApiCall, kSlice, kInstant };
enum class Edge : uint8_t { kBegin, kEnd, kInstant };

struct TimelineEvent {
  int64_t ts_ns = 0;
  uint64_t track_uuid = 0;
  uint32_t row = 0;  // index into the table's rows
  Table table = Table::kKernel;
  Edge edge = Edge::kBegin;
};

struct TrackInfo {
  uint64_t uuid = 0, parent_uuid = 0;  // parent 0 = none
  std::string name;
  bool is_process = false, is_thread = false;  // with a Process- / ThreadDescriptor
  int32_t pid = 0;
  int64_t tid = 0;
};

struct Timeline {
  std::vector<TrackInfo> tracks;  // parents before children
  std::vector<TimelineEvent> events;
  // Slices (BEGIN events) per track uuid: for the docs' numbers and the tests.
  size_t slice_count = 0;
};

// `device_keys` names each device as the Chrome-JSON export does (chrome_json::ChooseDeviceKeys).
Timeline BuildTimeline(const Trace& trace, const std::vector<int64_t>& device_keys);

}  // namespace tensormorph::perfetto_export
