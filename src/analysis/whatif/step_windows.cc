#include "analysis/whatif/step_windows.h"

#include <algorithm>
#include <climits>
#include <map>
#include <tuple>

namespace tensormorph::whatif {

std::vector<StepWindow> WindowsOf(const StepGraph& graph) {
  std::vector<std::map<int64_t, int32_t>> index_of(graph.ranks.size());
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    const std::vector<Step>& steps = graph.ranks[r].work->linked().steps();
    for (size_t i = 0; i < steps.size(); ++i) {
      index_of[r].try_emplace(steps[i].number, static_cast<int32_t>(i));
    }
  }
  std::vector<StepWindow> out;
  // Per rank, per steps() index: the window it belongs to.
  std::vector<std::map<int32_t, size_t>> window_of(graph.ranks.size());
  for (const auto& [number, unused] : index_of[0]) {
    std::vector<int32_t> index;
    for (const auto& numbers : index_of) {
      const auto it = numbers.find(number);
      if (it == numbers.end()) break;
      index.push_back(it->second);
    }
    if (index.size() != index_of.size()) continue;
    StepWindow& w = out.emplace_back();
    w.number = number;
    for (size_t r = 0; r < index.size(); ++r) {
      const uint32_t start = graph.StepStart(r, static_cast<size_t>(index[r]));
      w.begins.push_back(start);
      w.ends.push_back(start + 1);
      window_of[r][index[r]] = out.size() - 1;
    }
    w.index = std::move(index);
  }
  int64_t whole_begin = INT64_MAX;  // the whole trace's: its first item's or outermost op's start
  if (out.empty()) {
    StepWindow& w = out.emplace_back();
    for (size_t r = 0; r < graph.ranks.size(); ++r) {
      const RankWork& work = *graph.ranks[r].work;
      const int64_t offset = graph.ranks[r].offset_ns;
      for (uint32_t i = 0; i < work.items().size(); ++i) {
        whole_begin = std::min(whole_begin, graph.time[graph.ItemStart(r, i)]);
        w.ends.push_back(graph.ItemStart(r, i) + 1);
      }
      for (const auto& [track, ops] : work.OutermostOpsByTrack()) {
        if (ops.empty()) continue;
        whole_begin = std::min(whole_begin, work.trace().slices[ops.front()].start_ns - offset);
      }
    }
  } else {
    for (size_t r = 0; r < graph.ranks.size(); ++r) {
      const std::vector<PathItem>& items = graph.ranks[r].work->items();
      for (uint32_t i = 0; i < items.size(); ++i) {
        const auto it = window_of[r].find(items[i].step);
        if (it != window_of[r].end()) out[it->second].ends.push_back(graph.ItemStart(r, i) + 1);
      }
    }
  }
  for (StepWindow& w : out) {
    w.begin_ns = w.begins.empty() ? whole_begin : INT64_MAX;
    w.end_ns = INT64_MIN;
    for (uint32_t e : w.begins) w.begin_ns = std::min(w.begin_ns, graph.time[e]);
    for (uint32_t e : w.ends) w.end_ns = std::max(w.end_ns, graph.time[e]);
  }
  // Each event into the windows that hold its measured time (windows of one job may overlap
  // where a rank's device work runs past the next step's start).
  std::vector<size_t> by_begin(out.size());
  for (size_t k = 0; k < out.size(); ++k) by_begin[k] = k;
  std::sort(by_begin.begin(), by_begin.end(),
            [&out](size_t a, size_t b) { return out[a].begin_ns < out[b].begin_ns; });
  std::vector<int64_t> max_end(out.size());  // the latest end among the first k by begin
  for (size_t k = 0; k < by_begin.size(); ++k) {
    max_end[k] = std::max(k > 0 ? max_end[k - 1] : INT64_MIN, out[by_begin[k]].end_ns);
  }
  for (const uint32_t e : graph.order) {
    const int64_t t = graph.time[e];
    auto it = std::upper_bound(by_begin.begin(), by_begin.end(), t,
                               [&out](int64_t v, size_t k) { return v < out[k].begin_ns; });
    for (size_t k = static_cast<size_t>(it - by_begin.begin()); k-- > 0 && max_end[k] >= t;) {
      StepWindow& w = out[by_begin[k]];
      if (t <= w.end_ns) w.events.push_back(e);
    }
  }
  return out;
}

