#include "analysis/job/path_walk.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace tensormorph {
namespace {

constexpr std::string_view kNoOpName = "(no op)";

PathKind KindOf(const PathItem& item) {
  switch (item.kind) {
    case WorkKind::kKernel:
      return PathKind::kKernel;
    case WorkKind::kMemcpy:
      return PathKind::kMemcpy;
    case WorkKind::kMemset:
      return PathKind::kMemset;
  }
  return PathKind::kKernel;
}

class Walker {
 public:
  Walker(const std::vector<WalkRank>& ranks, const WalkWindow& window)
      : ranks_(ranks), window_(window), window_start_ns_(window.start_ns) {}

  std::vector<PathPiece> Run(WalkState state, WalkTally* tally) {
    tally_ = tally;
    size_t limit = 64;
    for (const WalkRank& r : ranks_) {
      limit += 8 * (r.work->items().size() + r.work->BlockingCallCount());
    }
    for (size_t moves = 0; !done_; ++moves) {
      if (moves == limit) {
        ++tally_->cut_walks;
        const WalkRank& rank = ranks_[state.rank];
        Emit(state.rank, PathKind::kIdle, "", window_start_ns_ + rank.offset_ns, TimeOf(state));
        done_ = true;
        break;
      }
      switch (state.at) {
        case WalkState::At::kDeviceEnd:
          state = AtDeviceEnd(state);
          break;
        case WalkState::At::kDeviceStart:
          state = AtDeviceStart(state);
          break;
        case WalkState::At::kHost:
          state = AtHost(state);
          break;
      }
    }
    std::reverse(backward_.begin(), backward_.end());
    return std::move(backward_);
  }

 private:
  const PathItem& Item(size_t r, uint32_t i) const { return ranks_[r].work->items()[i]; }
  const Trace& TraceOf(size_t r) const { return ranks_[r].work->trace(); }

  std::string_view NameOf(size_t r, const PathItem& item) const {
    const Trace& t = TraceOf(r);
    return item.kind == WorkKind::kKernel ? t.str(t.kernels[item.row].name)
                                          : t.str(t.transfers[item.row].name);
  }

  int64_t TimeOf(const WalkState& s) const {
    switch (s.at) {
      case WalkState::At::kDeviceEnd:
        return Item(s.rank, s.item).end_ns;
      case WalkState::At::kDeviceStart:
        return Item(s.rank, s.item).start_ns;
      case WalkState::At::kHost:
        return s.t_ns;
    }
    return s.t_ns;
  }

  // [start, end) in rank r's clock, emitted backward: a piece reaching the window's start is cut
  // there and ends the walk.
  void Emit(size_t r, PathKind kind, std::string_view name, int64_t start, int64_t end) {
    if (done_) return;
    const WalkRank& rank = ranks_[r];
    int64_t from = start - rank.offset_ns;
    const int64_t to = end - rank.offset_ns;
    if (to <= window_start_ns_) {
      done_ = true;
      return;
    }
    if (from <= window_start_ns_) {
      from = window_start_ns_;
      done_ = true;
    }
    if (to <= from) return;
    // Host time outside ops split by an op of no duration is one piece.
    if (kind == PathKind::kCpu && !backward_.empty() && backward_.back().kind == kind &&
        backward_.back().input == rank.input && backward_.back().rank == rank.label &&
        backward_.back().start_ns == to) {
      backward_.back().start_ns = from;
      return;
    }
    backward_.push_back({rank.input, rank.label, kind, std::string(name), from, to});
  }

  // Host pieces of [from, to) on `track`: split at the outermost ops' boundaries, emitted backward.
  void EmitHost(size_t r, uint32_t track, int64_t from, int64_t to) {
    const Trace& t = TraceOf(r);
    const std::vector<uint32_t>& ops = ranks_[r].work->OutermostOps(track);
    auto i = std::lower_bound(ops.begin(), ops.end(), to, [&t](uint32_t op, int64_t time) {
      return t.slices[op].start_ns < time;
    });
    int64_t cursor = to;
    while (i != ops.begin() && cursor > from && !done_) {
      const Slice& op = t.slices[*--i];
      if (op.end_ns() < cursor) {  // host time after this op, outside every op
        const int64_t gap_start = std::max(op.end_ns(), from);
        Emit(r, PathKind::kCpu, kNoOpName, gap_start, cursor);
        cursor = gap_start;
        if (cursor <= from) break;
      }
      if (op.start_ns < cursor) {
        const int64_t op_start = std::max(op.start_ns, from);
        Emit(r, PathKind::kCpuOp, t.str(op.name), op_start, cursor);
        cursor = op_start;
      }
    }
    if (cursor > from) Emit(r, PathKind::kCpu, kNoOpName, from, cursor);
  }

