#include "analysis/job/rank_work.h"

#include <algorithm>
#include <string_view>
#include <tuple>
#include <unordered_map>

namespace tensormorph {
namespace {

bool IsSynchronizing(std::string_view name) {
  return name.find("Synchronize") != std::string_view::npos;
}

bool IsCopyCall(std::string_view name) {
  for (std::string_view prefix :
       {"cudaMemcpy", "cudaMemset", "hipMemcpy", "hipMemset", "cuMemcpy", "cuMemset"}) {
    if (name.starts_with(prefix)) return true;
  }
  return false;
}

}  // namespace

RankWork::RankWork(const LinkedTrace& linked, const JobRank& rank)
    : linked_(&linked), pid_(rank.pid) {
  IndexItems(rank);
  IndexBlockingCalls();
  IndexOutermostOps();
}

bool RankWork::OwnsTrack(uint32_t track) const {
  const Trace& t = trace();
  return track < t.tracks.size() && (!pid_ || t.tracks[track].pid == *pid_);
}

uint32_t RankWork::ItemOfKernel(uint32_t row) const {
  return row < item_of_kernel_.size() ? item_of_kernel_[row] : kNoRow;
}

bool RankWork::PreferredBefore(uint32_t a, uint32_t b) const {
  const PathItem& x = items_[a];
  const PathItem& y = items_[b];
  if (x.end_ns != y.end_ns) return x.end_ns < y.end_ns;
  if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
  if (x.stream != y.stream) return x.stream > y.stream;  // the lower stream is preferred
  return a > b;                                          // the first in order is preferred
}

void RankWork::IndexItems(const JobRank& rank) {
  const Trace& t = trace();
  const TraceLinks& links = linked_->links();
  const std::vector<int32_t>& kernel_steps = linked_->step_of_kernels();
  const std::vector<int32_t>& transfer_steps = linked_->step_of_transfers();
  item_of_kernel_.assign(t.kernels.size(), kNoRow);
  const std::vector<std::vector<WorkItem>> per_device = CollectDeviceWork(t);
  size_t total = 0;
  for (const std::vector<WorkItem>& work : per_device) total += work.size();
  items_.reserve(total);
  for (size_t d = 0; d < per_device.size(); ++d) {
    const uint32_t device = d < t.devices.size() ? static_cast<uint32_t>(d) : kNoDevice;
    if (!rank.devices.empty() &&
        std::find(rank.devices.begin(), rank.devices.end(), device) == rank.devices.end()) {
      continue;
    }
    // Per stream of the device (a handful): its last item so far and its items. Looked up by a
    // scan from the last stream seen, not a map: a 1 GB trace has millions of items.
    struct StreamItems {
      int64_t stream;
      uint32_t last;
      std::vector<uint32_t> items;
    };
    std::vector<StreamItems> streams;
    size_t at = 0;
    for (const WorkItem& w : per_device[d]) {  // by (start, end, kind, row)
      const bool kernel = w.kind == WorkKind::kKernel;
      PathItem item;
      item.start_ns = w.start_ns;
      item.end_ns = w.end_ns;
      item.stream = w.stream;
      item.device = device;
      item.row = w.row;
      item.kind = w.kind;
      item.collective = kernel && w.work_class == WorkClass::kCommunication;
      item.launch = kernel ? links.kernels[w.row].launch : links.transfers[w.row].launch;
      item.step = kernel ? kernel_steps[w.row] : transfer_steps[w.row];
      if (at >= streams.size() || streams[at].stream != w.stream) {
        at = 0;
        while (at < streams.size() && streams[at].stream != w.stream) ++at;
        if (at == streams.size()) streams.push_back({w.stream, kNoRow, {}});
      }
      StreamItems& stream = streams[at];
      const auto index = static_cast<uint32_t>(items_.size());
      item.predecessor = stream.last;
      stream.last = index;
      stream.items.push_back(index);
      if (kernel) item_of_kernel_[w.row] = index;
      items_.push_back(item);
    }
    for (StreamItems& stream : streams) {  // devices past the table all go under kNoDevice
      std::vector<uint32_t>& order = by_end_[{device, stream.stream}];
      order.insert(order.end(), stream.items.begin(), stream.items.end());
    }
  }
  for (auto& [key, order] : by_end_) {
    std::sort(order.begin(), order.end(),
              [this](uint32_t a, uint32_t b) { return PreferredBefore(a, b); });
  }
  last_of_step_.assign(linked_->steps().size(), kNoRow);
  for (uint32_t i = 0; i < items_.size(); ++i) {
    const int32_t step = items_[i].step;
    if (step < 0 || static_cast<size_t>(step) >= last_of_step_.size()) continue;
    uint32_t& last = last_of_step_[step];
    if (last == kNoRow || items_[i].end_ns > items_[last].end_ns ||
        (items_[i].end_ns == items_[last].end_ns && items_[i].start_ns > items_[last].start_ns)) {
      last = i;
    }
  }
}

uint32_t RankWork::LastLaunchedIn(size_t step) const {
  return step < last_of_step_.size() ? last_of_step_[step] : kNoRow;
}

std::optional<uint32_t> RankWork::LatestOtherStreamBefore(uint32_t w) const {
  const PathItem& item = items_[w];
  std::optional<uint32_t> best;
  for (auto it = by_end_.lower_bound({item.device, INT64_MIN});
       it != by_end_.end() && it->first.first == item.device; ++it) {
    if (it->first.second == item.stream) continue;
    const std::vector<uint32_t>& order = it->second;
    auto at = std::upper_bound(order.begin(), order.end(), item.start_ns,
                               [this](int64_t t, uint32_t i) { return t < items_[i].end_ns; });
    // Ended by w's start; skip the zero-length ones at w's start (not started before it).
    while (at != order.begin()) {
      const uint32_t candidate = *--at;
      if (items_[candidate].start_ns >= item.start_ns) continue;
      if (!best || PreferredBefore(*best, candidate)) best = candidate;
      break;
    }
  }
  return best;
}

void RankWork::IndexBlockingCalls() {
  const Trace& t = trace();
  std::vector<uint32_t> all_by_end(items_.size());
  for (uint32_t i = 0; i < all_by_end.size(); ++i) all_by_end[i] = i;
  std::sort(all_by_end.begin(), all_by_end.end(),
            [this](uint32_t a, uint32_t b) { return PreferredBefore(a, b); });
  std::unordered_map<uint32_t, uint32_t> transfer_of_call;
  // What each call's name makes it, decided once per name: a million calls share a few names.
  enum class CallClass : uint8_t { kUnread, kSynchronizing, kCopy, kOther };
  std::vector<CallClass> class_of_name(t.strings.size(), CallClass::kUnread);
  for (uint32_t i = 0; i < items_.size(); ++i) {
    if (items_[i].kind != WorkKind::kKernel && items_[i].launch != kNoRow) {
      transfer_of_call.emplace(items_[i].launch, i);
    }
  }
  for (uint32_t c = 0; c < t.api_calls.size(); ++c) {
    const ApiCall& call = t.api_calls[c];
    if (!OwnsTrack(call.track)) continue;
    CallClass& call_class = class_of_name[call.name];
    if (call_class == CallClass::kUnread) {
      const std::string_view name = t.str(call.name);
      call_class = IsSynchronizing(name) ? CallClass::kSynchronizing
                   : IsCopyCall(name)    ? CallClass::kCopy
                                         : CallClass::kOther;
    }
    if (call_class == CallClass::kOther) continue;
    const int64_t end = call.start_ns + call.duration_ns;
    std::optional<uint32_t> waited;
    if (call_class == CallClass::kSynchronizing) {
      auto at = std::upper_bound(all_by_end.begin(), all_by_end.end(), end,
                                 [this](int64_t e, uint32_t i) { return e < items_[i].end_ns; });
      if (at != all_by_end.begin() && items_[*(at - 1)].end_ns >= call.start_ns) {
        waited = *(at - 1);
      }
    } else {
      if (auto it = transfer_of_call.find(c); it != transfer_of_call.end()) {
        const PathItem& copy = items_[it->second];
        if (copy.end_ns >= call.start_ns && copy.end_ns <= end) waited = it->second;
      }
    }
    if (waited) {
      blocking_[call.track].push_back({end, c, *waited});
      ++blocking_count_;
    }
  }
  for (auto& [track, calls] : blocking_) {
    // By end, then start: the last of equal ends is the latest to start.
    std::sort(calls.begin(), calls.end(), [&t](const BlockingCall& a, const BlockingCall& b) {
      const int64_t a_start = t.api_calls[a.call].start_ns, b_start = t.api_calls[b.call].start_ns;
      return std::tie(a.end_ns, a_start, a.call) < std::tie(b.end_ns, b_start, b.call);
    });
  }
}

const BlockingCall* RankWork::LatestBlockingCall(uint32_t track, int64_t t_ns) const {
  const auto it = blocking_.find(track);
  if (it == blocking_.end()) return nullptr;
  const std::vector<BlockingCall>& calls = it->second;
  auto at = std::upper_bound(calls.begin(), calls.end(), t_ns,
                             [](int64_t t, const BlockingCall& b) { return t < b.end_ns; });
  return at == calls.begin() ? nullptr : &*(at - 1);
}

void RankWork::IndexOutermostOps() {
  const Trace& t = trace();
  const std::vector<uint32_t>& parent = linked_->links().slice_parent;
  // Whether an op encloses each slice, from its parent's answer when the parent came first (it
  // starts earlier, or at once and lasts longer: the tables' order), else by walking up.
  std::vector<uint8_t> under_op(t.slices.size(), 0);
  auto op_above = [&](uint32_t s) {
    for (uint32_t p = parent[s]; p != kNoRow; p = parent[p]) {
      if (t.slices[p].kind == SliceKind::kOp) return true;
      if (p < s) return under_op[p] != 0;
    }
    return false;
  };
  std::vector<uint32_t>* ops = nullptr;  // the current track's, while slices stay on one track
  uint32_t ops_track = 0;
  for (uint32_t s = 0; s < t.slices.size(); ++s) {
    under_op[s] = op_above(s) ? 1 : 0;
    const Slice& slice = t.slices[s];
    if (slice.kind != SliceKind::kOp || under_op[s] != 0 || !OwnsTrack(slice.track)) continue;
    if (ops == nullptr || ops_track != slice.track) {
      ops = &outermost_ops_[slice.track];
      ops_track = slice.track;
    }
    ops->push_back(s);
  }
  // By start, the longer first, then in the table's order.
  auto by_start = [&t](uint32_t a, uint32_t b) {
    const Slice& x = t.slices[a];
    const Slice& y = t.slices[b];
    if (x.start_ns != y.start_ns) return x.start_ns < y.start_ns;
    if (x.end_ns() != y.end_ns()) return x.end_ns() > y.end_ns();
    return a < b;
  };
  for (auto& [track, track_ops] : outermost_ops_) {
    if (!std::is_sorted(track_ops.begin(), track_ops.end(), by_start)) {
      std::sort(track_ops.begin(), track_ops.end(), by_start);
    }
  }
}

const std::vector<uint32_t>& RankWork::OutermostOps(uint32_t track) const {
  static const std::vector<uint32_t> kNone;
  const auto it = outermost_ops_.find(track);
  return it == outermost_ops_.end() ? kNone : it->second;
}

}  // namespace tensormorph
