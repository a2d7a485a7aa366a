#include "tensormorph/analysis/kernels.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/ranking.h"

namespace tensormorph {
namespace {

struct GroupKey {
  int input;
  Backend backend;
  std::string label;
  bool operator<(const GroupKey& o) const {
    return std::tie(input, backend, label) < std::tie(o.input, o.backend, o.label);
  }
};

bool DeviceMatches(const Trace& trace, uint32_t device, const std::string& filter) {
  if (filter.empty()) return true;
  if (device >= trace.devices.size()) return false;
  const Device& d = trace.devices[device];
  // A number names an ordinal or a trace id; anything else is looked for in the label.
  if (std::all_of(filter.begin(), filter.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return filter == std::to_string(d.index) || filter == std::to_string(d.trace_id);
  }
  return DeviceLabel(trace, device, true).find(filter) != std::string::npos;
}

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

}  // namespace

uint32_t BusiestDevice(const Trace& trace) {
  // Summed as doubles: no overflow whatever the durations, and exact to 2^53 ns (104 days).
  std::vector<double> ns(trace.devices.size(), 0);
  bool any = false;
  for (const Kernel& k : trace.kernels) {
    if (k.device >= ns.size()) continue;
    ns[k.device] += static_cast<double>(k.duration_ns);
    any = true;
  }
  if (!any) return kNoDevice;
  return static_cast<uint32_t>(std::max_element(ns.begin(), ns.end()) - ns.begin());
}

std::string DeviceLabel(const Trace& trace, uint32_t device, bool with_rank) {
  std::string prefix = with_rank && trace.rank ? fmt::format("rank {} ", *trace.rank) : "";
  if (device >= trace.devices.size()) return prefix + "unknown device";
  const Device& d = trace.devices[device];
  std::string id = d.index >= 0                  ? std::to_string(d.index)
                   : d.backend == Backend::kRocm ? fmt::format("agent{}", d.trace_id)
                                                 : fmt::format("id{}", d.trace_id);
  std::string label = fmt::format("{}{}:{}", prefix, BackendName(d.backend), id);
  if (!d.name.empty()) label += " " + d.name;
  return label;
}

void FillDurationStats(std::vector<int64_t>& durations, KernelRow* row) {
  std::sort(durations.begin(), durations.end());
  const size_t n = durations.size();
  row->count = n;
  if (n == 0) return;
  row->min_ns = durations.front();
  row->max_ns = durations.back();
  __int128 total = 0;
  for (int64_t d : durations) total += d;
  row->total_ns = total > INT64_MAX ? INT64_MAX : static_cast<int64_t>(total);
  row->total_overflows = total > INT64_MAX;
  const long double mean = static_cast<long double>(total) / n;
  row->mean_ns = static_cast<double>(mean);
  row->median_ns = n % 2 == 1
                       ? static_cast<double>(durations[n / 2])
                       : (static_cast<double>(durations[n / 2 - 1]) + durations[n / 2]) / 2.0;
  if (n > 1) {
    long double squares = 0;
    for (int64_t d : durations) squares += (d - mean) * (d - mean);
    row->stddev_ns = static_cast<double>(std::sqrt(squares / (n - 1)));
  }
}

KernelSummary SummarizeKernels(const std::vector<const LinkedTrace*>& traces,
                               const KernelQuery& query) {
  const bool several = traces.size() > 1;
  std::map<GroupKey, std::vector<int64_t>> groups;
  std::map<std::string, std::string> mangled_of;  // shown name -> mangled, for kName rows
  for (size_t input = 0; input < traces.size(); ++input) {
    const Trace& trace = traces[input]->trace();
    const int input_key = query.by_input ? static_cast<int>(input) : -1;
    // Labels are per (name id and backend, or device and stream); cache them so the loop does no
    // formatting. The key keeps both halves whole: stream ids use all 63 bits.
    std::map<std::pair<uint64_t, int64_t>, std::vector<int64_t>*> cache;
    // One slot per device plus one for kernels without a device, which only an empty filter keeps.
    std::vector<char> device_ok(trace.devices.size() + 1, query.device.empty() ? 1 : 0);
    for (uint32_t d = 0; d < trace.devices.size(); ++d) {
      device_ok[d] = DeviceMatches(trace, d, query.device);
    }
    std::unordered_map<StringId, bool> name_ok;  // per name id, when filtering by name
    auto passes_name_filter = [&](StringId name) {
      auto [it, added] = name_ok.try_emplace(name, false);
      if (added) {
        auto mangled = trace.mangled_names.find(name);
        it->second = Contains(trace.str(name), query.name_filter) ||
                     (mangled != trace.mangled_names.end() &&
                      Contains(trace.str(mangled->second), query.name_filter));
      }
      return it->second;
    };
    for (const Kernel& k : trace.kernels) {
      const uint32_t device = std::min<uint32_t>(k.device, trace.devices.size());
      if (!device_ok[device]) continue;
      if (!query.name_filter.empty() && !passes_name_filter(k.name)) continue;
      const Backend backend =
          device < trace.devices.size() ? trace.devices[device].backend : Backend::kOther;
      if (query.backend && backend != *query.backend) continue;
      std::pair<uint64_t, int64_t> cache_key;
      switch (query.group_by) {
        case KernelGrouping::kName:
          cache_key = {k.name, static_cast<int64_t>(backend)};
          break;
        case KernelGrouping::kDevice:
          cache_key = {device, 0};
          break;
        case KernelGrouping::kStream:
          cache_key = {device, k.stream};
          break;
      }
      auto it = cache.find(cache_key);
      if (it == cache.end()) {
        std::string label;
        switch (query.group_by) {
          case KernelGrouping::kName:
            label = std::string(trace.str(k.name));
            if (auto m = trace.mangled_names.find(k.name); m != trace.mangled_names.end()) {
              mangled_of.try_emplace(label, trace.str(m->second));
            }
            break;
          case KernelGrouping::kDevice:
            label = DeviceLabel(trace, device, several);
            break;
          case KernelGrouping::kStream:
            label = fmt::format("{} stream {}", DeviceLabel(trace, device, several), k.stream);
            break;
        }
        it =
            cache.emplace(cache_key, &groups[GroupKey{input_key, backend, std::move(label)}]).first;
      }
      it->second->push_back(k.duration_ns);
    }
  }

  KernelSummary summary;
  for (auto& [key, durations] : groups) {
    KernelRow row;
    row.name = key.label;
    if (query.group_by == KernelGrouping::kName) {
      if (auto m = mangled_of.find(row.name); m != mangled_of.end()) row.mangled_name = m->second;
    }
    row.backend = key.backend;
    row.input = key.input;
    FillDurationStats(durations, &row);
    if (row.total_overflows ||
        __builtin_add_overflow(summary.total_ns, row.total_ns, &summary.total_ns)) {
      summary.total_ns = INT64_MAX;
      summary.total_overflows = true;
    }
    summary.kernel_count += row.count;
    summary.rows.push_back(std::move(row));
    std::vector<int64_t>().swap(durations);
  }
  // Apart, each input's rows are shares of its own kernel time: inputs that are not one job's
  // ranks (another model, another vendor) have no common total.
  std::map<int, int64_t> input_ns;
  for (const KernelRow& row : summary.rows) {
    int64_t& total = input_ns[row.input];
    if (__builtin_add_overflow(total, row.total_ns, &total)) total = INT64_MAX;
  }
  for (KernelRow& row : summary.rows) {
    const int64_t basis = query.by_input ? input_ns[row.input] : summary.total_ns;
    row.percent = basis > 0 ? 100.0 * row.total_ns / basis : 0.0;
  }
  summary.row_count_before_top = RankByTotalTime(&summary.rows, query.top);
  return summary;
}

}  // namespace tensormorph