  // Rule 1: a device item's own time, and the crossing to a collective's last rank.
  WalkState AtDeviceEnd(const WalkState& s) {
    const PathItem& w = Item(s.rank, s.item);
    const std::string_view name = NameOf(s.rank, w);
    const WalkRank& rank = ranks_[s.rank];
    if (!w.collective) {
      Emit(s.rank, KindOf(w), name, w.start_ns, w.end_ns);
      return WalkState::DeviceStart(s.rank, s.item);
    }
    const auto arrival = rank.arrivals.find(s.item);
    if (arrival == rank.arrivals.end()) {
      ++tally_->unmatched_collectives;
      Emit(s.rank, PathKind::kCollectiveTransfer, name, w.start_ns, w.end_ns);
      return WalkState::DeviceStart(s.rank, s.item);
    }
    const Arrival& a = arrival->second;
    const int64_t start = w.start_ns - rank.offset_ns, end = w.end_ns - rank.offset_ns;
    const int64_t last = std::clamp(a.last_start_ns, start, end);
    Emit(s.rank, PathKind::kCollectiveTransfer, name, last + rank.offset_ns, w.end_ns);
    const WalkRank& late = ranks_[a.last_rank];
    const double tolerance = std::hypot(static_cast<double>(rank.uncertainty_ns),
                                        static_cast<double>(late.uncertainty_ns));
    if (a.last_rank != s.rank && a.last_start_ns <= end &&
        static_cast<double>(last - start) > tolerance) {
      return WalkState::DeviceStart(a.last_rank, a.last_item);
    }
    Emit(s.rank, PathKind::kCollectiveWait, name, w.start_ns, last + rank.offset_ns);
    return WalkState::DeviceStart(s.rank, s.item);
  }

  // Rule 2: what released a device item: another stream's work, its stream predecessor or its
  // launch.
  WalkState AtDeviceStart(const WalkState& s) {
    const PathItem& w = Item(s.rank, s.item);
    const Trace& t = TraceOf(s.rank);
    const ApiCall* launch = w.launch != kNoRow ? &t.api_calls[w.launch] : nullptr;
    const PathItem* before = w.predecessor != kNoRow ? &Item(s.rank, w.predecessor) : nullptr;
    int64_t released = INT64_MIN;
    if (launch != nullptr) released = launch->start_ns;
    if (before != nullptr) released = std::max(released, std::min(before->end_ns, w.start_ns));
    const std::optional<uint32_t> other = ranks_[s.rank].work->LatestOtherStreamBefore(s.item);
    if (other && Item(s.rank, *other).end_ns > released) {
      Emit(s.rank, PathKind::kIdle, "", Item(s.rank, *other).end_ns, w.start_ns);
      return WalkState::DeviceEnd(s.rank, *other);
    }
    if (before != nullptr && (launch == nullptr || before->end_ns >= launch->start_ns)) {
      Emit(s.rank, PathKind::kIdle, "", std::min(before->end_ns, w.start_ns), w.start_ns);
      return WalkState::DeviceEnd(s.rank, w.predecessor);
    }
    if (launch != nullptr) {
      const int64_t at = std::min(launch->start_ns, w.start_ns);
      Emit(s.rank, PathKind::kLaunch, t.str(launch->name), at, w.start_ns);
      return WalkState::Host(s.rank, launch->track, at);
    }
    Emit(s.rank, PathKind::kIdle, "", window_start_ns_ + ranks_[s.rank].offset_ns, w.start_ns);
    done_ = true;
    return s;
  }

  // Rule 3: the host thread back to the latest call that waited for device work, or to the
  // rank's own step start.
  WalkState AtHost(const WalkState& s) {
    const WalkRank& rank = ranks_[s.rank];
    const int64_t window_start = window_start_ns_ + rank.offset_ns;
    const int64_t step_start = window_.rank_starts_ns[s.rank] + rank.offset_ns;
    const BlockingCall* call = rank.work->LatestBlockingCall(s.track, s.t_ns);
    if (call == nullptr || call->end_ns <= step_start) {
      EmitHost(s.rank, s.track, std::min(step_start, s.t_ns), s.t_ns);
      Emit(s.rank, PathKind::kStepNotStarted, window_.step_name, window_start,
           std::min(step_start, s.t_ns));
      done_ = true;
      return s;
    }
    EmitHost(s.rank, s.track, call->end_ns, s.t_ns);
    const Trace& t = TraceOf(s.rank);
    Emit(s.rank, PathKind::kSync, t.str(t.api_calls[call->call].name),
         Item(s.rank, call->waited).end_ns, call->end_ns);
    return WalkState::DeviceEnd(s.rank, call->waited);
  }

  const std::vector<WalkRank>& ranks_;
  const WalkWindow& window_;
  const int64_t window_start_ns_;
  WalkTally* tally_ = nullptr;
  bool done_ = false;
  std::vector<PathPiece> backward_;
};

}  // namespace

void AttachCollectives(const std::vector<CollectiveInstance>& collectives,
                       std::vector<WalkRank>* ranks) {
  for (const CollectiveInstance& c : collectives) {
    if (c.ranks.size() != ranks->size()) continue;
    size_t last = 0;
    while (last < c.ranks.size() && c.ranks[last].rank != c.last_rank) ++last;
    if (last == c.ranks.size()) continue;
    const uint32_t last_item = (*ranks)[last].work->ItemOfKernel(c.ranks[last].kernel);
    if (last_item == kNoRow) continue;
    for (size_t r = 0; r < c.ranks.size(); ++r) {
      const uint32_t item = (*ranks)[r].work->ItemOfKernel(c.ranks[r].kernel);
      if (item != kNoRow) (*ranks)[r].arrivals[item] = {c.last_start_ns, last, last_item};
    }
  }
}

std::vector<PathPiece> WalkBack(const std::vector<WalkRank>& ranks, const WalkWindow& window,
                                const WalkState& from, WalkTally* tally) {
  return Walker(ranks, window).Run(from, tally);
}

}  // namespace tensormorph
