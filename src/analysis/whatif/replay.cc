#include "analysis/whatif/replay.h"

#include <algorithm>
#include <cmath>

namespace tensormorph::whatif {

namespace {

// Each event's speedup in `scales` (the product of its factors in the order they were made) where
// it is not 1, by event.
std::vector<std::pair<uint32_t, double>> SpeedupPerEvent(
    std::vector<std::pair<uint32_t, double>> scales) {
  std::stable_sort(scales.begin(), scales.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<std::pair<uint32_t, double>> out;
  for (size_t i = 0; i < scales.size();) {
    double product = 1.0;
    const uint32_t event = scales[i].first;
    for (; i < scales.size() && scales[i].first == event; ++i) product *= scales[i].second;
    if (product != 1.0) out.emplace_back(event, product);
  }
  return out;
}

}  // namespace

void GraphEdit::Flag(const StepGraph& graph, uint32_t event, uint8_t flag) {
  if (flags.empty()) flags.assign(graph.events(), 0);
  if ((flags[event] & flag) == flag) return;
  touched_ = true;
  flags[event] |= flag;
}

void GraphEdit::Scale(const StepGraph& /*graph*/, uint32_t end_event, double factor) {
  if (factor == 1) return;
  touched_ = true;
  scales.emplace_back(end_event, factor);
}

void GraphEdit::CapDelay(const StepGraph& graph, uint32_t event, int64_t delay_ns) {
  // An entry no shorter than the graph's delay changes nothing; one no shorter than an earlier
  // entry is kept too (the least wins), which costs a few bytes and no lookup.
  if (delay_ns >= graph.delay[event]) return;
  touched_ = true;
  delays.emplace_back(event, delay_ns);
}

size_t GraphEdit::Changed(const StepGraph& /*graph*/) const {
  size_t count = 0;
  for (const uint8_t f : flags) count += f != 0 ? 1 : 0;
  // The events that only a speedup or a delay changed, each once.
  std::vector<uint32_t> others;
  const auto unflagged = [&](uint32_t e) { return flags.empty() || flags[e] == 0; };
  for (const auto& [event, delay] : delays) {
    if (unflagged(event)) others.push_back(event);
  }
  for (const auto& [event, speedup] : SpeedupPerEvent(scales)) {
    if (unflagged(event)) others.push_back(event);
  }
  std::sort(others.begin(), others.end());
  return count + static_cast<size_t>(std::unique(others.begin(), others.end()) - others.begin());
}

void GraphEdit::Merge(const StepGraph& graph, const GraphEdit& other) {
  if (other.empty()) return;
  if (!other.flags.empty()) {
    if (flags.empty()) flags.assign(graph.events(), 0);
    for (uint32_t e = 0; e < other.flags.size(); ++e) {
      const uint8_t joined = flags[e] | other.flags[e];
      touched_ = touched_ || joined != flags[e];
      flags[e] = joined;
    }
  }
  // Each event's speedup joins as one factor, so that this edit's product is the product of the
  // merged edits' speedups in merge order, whatever the number of factors each had.
  for (const auto& entry : SpeedupPerEvent(other.scales)) {
    touched_ = true;
    scales.push_back(entry);
  }
  // Every entry of `other` is shorter than the graph's delay: it changes an edit that changed
  // nothing, and the least entry wins in one that did.
  touched_ = touched_ || !other.delays.empty();
  delays.insert(delays.end(), other.delays.begin(), other.delays.end());
}

ReplayScratch::ReplayScratch(const StepGraph& graph, const WindowSlots& slots)
    : graph_(graph), slots_(slots) {
  times_.reserve(slots.events.size());
  delay_.reserve(slots.events.size());
  for (const uint32_t e : slots.events) {
    times_.push_back(graph.time[e]);
    delay_.push_back(graph.delay[e]);
  }
}

void ReplayScratch::Apply(const GraphEdit& edit) {
  for (const auto& [event, delay] : edit.delays) {
    const uint32_t slot = slots_.slot_of[event];
    if (slot != WindowSlots::kNone) delay_[slot] = std::min(delay_[slot], delay);
  }
  if (!edit.scales.empty() && scale_.empty()) scale_.assign(slots_.events.size(), 1.0);
  for (const auto& [event, factor] : edit.scales) {
    const uint32_t slot = slots_.slot_of[event];
    if (slot != WindowSlots::kNone) scale_[slot] *= factor;
  }
}

void ReplayScratch::Restore(const GraphEdit& edit) {
  for (const auto& [event, delay] : edit.delays) {
    const uint32_t slot = slots_.slot_of[event];
    if (slot != WindowSlots::kNone) delay_[slot] = graph_.delay[event];
  }
  for (const auto& [event, factor] : edit.scales) {
    const uint32_t slot = slots_.slot_of[event];
    if (slot != WindowSlots::kNone) scale_[slot] = 1.0;
  }
}

void ReplayScratch::PutBack(const std::vector<uint32_t>& events) {
  for (const uint32_t e : events) times_[slots_.slot_of[e]] = graph_.time[e];
}

void ReplayScratch::Replay(const GraphEdit& edit, const std::vector<uint32_t>& events) {
  const StepGraph& graph = graph_;
  const bool has_flags = !edit.flags.empty();
  const bool has_scale = !scale_.empty();
  for (const uint32_t e : events) {
    const uint32_t slot = slots_.slot_of[e];
    const uint8_t flags = has_flags ? edit.flags[e] : 0;
    const double scale = has_scale ? scale_[slot] : 1.0;
    int64_t base = INT64_MIN;
    bool any = false;
    for (uint32_t k = graph.in_begin[e]; k < graph.in_end[e]; ++k) {
      const Edge& edge = graph.edges[k];
      if (edge.weight == kDroppedWeight) continue;
      int64_t weight = edge.weight;
      switch (edge.kind) {
        case EdgeKind::kGraph:
          if ((flags & kGraphLaunch) == 0) continue;
          break;
        case EdgeKind::kLaunch:
          if ((flags & kGraphLaunch) != 0) continue;
          break;
        case EdgeKind::kWait:
          if ((flags & kNoWait) != 0) continue;
          break;
        case EdgeKind::kHost:
          if ((flags & kFreeHost) != 0) weight = 0;
          break;
        case EdgeKind::kDuration:
        case EdgeKind::kArrival:
          // A late rank on time: its own arrival releases nothing, the others' do.
          if (edge.kind == EdgeKind::kDuration && (flags & kOnTime) != 0) continue;
          if (edge.kind == EdgeKind::kArrival && has_flags &&
              (edit.flags[edge.from] & kLateStart) != 0) {
            continue;
          }
          if (scale != 1.0) weight = std::llround(static_cast<double>(weight) / scale);
          break;
        case EdgeKind::kStream:
        case EdgeKind::kOther:
          if ((flags & kNoCommWait) != 0 && graph.collective[edge.from] != 0) continue;
          break;
      }
      base = std::max(base, time(edge.from) + weight);
      any = true;
    }
    times_[slot] = any ? base + delay_[slot] : graph.time[e];
  }
}

}  // namespace tensormorph::whatif
