#include "analysis/whatif/edits.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>

#include "analysis/common/device_work.h"
#include "analysis/timeline/gaps.h"
#include "tensormorph/analysis/compare/categories.h"
#include "tensormorph/model/copy_kinds.h"

namespace tensormorph::whatif {
namespace {

bool HasGraphEdge(const StepGraph& graph, uint32_t event) {
  for (uint32_t k = graph.in_begin[event]; k < graph.in_end[event]; ++k) {
    if (graph.edges[k].kind == EdgeKind::kGraph) return true;
  }
  return false;
}

// Per (rank, device): the median delay of the items a stream predecessor released, the time a
// device takes between back-to-back work on one stream; 0 where none was.
std::map<std::pair<size_t, uint32_t>, int64_t> BackToBackDelays(const StepGraph& graph) {
  std::map<std::pair<size_t, uint32_t>, std::vector<int64_t>> delays;
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    const std::vector<PathItem>& items = graph.ranks[r].work->items();
    for (uint32_t i = 0; i < items.size(); ++i) {
      const uint32_t start = graph.ItemStart(r, i);
      if (ReleasingEdge(graph, start) == EdgeKind::kStream) {
        delays[{r, items[i].device}].push_back(graph.delay[start]);
      }
    }
  }
  std::map<std::pair<size_t, uint32_t>, int64_t> median;
  for (auto& [key, values] : delays) {
    std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
    median[key] = values[values.size() / 2];
  }
  return median;
}

// Releases item `i` of rank `r` by its step's graph edge, at most `back_to_back` after it.
void GraphRelease(const StepGraph& graph, size_t r, uint32_t i, int64_t back_to_back,
                  GraphEdit* edit) {
  const uint32_t start = graph.ItemStart(r, i);
  if (!HasGraphEdge(graph, start)) return;
  edit->Flag(graph, start, kGraphLaunch);
  edit->CapDelay(graph, start, back_to_back);
}

int64_t MedianOf(const std::map<std::pair<size_t, uint32_t>, int64_t>& medians, size_t r,
                 uint32_t device) {
  const auto it = medians.find({r, device});
  return it == medians.end() ? 0 : it->second;
}

bool Selected(const GraphRank& rank, int input) {
  return input < 0 || rank.input == input;
}

// Every blocking call of the graph whose name `stop` accepts stops waiting.
template <typename Predicate>
GraphEdit StopWaiting(const StepGraph& graph, int input, Predicate stop) {
  GraphEdit edit;
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    if (!Selected(graph.ranks[r], input)) continue;
    const RankWork& work = *graph.ranks[r].work;
    const Trace& trace = work.trace();
    for (const auto& [track, calls] : work.BlockingCallsByTrack()) {
      for (const BlockingCall& b : calls) {
        if (stop(trace.str(trace.api_calls[b.call].name))) {
          edit.Flag(graph, graph.CallStart(r, b.call) + 1, kNoWait);
        }
      }
    }
  }
  return edit;
}

// The work category of a device item, as compare categorizes it: communication by its name, a
// copy by its kind, else the op that launched it, else its own name.
WorkCategory CategoryOfItem(const LinkedTrace& linked, const PathItem& item) {
  const Trace& trace = linked.trace();
  if (item.kind == WorkKind::kMemcpy) return WorkCategory::kMemcpy;
  if (item.kind == WorkKind::kMemset) return WorkCategory::kMemset;
  if (item.collective) return WorkCategory::kCommunication;
  const uint32_t op = linked.links().kernels[item.row].op;
  if (op != kNoRow) {
    const WorkCategory category = CategoryOfOp(trace.str(trace.slices[op].name));
    if (category != WorkCategory::kOther) return category;
  }
  return CategoryOfKernel(trace.str(trace.kernels[item.row].name));
}

std::string_view ItemName(const Trace& trace, const PathItem& item) {
  return item.kind == WorkKind::kKernel ? trace.str(trace.kernels[item.row].name)
                                        : trace.str(trace.transfers[item.row].name);
}

}  // namespace

