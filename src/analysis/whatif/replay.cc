#include "analysis/whatif/replay.h"

#include <algorithm>
#include <cmath>

namespace tensormorph::whatif {

void GraphEdit::Flag(const StepGraph& graph, uint32_t event, uint8_t flag) {
  if (flags.empty()) flags.assign(graph.events(), 0);
  if ((flags[event] & flag) == flag) return;
  touched_ = true;
  flags[event] |= flag;
}

void GraphEdit::Scale(const StepGraph& graph, uint32_t end_event, double factor) {
  if (factor == 1) return;
  if (scale.empty()) scale.assign(graph.events(), 1.0);
  touched_ = true;
  scale[end_event] *= factor;
}

void GraphEdit::CapDelay(const StepGraph& graph, uint32_t event, int64_t delay_ns) {
  if (delay.empty()) delay = graph.delay;
  if (delay_ns >= delay[event]) return;
  touched_ = true;
  delay[event] = delay_ns;
}

size_t GraphEdit::Changed(const StepGraph& graph) const {
  size_t count = 0;
  for (uint32_t e = 0; e < graph.events(); ++e) {
    const bool flagged = !flags.empty() && flags[e] != 0;
    const bool scaled = !scale.empty() && scale[e] != 1.0;
    const bool delayed = !delay.empty() && delay[e] != graph.delay[e];
    if (flagged || scaled || delayed) ++count;
  }
  return count;
}

void GraphEdit::Merge(const StepGraph& graph, const GraphEdit& other) {
  if (other.empty()) return;
  // What Flag, Scale and CapDelay do per event, in loops over the whole graph (millions of
  // events on a 1 GB trace).
  if (!other.flags.empty()) {
    if (flags.empty()) flags.assign(graph.events(), 0);
    for (uint32_t e = 0; e < other.flags.size(); ++e) {
      const uint8_t joined = flags[e] | other.flags[e];
      touched_ = touched_ || joined != flags[e];
      flags[e] = joined;
    }
  }
  if (!other.scale.empty()) {
    if (scale.empty()) scale.assign(graph.events(), 1.0);
    for (uint32_t e = 0; e < other.scale.size(); ++e) {
      if (other.scale[e] == 1.0) continue;
      touched_ = true;
      scale[e] *= other.scale[e];
    }
  }
  if (!other.delay.empty()) {
    if (delay.empty()) delay = graph.delay;
    for (uint32_t e = 0; e < other.delay.size(); ++e) {
      if (other.delay[e] >= delay[e]) continue;
      touched_ = true;
      delay[e] = other.delay[e];
    }
  }
}

void ReplayEvents(const StepGraph& graph, const GraphEdit& edit,
                  const std::vector<uint32_t>& events, std::vector<int64_t>* times) {
  std::vector<int64_t>& t = *times;
  const bool has_flags = !edit.flags.empty();
  const bool has_scale = !edit.scale.empty();
  const std::vector<int64_t>& delay = edit.delay.empty() ? graph.delay : edit.delay;
  for (const uint32_t e : events) {
    const uint8_t flags = has_flags ? edit.flags[e] : 0;
    const double scale = has_scale ? edit.scale[e] : 1.0;
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
      base = std::max(base, t[edge.from] + weight);
      any = true;
    }
    t[e] = any ? base + delay[e] : graph.time[e];
  }
}

}  // namespace tensormorph::whatif
