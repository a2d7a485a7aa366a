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

LaunchLatency MeasureLaunchLatency(const Trace& trace, const TraceLinks& links,
                                   const std::vector<WorkItem>& work) {
  LaunchLatency out;
  std::vector<int64_t> latencies;
  std::map<StringId, NameCount> bound_by_name;
  for (const WorkItem& w : work) {
    if (w.kind != WorkKind::kKernel || w.row >= links.kernels.size()) continue;
    const uint32_t launch = links.kernels[w.row].launch;
    if (launch >= trace.api_calls.size()) continue;
    const ApiCall& call = trace.api_calls[launch];
    const Kernel& kernel = trace.kernels[w.row];
    latencies.push_back(kernel.start_ns - call.start_ns);
    if (kernel.duration_ns < call.duration_ns) {
      ++out.launch_bound_count;
      out.launch_bound_ns += kernel.duration_ns;
      NameCount& n = bound_by_name[kernel.name];
      ++n.count;
      n.total_ns += kernel.duration_ns;
    }
  }
  std::sort(latencies.begin(), latencies.end());
  out.count = latencies.size();
  out.p50_ns = NearestRankPercentile(latencies, 50);
  out.p90_ns = NearestRankPercentile(latencies, 90);
  out.p99_ns = NearestRankPercentile(latencies, 99);
  out.max_ns = latencies.empty() ? 0 : latencies.back();
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