GraphEdit GraphLaunchEdit(const StepGraph& graph, int input) {
  GraphEdit edit;
  const auto back_to_back = BackToBackDelays(graph);
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    if (!Selected(graph.ranks[r], input)) continue;
    const GraphRank& rank = graph.ranks[r];
    const RankWork& work = *rank.work;
    const Trace& trace = work.trace();
    // Per (step, launching thread): the first launch's start and the last launch's end.
    std::map<std::pair<int32_t, uint32_t>, std::pair<int64_t, int64_t>> windows;
    for (uint32_t i = 0; i < work.items().size(); ++i) {
      const PathItem& item = work.items()[i];
      if (item.step < 0 || item.launch == kNoRow) continue;
      GraphRelease(graph, r, i, MedianOf(back_to_back, r, item.device), &edit);
      if (item.launch >= trace.api_calls.size()) continue;
      const uint32_t call = graph.CallStart(r, item.launch);
      auto [it, added] = windows.try_emplace({item.step, trace.api_calls[item.launch].track},
                                             graph.time[call], graph.time[call + 1]);
      if (!added) {
        it->second.first = std::min(it->second.first, graph.time[call]);
        it->second.second = std::max(it->second.second, graph.time[call + 1]);
      }
    }
    // The host points inside a window of their thread, past its first: their host time goes.
    // Each thread's windows by start, with the latest end among the first k (they may overlap).
    std::map<uint32_t, std::vector<std::pair<int64_t, int64_t>>> by_track;
    for (const auto& [key, window] : windows) by_track[key.second].push_back(window);
    std::map<uint32_t, std::vector<int64_t>> latest_end;
    for (auto& [track, list] : by_track) {
      std::sort(list.begin(), list.end());
      std::vector<int64_t>& ends = latest_end[track];
      for (const auto& [from, to] : list)
        ends.push_back(std::max(ends.empty() ? to : ends.back(), to));
    }
    for (uint32_t c = 0; c < trace.api_calls.size(); ++c) {
      const auto it = by_track.find(trace.api_calls[c].track);
      if (it == by_track.end()) continue;
      const std::vector<std::pair<int64_t, int64_t>>& list = it->second;
      const std::vector<int64_t>& ends = latest_end[it->first];
      for (const uint32_t e : {graph.CallStart(r, c), graph.CallStart(r, c) + 1}) {
        const int64_t t = graph.time[e];
        // The windows starting before t, latest first, while one of them may still hold t.
        size_t k = static_cast<size_t>(
            std::lower_bound(list.begin(), list.end(), std::pair<int64_t, int64_t>{t, INT64_MIN}) -
            list.begin());
        for (; k-- > 0 && ends[k] >= t;) {
          if (t <= list[k].second) {
            edit.Flag(graph, e, kFreeHost);
            break;
          }
        }
      }
    }
  }
  return edit;
}

GraphEdit LaunchBoundEdit(const StepGraph& graph, int input) {
  GraphEdit edit;
  const auto back_to_back = BackToBackDelays(graph);
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    if (!Selected(graph.ranks[r], input)) continue;
    const RankWork& work = *graph.ranks[r].work;
    const Trace& trace = work.trace();
    for (uint32_t i = 0; i < work.items().size(); ++i) {
      const PathItem& item = work.items()[i];
      if (item.kind != WorkKind::kKernel || item.launch >= trace.api_calls.size()) continue;
      if (item.end_ns - item.start_ns >= trace.api_calls[item.launch].duration_ns) continue;
      GraphRelease(graph, r, i, MedianOf(back_to_back, r, item.device), &edit);
      edit.Flag(graph, graph.CallStart(r, item.launch) + 1, kFreeHost);
    }
  }
  return edit;
}

GraphEdit SynchronizationEdit(const StepGraph& graph, int input) {
  return StopWaiting(graph, input, [](std::string_view name) {
    return name.find("Synchronize") != std::string_view::npos;
  });
}

GraphEdit BlockingCopiesEdit(const StepGraph& graph, int input) {
  return StopWaiting(graph, input, IsBlockingCopyCall);
}

GraphEdit ExposedCommunicationEdit(const StepGraph& graph, int input) {
  GraphEdit edit;
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    if (!Selected(graph.ranks[r], input)) continue;
    const std::vector<PathItem>& items = graph.ranks[r].work->items();
    for (uint32_t i = 0; i < items.size(); ++i) {
      if (items[i].collective) continue;
      const uint32_t start = graph.ItemStart(r, i);
      for (uint32_t k = graph.in_begin[start]; k < graph.in_end[start]; ++k) {
        const Edge& edge = graph.edges[k];
        if ((edge.kind == EdgeKind::kStream || edge.kind == EdgeKind::kOther) &&
            graph.collective[edge.from] != 0) {
          edit.Flag(graph, start, kNoCommWait);
          break;
        }
      }
    }
  }
  return edit;
}

