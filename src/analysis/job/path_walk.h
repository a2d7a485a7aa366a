// The backward walk of the critical path (docs/critical-path.md "The graph", rules 1-4) over the
// ranks being walked together. Each move emits the pieces between the current point and the point
// that released it, then continues there; the pieces are contiguous by construction, so they cover
// the window exactly once the walk reaches its start.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/job/rank_work.h"
#include "tensormorph/analysis/job/collectives.h"
#include "tensormorph/analysis/job/critical_path.h"

namespace tensormorph {

// When the last rank arrived at a matched collective (aligned), and its kernel there.
struct Arrival {
  int64_t last_start_ns = 0;
  size_t last_rank = 0;  // position in the walked ranks
  uint32_t last_item = kNoRow;
};

struct WalkRank {
  const RankWork* work = nullptr;
  int input = 0;
  std::optional<int64_t> label;  // the rank, for a rank of a job
  int64_t offset_ns = 0;
  int64_t uncertainty_ns = 0;
  std::unordered_map<uint32_t, Arrival> arrivals;  // by item of a matched collective kernel
};

// Matched collectives: each rank's kernel of each instance learns its last arrival. `collectives`
// come from AnalyzeCollectives over the same ranks, in the same order.
void AttachCollectives(const std::vector<CollectiveInstance>& collectives,
                       std::vector<WalkRank>* ranks);

// A point of the walk, in the rank's own clock.
struct WalkState {
  enum class At : uint8_t { kDeviceEnd, kDeviceStart, kHost };
  At at = At::kHost;
  size_t rank = 0;
  uint32_t item = kNoRow;  // kDeviceEnd, kDeviceStart
  uint32_t track = 0;      // kHost
  int64_t t_ns = 0;        // kHost

  static WalkState DeviceEnd(size_t rank, uint32_t item) {
    return {At::kDeviceEnd, rank, item, 0, 0};
  }
  static WalkState DeviceStart(size_t rank, uint32_t item) {
    return {At::kDeviceStart, rank, item, 0, 0};
  }
  static WalkState Host(size_t rank, uint32_t track, int64_t t_ns) {
    return {At::kHost, rank, kNoRow, track, t_ns};
  }
};

// What the walks met that the result warns about.
struct WalkTally {
  size_t unmatched_collectives = 0;  // collective kernels on a path without a known arrival
  size_t cut_walks = 0;              // walks stopped by the move limit
};

// The window being walked: its start, and each rank's own step start (aligned; the window's
// start when there are no steps), below which the walk does not go on that rank's host.
struct WalkWindow {
  int64_t start_ns = 0;
  std::vector<int64_t> rank_starts_ns;  // by position in the walked ranks
  std::string step_name;                // "ProfilerStep#N", or "" without steps
};

// The path from the window's start to the point `from`, in time order.
std::vector<PathPiece> WalkBack(const std::vector<WalkRank>& ranks, const WalkWindow& window,
                                const WalkState& from, WalkTally* tally);

}  // namespace tensormorph
