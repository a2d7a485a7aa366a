#include "tensormorph/analysis/roofline.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/ranking.h"
#include "analysis/roofline_ops.h"
#include "tensormorph/analysis/kernels.h"

namespace tensormorph {
namespace {

// The vector peaks of the counter precisions (fp16's is never used: see ResolvePeaks); the tensor
// pipe's depends on its source precision (PeakMetricsFor).
constexpr Metric kPeakMetric[kCounterPrecisionCount] = {
    Metric::kFp64FlopsPerS, Metric::kFp32FlopsPerS, Metric::kFp32FlopsPerS,
    Metric::kFp16MatrixFlopsPerS};
constexpr int kTensor = static_cast<int>(CounterPrecision::kTensor);

// A mean of percentages weighted by launch duration; the plain mean when every duration is 0.
struct PercentMean {
  double weighted = 0, weight = 0, sum = 0;
  uint64_t n = 0;
  void Add(std::optional<double> percent, int64_t duration_ns) {
    if (!percent) return;
    weighted += *percent * static_cast<double>(duration_ns);
    weight += static_cast<double>(duration_ns);
    sum += *percent;
    ++n;
  }
  std::optional<double> Value() const {
    if (n == 0) return std::nullopt;
    return weight > 0 ? weighted / weight : sum / static_cast<double>(n);
  }
};

struct Group {
  RooflineRow row;
  PercentMean sm_throughput, memory_throughput;
  const Trace* trace = nullptr;
  uint32_t device = kNoDevice;
  // Launches with totals.
  std::array<std::optional<double>, kCounterPrecisionCount> flops;
  double dram_bytes = 0;
  int64_t time_ns = 0;
  uint64_t total_launches = 0;
  // Launches with rates only (no duration): averaged with equal weights.
  std::array<std::optional<double>, kCounterPrecisionCount> flops_per_s;
  double bytes_per_s = 0;
  uint64_t rate_launches = 0;
  int64_t rate_time_ns = 0;
  MeasuredPeaks measured;
  bool has_measured = false;
  bool from_rates = false;
  Precision tensor_precision = Precision::kUnknown;  // of the first launch with tensor ops
};

void AddOptional(std::optional<double>& sum, std::optional<double> value) {
  if (value) sum = sum.value_or(0) + *value;
}

int Dominant(const std::array<std::optional<double>, kCounterPrecisionCount>& flops) {
  // Ties (all zero) go to fp32, the usual precision of CUDA cores, then fp64, then fp16.
  int best = -1;
  for (int p : {1, 0, 2, 3}) {
    if (flops[p] && (best < 0 || *flops[p] > *flops[best])) best = p;
  }
  return best;
}

bool AnyFlops(const LaunchWork& w) {
  for (int p = 0; p < kCounterPrecisionCount; ++p) {
    if (w.flops[p] || w.flops_per_s[p]) return true;
  }
  return false;
}

// Peak FLOP/s of `p` and memory bandwidth for the group's device, with where they come from.
void ResolvePeaks(const Group& g, int p, const std::vector<DeviceSpec>& devices, RooflineRow* row) {
  if (g.has_measured && g.measured.flops_per_s[p] && g.measured.dram_bytes_per_s) {
    row->peak_flops_per_s = g.measured.flops_per_s[p];
    row->peak_bytes_per_s = g.measured.dram_bytes_per_s;
    row->peak_source = g.measured.source;
    return;
  }
  if (p == kTensor) {
    if (g.tensor_precision == Precision::kUnknown) {
      row->no_ceiling_reason = "tensor-pipe operations of an unknown source precision";
      return;
    }
    for (Metric metric : PeakMetricsFor(g.tensor_precision)) {
      RooflineRow attempt = *row;
      ResolveDatabasePeaks(*g.trace, g.device, metric, devices, &attempt);
      *row = std::move(attempt);
      if (row->peak_flops_per_s) return;
    }
    return;
  }
  if (p == static_cast<int>(CounterPrecision::kFp16)) {
    // The table's 16-bit figures are tensor-core rates; HFMA on the CUDA cores has none.
    const Device* d = g.device < g.trace->devices.size() ? &g.trace->devices[g.device] : nullptr;
    const DeviceMatch match = d ? MatchTraceDevice(devices, *d) : DeviceMatch{};
    if (match.matched()) {
      row->no_ceiling_reason = fmt::format(
          "{} has no FP16 peak outside the tensor cores in the device database", match.spec->key);
      return;
    }
  }
  ResolveDatabasePeaks(*g.trace, g.device, kPeakMetric[p], devices, row);
}

// The Speed Of Light verdict over the launches that measured both throughputs.
void ApplySpeedOfLight(const Group& g, RooflineRow* row) {
  row->sm_throughput_percent = g.sm_throughput.Value();
  row->memory_throughput_percent = g.memory_throughput.Value();
  if (!row->sm_throughput_percent || !row->memory_throughput_percent) return;
  const double sm = *row->sm_throughput_percent, memory = *row->memory_throughput_percent;
  row->bound = std::max(sm, memory) < kLatencyThroughputPercent ? Bound::kLatency
               : memory >= sm                                   ? Bound::kMemory
                                                                : Bound::kCompute;
  row->bound_source = "speed_of_light";
}

// A row of launches with DRAM bytes and a duration but no FLOP counts: bandwidth only.
void FinishBandwidth(Group& g, const std::vector<DeviceSpec>& devices) {
  RooflineRow& row = g.row;
  row.precision = Precision::kUnknown;  // no FLOPs of any precision
  row.count = g.total_launches;
  row.total_ns = g.time_ns;
  row.dram_bytes = g.dram_bytes;
  if (g.time_ns > 0) row.achieved_bytes_per_s = g.dram_bytes / (g.time_ns * 1e-9);
  ResolvePeaks(g, static_cast<int>(CounterPrecision::kFp32), devices, &row);
  if (row.achieved_bytes_per_s && row.peak_bytes_per_s && *row.peak_bytes_per_s > 0) {
    row.percent_of_bandwidth = 100 * *row.achieved_bytes_per_s / *row.peak_bytes_per_s;
  }
  // No intensity, so no ceiling and no ridge: only a measured verdict.
  row.peak_flops_per_s.reset();
  ApplySpeedOfLight(g, &row);
}

void Finish(Group& g, const std::vector<DeviceSpec>& devices) {
  RooflineRow& row = g.row;
  const bool use_totals = g.total_launches > 0;
  row.count = use_totals ? g.total_launches : g.rate_launches;
  row.from_rates = g.from_rates;
  int p = 0;
  std::optional<double> achieved_flops, achieved_bytes;
  if (use_totals) {
    p = Dominant(g.flops);
    row.total_ns = g.time_ns;
    row.flops = g.flops[p];
    row.dram_bytes = g.dram_bytes;
    row.arithmetic_intensity = g.dram_bytes > 0 ? *g.flops[p] / g.dram_bytes : 0;
    if (g.time_ns > 0) {
      achieved_flops = *g.flops[p] / (g.time_ns * 1e-9);
      achieved_bytes = g.dram_bytes / (g.time_ns * 1e-9);
    }
  } else {
    // Only rates: ncu gave no duration, so the launches cannot be time-weighted.
    p = Dominant(g.flops_per_s);
    row.total_ns = g.rate_time_ns;
    achieved_flops = *g.flops_per_s[p] / g.rate_launches;
    achieved_bytes = g.bytes_per_s / g.rate_launches;
    row.arithmetic_intensity = *achieved_bytes > 0 ? *achieved_flops / *achieved_bytes : 0;
  }
  row.precision = p == kTensor ? g.tensor_precision : ToPrecision(static_cast<CounterPrecision>(p));
  row.achieved_flops_per_s = achieved_flops;
  row.achieved_bytes_per_s = achieved_bytes;
  ResolvePeaks(g, p, devices, &row);
  ApplyCeiling(&row);
  ApplySpeedOfLight(g, &row);
}

}  // namespace

const char* BoundName(Bound bound) {
  switch (bound) {
    case Bound::kMemory:
      return "memory";
    case Bound::kCompute:
      return "compute";
    case Bound::kLatency:
      return "latency";
  }
  return "unknown";
}

void ResolveDatabasePeaks(const Trace& trace, uint32_t device, Metric peak_metric,
                          const std::vector<DeviceSpec>& devices, RooflineRow* row) {
  if (device >= trace.devices.size()) {
    row->no_ceiling_reason = "the trace does not say which device ran the kernel";
    return;
  }
  const Device& d = trace.devices[device];
  // An unnamed device is matched by its hardware alone when the trace reports all of it.
  const DeviceMatch match = MatchTraceDevice(devices, d);
  if (!match.matched() && d.name.empty()) {
    row->no_ceiling_reason = fmt::format(
        "{} (an Nsight Compute details page names none; export --page raw, which carries "
        "device__attribute_display_name), and it measured no peaks",
        match.reason);
    return;
  }
  if (!match.matched()) {
    row->no_ceiling_reason =
        fmt::format("device '{}' not in the device database: {}; add it with --device-spec", d.name,
                    match.reason);
    return;
  }
  const DeviceSpec& spec = *match.spec;
  const std::optional<Figure>& flops = spec.Get(peak_metric);
  const std::optional<Figure>& bandwidth = spec.Get(Metric::kMemoryBandwidthBytesPerS);
  if (!flops || !bandwidth) {
    row->no_ceiling_reason =
        fmt::format("{} has no {} figure", spec.key,
                    MetricName(!flops ? peak_metric : Metric::kMemoryBandwidthBytesPerS));
    return;
  }
  // Figures are for the whole package; the runtime shows each GCD of an MI250 as a device.
  const double per_device = std::max(spec.devices_per_package, 1);
  row->peak_flops_per_s = flops->value / per_device;
  row->peak_bytes_per_s = bandwidth->value / per_device;
  const bool from_spec_file =
      flops->confidence == Confidence::kSpecFile || bandwidth->confidence == Confidence::kSpecFile;
  row->peak_source = fmt::format("{}: {}", from_spec_file ? "device spec" : "database", spec.key);
}

void ApplyCeiling(RooflineRow* row) {
  if (!row->peak_flops_per_s || !row->peak_bytes_per_s || *row->peak_bytes_per_s <= 0) return;
  row->ceiling_flops_per_s =
      std::min(*row->peak_flops_per_s, row->arithmetic_intensity * *row->peak_bytes_per_s);
  const double ridge = *row->peak_flops_per_s / *row->peak_bytes_per_s;
  row->memory_bound = row->arithmetic_intensity < ridge;
  row->bound = *row->memory_bound ? Bound::kMemory : Bound::kCompute;
  row->bound_source = "intensity";
  if (row->achieved_flops_per_s && *row->ceiling_flops_per_s > 0) {
    row->percent_of_roof = 100 * *row->achieved_flops_per_s / *row->ceiling_flops_per_s;
  }
  if (row->count > 0 && row->total_ns > 0 &&
      row->total_ns / static_cast<int64_t>(row->count) < kLatencyFloorNs) {
    row->bound = Bound::kLatency;
    row->bound_source = "launch_duration";
  } else if (row->achieved_flops_per_s && row->achieved_bytes_per_s && *row->peak_flops_per_s > 0 &&
             100 * *row->achieved_flops_per_s / *row->peak_flops_per_s < kLatencyRoofPercent &&
             100 * *row->achieved_bytes_per_s / *row->peak_bytes_per_s < kLatencyRoofPercent) {
    row->bound = Bound::kLatency;
    row->bound_source = "below_both_roofs";
  }
}

RooflineResult AnalyzeRoofline(const std::vector<const LinkedTrace*>& traces,
                               const RooflineQuery& query) {
  const std::vector<DeviceSpec>& devices = query.devices ? *query.devices : BuiltInDevices();
  RooflineResult result;
  std::map<std::string, uint64_t> skipped;
  std::map<std::tuple<std::string, Backend, std::string>, Group> groups;
  std::map<std::tuple<std::string, Backend, std::string>, Group> bandwidth_groups;
  for (const LinkedTrace* linked : traces) {
    const Trace* trace = &linked->trace();
    if (trace->kernel_counters.empty()) {
      // No hardware counters: estimate from framework op shapes where the trace recorded them.
      result.kernel_count += trace->kernels.size();
      AddOpShapeRows(*linked, devices, &result.rows, &skipped);
      continue;
    }
    std::vector<const KernelCounters*> counters(trace->kernels.size(), nullptr);
    for (const KernelCounters& c : trace->kernel_counters) {
      if (c.kernel < counters.size()) counters[c.kernel] = &c;
    }
    for (size_t i = 0; i < trace->kernels.size(); ++i) {
      const Kernel& k = trace->kernels[i];
      ++result.kernel_count;
      if (counters[i] == nullptr) {
        ++skipped[kNoCountersReason];
        continue;
      }
      const LaunchWork w = ReadLaunchWork(*trace, *counters[i], k.duration_ns);
      const bool flops = AnyFlops(w);
      const bool bytes = w.dram_bytes || w.dram_bytes_per_s;
      // DRAM bytes over a known duration without FLOP counts still place the kernel against
      // the bandwidth roof.
      const bool bandwidth_only = !flops && w.dram_bytes && k.duration_ns > 0;
      if ((!flops || !bytes) && !bandwidth_only) {
        ++skipped[!flops && !bytes ? kNoCountersReason : !flops ? kNoFlopsReason : kNoDramReason];
        continue;
      }
      const Backend backend =
          k.device < trace->devices.size() ? trace->devices[k.device].backend : Backend::kOther;
      std::string name(trace->str(k.name));
      std::string device = DeviceLabel(*trace, k.device, false);
      Group& g = (bandwidth_only ? bandwidth_groups : groups)[{name, backend, device}];
      g.sm_throughput.Add(counters[i]->sm_throughput_percent, k.duration_ns);
      g.memory_throughput.Add(counters[i]->memory_throughput_percent, k.duration_ns);
      if (g.trace == nullptr) {
        g.trace = trace;
        g.device = k.device;
        g.row.name = std::move(name);
        g.row.backend = backend;
        g.row.device = std::move(device);
      }
      g.from_rates |= w.from_rates;
      if (w.flops[kTensor] && g.tensor_precision == Precision::kUnknown) {
        g.tensor_precision = TensorSourcePrecision(*trace, *counters[i]);
      }
      if (!g.has_measured) {
        g.measured = ReadMeasuredPeaks(*trace, *counters[i]);
        // Else peaks the importer measured on the device (rocprof-compute roofline.csv).
        if (!g.measured.dram_bytes_per_s && k.device < trace->devices.size()) {
          g.measured = DeviceMeasuredPeaks(*trace, trace->devices[k.device], g.tensor_precision);
        }
        g.has_measured = g.measured.dram_bytes_per_s.has_value();
      }
      if (w.dram_bytes) {
        for (int p = 0; p < kCounterPrecisionCount; ++p) AddOptional(g.flops[p], w.flops[p]);
        g.dram_bytes += *w.dram_bytes;
        g.time_ns += k.duration_ns;
        ++g.total_launches;
      } else {
        for (int p = 0; p < kCounterPrecisionCount; ++p)
          AddOptional(g.flops_per_s[p], w.flops_per_s[p]);
        g.bytes_per_s += *w.dram_bytes_per_s;
        g.rate_time_ns += k.duration_ns;
        ++g.rate_launches;
      }
    }
  }
  for (auto& [key, g] : groups) {
    // A group with totals cannot weigh launches that have only rates: they are left out.
    if (g.total_launches > 0 && g.rate_launches > 0) {
      skipped[kRatesWithoutTimeReason] += g.rate_launches;
    }
    Finish(g, devices);
    result.rows.push_back(std::move(g.row));
  }
  for (auto& [key, g] : bandwidth_groups) {
    FinishBandwidth(g, devices);
    result.rows.push_back(std::move(g.row));
  }
  result.row_count_before_top = RankByTotalTime(&result.rows, query.top);
  for (auto& [reason, count] : skipped) result.skipped.push_back({reason, count});
  return result;
}

}  // namespace tensormorph