GraphEdit StragglerEdit(const StepGraph& graph, int input) {
  GraphEdit edit;
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    if (!Selected(graph.ranks[r], input)) continue;
    const std::vector<PathItem>& items = graph.ranks[r].work->items();
    for (uint32_t i = 0; i < items.size(); ++i) {
      if (!items[i].collective) continue;
      const uint32_t end = graph.ItemStart(r, i) + 1;
      bool matched = false;  // the others' arrivals release its end
      for (uint32_t k = graph.in_begin[end]; k < graph.in_end[end]; ++k) {
        matched = matched || graph.edges[k].kind == EdgeKind::kArrival;
      }
      if (!matched) continue;
      edit.Flag(graph, end - 1, kLateStart);
      edit.Flag(graph, end, kOnTime);
    }
  }
  return edit;
}

GraphEdit RemoveSyncEdit(const StepGraph& graph, const std::string& name) {
  GraphEdit edit;
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    const RankWork& work = *graph.ranks[r].work;
    const Trace& trace = work.trace();
    const TraceLinks& links = work.linked().links();
    for (const auto& [track, calls] : work.BlockingCallsByTrack()) {
      for (const BlockingCall& b : calls) {
        const ApiCall& call = trace.api_calls[b.call];
        bool match = trace.str(call.name) == name;
        // Or a framework op around the call (the op `findings`' synchronization names).
        for (uint32_t op = EnclosingSlice(trace, links, call.track, call.start_ns, SliceKind::kOp);
             !match && op != kNoRow; op = links.slice_parent[op]) {
          match =
              trace.slices[op].kind == SliceKind::kOp && trace.str(trace.slices[op].name) == name;
        }
        if (match) edit.Flag(graph, graph.CallStart(r, b.call) + 1, kNoWait);
      }
    }
  }
  return edit;
}

GraphEdit SpeedupEdit(const StepGraph& graph, const WhatIfSpeedup& speedup) {
  GraphEdit edit;
  const std::string_view pattern = speedup.pattern;
  const std::optional<WorkCategory> category = ParseWorkCategory(pattern);
  const bool by_kernel = pattern.starts_with("kernel~");
  const std::string_view text = by_kernel ? pattern.substr(7) : pattern;
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    const RankWork& work = *graph.ranks[r].work;
    const LinkedTrace& linked = work.linked();
    const Trace& trace = work.trace();
    for (uint32_t i = 0; i < work.items().size(); ++i) {
      const PathItem& item = work.items()[i];
      bool match = false;
      if (category) {
        match = CategoryOfItem(linked, item) == *category;
      } else if (by_kernel) {
        match = ItemName(trace, item).find(text) != std::string_view::npos;
      } else if (item.kind == WorkKind::kKernel) {
        const uint32_t op = linked.links().kernels[item.row].op;
        match = op != kNoRow && trace.str(trace.slices[op].name) == text;
      } else {
        const uint32_t op = linked.links().transfers[item.row].op;
        match = op != kNoRow && trace.str(trace.slices[op].name) == text;
      }
      if (match) edit.Scale(graph, graph.ItemStart(r, i) + 1, speedup.factor);
    }
  }
  return edit;
}

GraphEdit WorkSpeedupEdit(const StepGraph& graph, int input,
                          const std::vector<WorkSpeedup>& speedups) {
  GraphEdit edit;
  for (size_t r = 0; r < graph.ranks.size(); ++r) {
    if (!Selected(graph.ranks[r], input)) continue;
    const RankWork& work = *graph.ranks[r].work;
    const LinkedTrace& linked = work.linked();
    const Trace& trace = work.trace();
    const std::vector<uint32_t>& parent = linked.links().slice_parent;
    for (uint32_t i = 0; i < work.items().size(); ++i) {
      const PathItem& item = work.items()[i];
      double factor = 1;
      if (item.kind == WorkKind::kKernel) {
        const std::string_view kernel = trace.str(trace.kernels[item.row].name);
        for (const WorkSpeedup& s : speedups) {
          if (s.device != item.device) continue;
          if (s.kind == "kernel" && s.name == kernel) factor = s.factor;
          if (s.kind != "op") continue;
          // The outermost op of the speedup's name around the kernel.
          for (uint32_t op = linked.links().kernels[item.row].op; op != kNoRow; op = parent[op]) {
            if (trace.str(trace.slices[op].name) == s.name) factor = s.factor;
          }
        }
      } else if (item.kind == WorkKind::kMemcpy) {
        const Transfer& copy = trace.transfers[item.row];
        const std::string label = MemcpyKindLabel(copy.direction, copy.src_memory, copy.dst_memory);
        for (const WorkSpeedup& s : speedups) {
          if (s.kind == "copy" && s.device == item.device && s.name == label) factor = s.factor;
        }
      }
      if (factor > 1) edit.Scale(graph, graph.ItemStart(r, i) + 1, factor);
    }
  }
  return edit;
}

}  // namespace tensormorph::whatif
