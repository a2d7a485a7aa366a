// The host lanes of the report's timeline: one per (input, thread) that holds framework ops, user
// annotations, Python functions or runtime/driver calls; the page draws an input's host lanes
// above its device lanes, boxes nested by depth.
//
// Invariants the page's script relies on (assets/js/timeline.js), besides timeline_lanes.h's:
//  - a lane's boxes are sorted by start, the longer first at equal starts; `s` start deltas from
//    t0 (the first from 0; a host box may start before t0, so deltas may be negative), `d`
//    durations, `n` indices into the timeline's `host_labels`, each [name index into `names`, kind
//    index into `host_kinds`] (a name nearly always has one kind: one number per box says both),
//    `p` the distance back to the enclosing box (index - parent index; 0 at the top). The parent is
//    the innermost box open at the box's start, as TraceLinks::slice_parent nests slices;
//  - raw boxes are exactly the items starting before the timeline's raw_until_ns;
//  - a box's id over all host lanes is its lane's `box_base` + its index: kernels name their
//    launch call and op by it;
//  - `lod` exists only on lanes with more than kHostLodMinItems items or items past the cut: per
//    depth 0 .. kHostLodDepths - 1 a pyramid (lane_lod.h) whose `dom` is a name index + 1. The
//    buckets leave Python frames out and count depth over the other boxes (ops, annotations,
//    calls): zoomed out, a with_stack trace shows its ops rather than its top frames.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/trace_order.h"
#include "report/html/lane_lod.h"
#include "report/json_output.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

constexpr size_t kHostLodMinItems = 20'000;
constexpr size_t kHostLodDepths = 4;

// What a host box is; `host_kinds` in the timeline lists their names in this order.
enum class HostBoxKind : uint8_t { kOp, kAnnotation, kPython, kRuntime, kDriver, kSync };
Json HostKindNamesJson();

// A host item's box, once the lanes are built: its global id, or -1 when it is not embedded.
struct HostBoxIds {
  std::vector<std::vector<int64_t>> slice;  // per input, by Trace::slices index
  std::vector<std::vector<int64_t>> call;   // per input, by Trace::api_calls index
};

class HostLanes {
 public:
  // Collects and nests every input's host items; the lanes are written by Build.
  explicit HostLanes(const std::vector<const LinkedTrace*>& inputs);
  size_t item_count() const;
  // The earliest start (absolute ns) such that `budget` items start before it; INT64_MAX when
  // there are no more than `budget` items.
  int64_t CutForBudget(size_t budget) const;
  // The lanes' JSON; items starting before `raw_until` (relative to t0) become raw boxes.
  // `labels` receives the timeline's `host_labels`.
  Json Build(int64_t t0, int64_t span, int64_t raw_until, int64_t finest_bucket_ns,
             TimelineNames* names, HostBoxIds* ids, Json* labels) const;

 private:
  // 12 bytes: a 1 GB trace has millions of host items, and their times are in the trace's rows.
  struct Item {
    uint32_t row;     // index into Trace::slices or Trace::api_calls, by kind
    uint32_t parent;  // index of the enclosing item in the lane, UINT32_MAX at the top
    HostBoxKind kind;
    bool is_call() const { return kind >= HostBoxKind::kRuntime; }
  };
  // What orders a lane: by start, the longer first at equal starts, an op before the call it
  // makes at the same instant.
  struct Key {
    int64_t start, duration;
    HostBoxKind kind;
  };
  static Key KeyOf(const Trace& t, const Item& item);
  static bool KeyBefore(const Key& a, const Key& b);
  // Rows [begin, end) of a host table in track order.
  struct Rows {
    const TrackOrder* order;
    size_t begin, end;
    uint32_t at(size_t k) const { return (*order)[k]; }
  };
  // One thread's items: its shown slices and its calls merged in lane order, then nested.
  static std::vector<Item> MergeRuns(const Trace& t, Rows slices, Rows calls);
  static void Nest(const Trace& t, std::vector<Item>* items);
  struct Lane {
    int input;
    uint32_t track;
    std::vector<Item> items;
  };
  std::vector<const LinkedTrace*> inputs_;
  std::vector<Lane> lanes_;
};

}  // namespace tensormorph
