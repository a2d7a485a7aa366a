#include "analysis/timeline/launch_latency.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace tensormorph {
namespace {

constexpr size_t kTopLaunchBound = 5;

}  // namespace

int64_t NearestRankPercentile(const std::vector<int64_t>& sorted, double percent) {
  if (sorted.empty()) return 0;
  const double rank = std::ceil(percent / 100.0 * static_cast<double>(sorted.size()));
  const size_t index = rank < 1 ? 0 : std::min(sorted.size(), static_cast<size_t>(rank)) - 1;
  return sorted[index];
}

namespace {

LatencyPercentiles PercentilesOf(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  LatencyPercentiles out;
  out.p50_ns = NearestRankPercentile(values, 50);
  out.p90_ns = NearestRankPercentile(values, 90);
  out.p99_ns = NearestRankPercentile(values, 99);
  out.max_ns = values.empty() ? 0 : values.back();
  return out;
}

}  // namespace

LaunchLatency MeasureLaunchLatency(const Trace& trace, const TraceLinks& links,
                                   const std::vector<WorkItem>& work) {
  LaunchLatency out;
  std::vector<int64_t> delays, overheads, queues;
  std::map<StringId, NameCount> bound_by_name;
  std::map<uint32_t, GraphLaunch> graphs;  // by launch call row
  for (const WorkItem& w : work) {
    if (w.kind != WorkKind::kKernel || w.row >= links.kernels.size()) continue;
    const WorkLink& link = links.kernels[w.row];
    if (link.launch >= trace.api_calls.size()) continue;
    const ApiCall& call = trace.api_calls[link.launch];
    const Kernel& kernel = trace.kernels[w.row];
    if (link.graph) {
      ++out.graph_kernels;
      auto [it, added] = graphs.try_emplace(link.launch);
      GraphLaunch& g = it->second;
      const int64_t end = kernel.start_ns + kernel.duration_ns;
      if (added) {
        g.call_start_ns = call.start_ns;
        g.call_ns = call.duration_ns;
        g.first_start_ns = kernel.start_ns;
        g.span_ns = kernel.duration_ns;
      }
      const int64_t last_end = std::max(g.first_start_ns + g.span_ns, end);
      g.first_start_ns = std::min(g.first_start_ns, kernel.start_ns);
      g.span_ns = last_end - g.first_start_ns;
      ++g.kernels;
      g.kernel_ns += kernel.duration_ns;
      continue;
    }
    delays.push_back(kernel.start_ns - call.start_ns);
    overheads.push_back(call.duration_ns);
    queues.push_back(std::max<int64_t>(0, kernel.start_ns - (call.start_ns + call.duration_ns)));
    if (kernel.duration_ns < call.duration_ns) {
      ++out.launch_bound_count;
      out.launch_bound_ns += kernel.duration_ns;
      out.launch_bound_call_ns += call.duration_ns;
      NameCount& n = bound_by_name[kernel.name];
      ++n.count;
      n.total_ns += kernel.duration_ns;
    }
  }
  out.count = delays.size();
  const LatencyPercentiles delay = PercentilesOf(std::move(delays));
  out.p50_ns = delay.p50_ns;
  out.p90_ns = delay.p90_ns;
  out.p99_ns = delay.p99_ns;
  out.max_ns = delay.max_ns;
  out.overhead = PercentilesOf(std::move(overheads));
  out.queue = PercentilesOf(std::move(queues));
  std::vector<int64_t> graph_calls, graph_spans;
  for (auto& [row, g] : graphs) {
    out.graph_launches.push_back(g);
    graph_calls.push_back(g.call_ns);
    graph_spans.push_back(g.span_ns);
  }
  out.graph_call = PercentilesOf(std::move(graph_calls));
  out.graph_span = PercentilesOf(std::move(graph_spans));
  std::stable_sort(
      out.graph_launches.begin(), out.graph_launches.end(),
      [](const GraphLaunch& a, const GraphLaunch& b) { return a.call_start_ns < b.call_start_ns; });
  for (auto& [name, n] : bound_by_name) {
    n.name = std::string(trace.str(name));
    out.launch_bound.push_back(std::move(n));
  }
  std::stable_sort(out.launch_bound.begin(), out.launch_bound.end(),
                   [](const NameCount& a, const NameCount& b) {
                     if (a.count != b.count) return a.count > b.count;
                     if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
                     return a.name < b.name;
                   });
  if (out.launch_bound.size() > kTopLaunchBound) out.launch_bound.resize(kTopLaunchBound);
  return out;
}

}  // namespace tensormorph
