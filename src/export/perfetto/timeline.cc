#include "export/perfetto/timeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace tensormorph::perfetto_export {
namespace {

// Track uuids: a kind in the top byte, then the ids. Distinct kinds never collide; the hash only
// keeps ids from spilling into the kind byte.
constexpr uint64_t kDeviceKind = 1, kStreamKind = 2, kProcessKind = 3, kThreadKind = 4,
                   kOverlapKind = 5;

uint64_t Mix(uint64_t x) {  // splitmix64 finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

uint64_t Uuid(uint64_t kind, uint64_t a, uint64_t b = 0) {
  return (kind << 56) | (Mix(a * 0x9e3779b97f4a7c15ull ^ Mix(b)) & ((uint64_t{1} << 56) - 1));
}

bool IsRealId(int64_t id) {
  return id > 0 && id <= std::numeric_limits<int32_t>::max();
}

struct Interval {
  int64_t start = 0, end = 0;
  uint64_t base = 0;  // the track it belongs on
  uint32_t row = 0;
  Table table = Table::kKernel;
};

class Builder {
 public:
  Builder(const Trace& trace, const std::vector<int64_t>& keys) : trace_(trace), keys_(keys) {}

  Timeline Build() {
    for (uint32_t i = 0; i < trace_.kernels.size(); ++i) {
      const Kernel& k = trace_.kernels[i];
      Add(Stream(k.device, k.stream), k.start_ns, k.duration_ns, i, Table::kKernel);
    }
    for (uint32_t i = 0; i < trace_.transfers.size(); ++i) {
      const Transfer& t = trace_.transfers[i];
      Add(Stream(t.device, t.stream), t.start_ns, t.duration_ns, i, Table::kTransfer);
    }
    for (uint32_t i = 0; i < trace_.api_calls.size(); ++i) {
      const ApiCall& c = trace_.api_calls[i];
      Add(Thread(c.track), c.start_ns, c.duration_ns, i, Table::kApiCall);
    }
    for (uint32_t i = 0; i < trace_.slices.size(); ++i) {
      const Slice& s = trace_.slices[i];
      Add(Thread(s.track), s.start_ns, s.duration_ns, i, Table::kSlice);
    }
    Sweep();
    for (uint32_t i = 0; i < trace_.instants.size(); ++i) {
      const Instant& instant = trace_.instants[i];
      out_.events.push_back(
          {instant.ts_ns, Thread(instant.track), i, Table::kInstant, Edge::kInstant});
    }
    std::stable_sort(
        out_.events.begin(), out_.events.end(),
        [](const TimelineEvent& a, const TimelineEvent& b) { return a.ts_ns < b.ts_ns; });
    return std::move(out_);
  }

 private:
  void Add(uint64_t base, int64_t start, int64_t duration, uint32_t row, Table table) {
    intervals_.push_back({start, start + duration, base, row, table});
  }

  uint64_t Stream(uint32_t device, int64_t stream) {
    const int64_t key = device < keys_.size() ? keys_[device] : -1;
    auto [it, added] = streams_.try_emplace({key, stream}, 0);
    if (!added) return it->second;
    const uint64_t parent = DeviceTrack(device, key);
    it->second = Uuid(kStreamKind, static_cast<uint64_t>(key), static_cast<uint64_t>(stream));
    out_.tracks.push_back({it->second, parent, fmt::format("stream {}", stream)});
    names_[it->second] = out_.tracks.back().name;
    return it->second;
  }

  uint64_t DeviceTrack(uint32_t device, int64_t key) {
    auto [it, added] = devices_.try_emplace(key, 0);
    if (!added) return it->second;
    it->second = Uuid(kDeviceKind, static_cast<uint64_t>(key));
    std::string label = "unknown device";
    if (device < trace_.devices.size()) {
      const Device& d = trace_.devices[device];
      label = fmt::format("{} {}", BackendName(d.backend), d.index >= 0 ? d.index : key);
      if (!d.name.empty()) label += " " + d.name;
    }
    out_.tracks.push_back({it->second, 0, label});
    return it->second;
  }

  uint64_t ProcessTrack(const Track& track) {
    const std::string key = track.pid_name.empty() ? fmt::format("#{}", track.pid) : track.pid_name;
    auto [it, added] = processes_.try_emplace(key, 0);
    if (!added) return it->second;
    it->second = Uuid(kProcessKind, std::hash<std::string>()(key));
    TrackInfo info{
        it->second, 0,
        track.pid_name.empty() ? fmt::format("host process {}", track.pid) : track.pid_name};
    if (track.pid_name.empty() && IsRealId(track.pid)) {
      info.is_process = true;
      info.pid = static_cast<int32_t>(track.pid);
    }
    out_.tracks.push_back(std::move(info));
    return it->second;
  }

  uint64_t Thread(uint32_t index) {
    if (index >= trace_.tracks.size()) index = 0;
    auto [it, added] = threads_.try_emplace(index, 0);
    if (!added) return it->second;
    if (trace_.tracks.empty()) {  // rows without any track: one anonymous thread
      it->second = Uuid(kThreadKind, 0);
      out_.tracks.push_back({it->second, 0, "thread"});
      return it->second;
    }
    const Track& track = trace_.tracks[index];
    const uint64_t process = ProcessTrack(track);
    it->second = Uuid(kThreadKind, index);
    std::string name = !track.thread_name.empty() ? track.thread_name
                       : !track.tid_name.empty()  ? track.tid_name
                                                  : fmt::format("thread {}", track.tid);
    TrackInfo info{it->second, process, name};
    if (track.pid_name.empty() && track.tid_name.empty() && IsRealId(track.pid) && track.tid > 0) {
      info.is_thread = true;
      info.parent_uuid = 0;  // a thread track belongs to its process by pid
      info.pid = static_cast<int32_t>(track.pid);
      info.tid = track.tid;
    }
    out_.tracks.push_back(std::move(info));
    names_[it->second] = name;
    return it->second;
  }

  uint64_t OverlapLane(uint64_t base, size_t lane) {
    const uint64_t uuid = Uuid(kOverlapKind, base, lane);
    if (overlap_tracks_.insert(uuid).second) {
      out_.tracks.push_back({uuid, base, fmt::format("{} (overlap {})", names_[base], lane)});
    }
    return uuid;
  }

  // Puts each interval on the first lane of its track where it nests, emitting BEGIN/END in an
  // order that keeps every lane balanced.
  void Sweep() {
    std::sort(intervals_.begin(), intervals_.end(), [](const Interval& a, const Interval& b) {
      return std::make_tuple(a.base, a.start, b.end, a.table, a.row) <
             std::make_tuple(b.base, b.start, a.end, b.table, b.row);
    });
    struct Open {
      int64_t end;
      size_t interval;
    };
    struct Lane {
      uint64_t uuid;
      std::vector<Open> stack;
    };
    std::vector<Lane> lanes;
    const auto close_until = [&](Lane& lane, int64_t t) {
      while (!lane.stack.empty() && lane.stack.back().end <= t) {
        const Interval& done = intervals_[lane.stack.back().interval];
        out_.events.push_back({done.end, lane.uuid, done.row, done.table, Edge::kEnd});
        lane.stack.pop_back();
      }
    };
    const auto close_all = [&]() {
      for (Lane& lane : lanes) close_until(lane, std::numeric_limits<int64_t>::max());
      lanes.clear();
    };
    for (size_t i = 0; i < intervals_.size(); ++i) {
      const Interval& x = intervals_[i];
      if (i == 0 || x.base != intervals_[i - 1].base) {
        close_all();
        lanes.push_back({x.base, {}});
      }
      size_t lane = 0;
      for (;; ++lane) {
        if (lane == lanes.size()) lanes.push_back({OverlapLane(x.base, lane), {}});
        close_until(lanes[lane], x.start);
        if (lanes[lane].stack.empty() || x.end <= lanes[lane].stack.back().end) break;
      }
      lanes[lane].stack.push_back({x.end, i});
      out_.events.push_back({x.start, lanes[lane].uuid, x.row, x.table, Edge::kBegin});
      ++out_.slice_count;
    }
    close_all();
  }

  const Trace& trace_;
  const std::vector<int64_t>& keys_;
  Timeline out_;
  std::vector<Interval> intervals_;
  std::map<std::pair<int64_t, int64_t>, uint64_t> streams_;
  std::map<int64_t, uint64_t> devices_;
  std::map<std::string, uint64_t> processes_;
  std::map<uint32_t, uint64_t> threads_;
  std::map<uint64_t, std::string> names_;
  std::set<uint64_t> overlap_tracks_;
};

}  // namespace

Timeline BuildTimeline(const Trace& trace, const std::vector<int64_t>& device_keys) {
  return Builder(trace, device_keys).Build();
}

}  // namespace tensormorph::perfetto_export