WindowSlots SlotsOf(const StepGraph& graph, const std::vector<StepWindow>& windows) {
  WindowSlots slots;
  slots.slot_of.assign(graph.events(), WindowSlots::kNone);
  for (const StepWindow& w : windows) {
    for (const uint32_t e : w.events) slots.slot_of[e] = 0;  // marked; numbered below
  }
  for (uint32_t e = 0; e < graph.events(); ++e) {
    if (slots.slot_of[e] == WindowSlots::kNone) continue;
    slots.slot_of[e] = static_cast<uint32_t>(slots.events.size());
    slots.events.push_back(e);
  }
  return slots;
}

int64_t LengthOf(const StepWindow& w, const std::vector<int64_t>& t) {
  return LengthOf(w, [&t](uint32_t e) { return t[e]; });
}

std::vector<int64_t> ReplayWindows(const std::vector<StepWindow>& windows, const GraphEdit& edit,
                                   ReplayScratch* scratch) {
  std::vector<int64_t> lengths;
  scratch->Apply(edit);
  for (const StepWindow& w : windows) {
    scratch->Replay(edit, w.events);
    lengths.push_back(LengthOf(w, [scratch](uint32_t e) { return scratch->time(e); }));
    scratch->PutBack(w.events);
  }
  scratch->Restore(edit);
  return lengths;
}

std::vector<int64_t> UnexplainedPerStep(const StepGraph& graph,
                                        const std::vector<StepWindow>& windows) {
  struct Key {
    size_t rank;
    uint32_t device;
    EdgeKind kind;
    bool operator<(const Key& o) const {
      return std::tie(rank, device, kind) < std::tie(o.rank, o.device, o.kind);
    }
  };
  std::map<Key, std::vector<int64_t>> delays;
  std::vector<std::pair<Key, uint32_t>> keyed;  // (key, item start event)
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    const std::vector<PathItem>& items = graph.ranks[r].work->items();
    for (uint32_t i = 0; i < items.size(); ++i) {
      const uint32_t start = graph.ItemStart(r, i);
      const std::optional<EdgeKind> kind = ReleasingEdge(graph, start);
      if (!kind) continue;  // released by nothing recorded: not a delay
      const Key key{r, items[i].device, *kind};
      delays[key].push_back(graph.delay[start]);
      keyed.emplace_back(key, start);
    }
  }
  std::map<Key, int64_t> median;
  for (auto& [key, values] : delays) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    median[key] = values[values.size() / 2];
  }
  // Which step each item belongs to: its rank's steps() index -> position in `windows`.
  std::vector<std::map<int32_t, size_t>> position(graph.ranks.size());
  for (size_t s = 0; s < windows.size(); ++s) {
    for (size_t r = 0; r < windows[s].index.size(); ++r) position[r][windows[s].index[r]] = s;
  }
  const bool whole = !windows.front().number;
  std::vector<int64_t> out(windows.size(), 0);
  for (const auto& [key, start] : keyed) {
    const int64_t excess = graph.delay[start] - median[key];
    if (excess <= 0) continue;
    if (whole) {
      out[0] += excess;
      continue;
    }
    const uint32_t item = (start - graph.ranks[key.rank].first_item) / 2;
    const int32_t s = graph.ranks[key.rank].work->items()[item].step;
    const auto it = position[key.rank].find(s);
    if (it != position[key.rank].end()) out[it->second] += excess;
  }
  return out;
}

}  // namespace tensormorph::whatif
