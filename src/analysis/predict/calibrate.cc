// Calibrate (calibration.h): floors, fractions of roof and category ratios from real traces.

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <string>
#include <tuple>

#include "analysis/predict/calibrate_internal.h"
#include "analysis/predict/roof_time.h"
#include "tensormorph/analysis/compare/compare.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/predict/calibration.h"

namespace tensormorph {
namespace {

// Two traces are one workload when compare matches at least this share of each side's kernel
// time (the TraceLens pairs: 100 %; two different models share a handful of elementwise shapes).
constexpr double kPairMatchedShare = 0.5;
constexpr double kFloorPercentile = 0.05;

struct TraceSource {
  const LinkedTrace* linked = nullptr;
  const DeviceSpec* spec = nullptr;
  uint32_t device = kNoDevice;  // the busiest device
  std::string family;
};

StatusOr<TraceSource> SourceOf(const LinkedTrace& linked, const std::vector<DeviceSpec>& devices) {
  const Trace& trace = linked.trace();
  TraceSource source;
  source.linked = &linked;
  source.device = BusiestDevice(trace);
  if (trace.kernels.empty() || source.device == kNoDevice) {
    return UnreadableInput(trace.path + ": no kernels on a device to calibrate on");
  }
  const Device& device = trace.devices[source.device];
  const DeviceMatch match = MatchTraceDevice(devices, device);
  if (!match.matched()) {
    return UnreadableInput(trace.path + ": device \"" + device.name +
                           "\" is not in the device database (" + match.reason +
                           "); a calibration never borrows another device's figures: add it with "
                           "--device-spec");
  }
  source.spec = match.spec;
  source.family = DeviceFamily(*match.spec);
  return source;
}

// The fixed cost and the fraction of roof of one (family, category), from the rows of the family's
// traces (calibration.h).
struct ClassRows {
  std::vector<std::pair<double, uint64_t>> latency;  // (time per kernel, kernels) of latency rows
  std::vector<std::array<double, 3>> rows;           // (kernels, roof time, device time)
  int64_t device_ns = 0;
  double roof_ns = 0;

  void Add(double kernels, double roof, int64_t time_ns) {
    const auto time = static_cast<double>(time_ns);
    if (roof / kernels < kLatencyRoofNs) {
      latency.emplace_back(time / kernels, static_cast<uint64_t>(kernels));
    }
    rows.push_back({kernels, roof, time});
    device_ns += time_ns;
    roof_ns += roof;
  }
};

uint64_t KernelsOf(const std::vector<std::pair<double, uint64_t>>& latency) {
  uint64_t n = 0;
  for (const auto& [ns, kernels] : latency) n += kernels;
  return n;
}

// The kernel-weighted median of the time per kernel.
double WeightedMedian(std::vector<std::pair<double, uint64_t>> latency) {
  std::sort(latency.begin(), latency.end());
  const uint64_t half = (KernelsOf(latency) + 1) / 2;
  uint64_t seen = 0;
  for (const auto& [ns, kernels] : latency) {
    seen += kernels;
    if (seen >= half) return ns;
  }
  return latency.empty() ? 0 : latency.back().first;
}

// 1 / fraction_of_roof, with the fixed cost given: least squares on the relative error,
// minimize sum((kernels * kernel_ns + roof * b - time) / time)^2 over b >= 1.
double InverseFraction(const ClassRows& c, double kernel_ns) {
  double s12 = 0, s22 = 0, s2 = 0;
  for (const auto& [kernels, roof, time] : c.rows) {
    const double x1 = kernels / time, x2 = roof / time;
    s12 += x1 * x2;
    s22 += x2 * x2;
    s2 += x2;
  }
  if (!(s22 > 0)) return 1;
  return std::max(1.0, (s2 - kernel_ns * s12) / s22);
}

}  // namespace

std::string DeviceFamily(const DeviceSpec& spec) {
  if (spec.backend == Backend::kCpu) return "cpu";
  return spec.architecture.empty() ? spec.key : spec.architecture;
}

const FamilyCalibration* Calibration::Family(std::string_view family) const {
  for (const FamilyCalibration& f : families) {
    if (f.family == family) return &f;
  }
  return nullptr;
}

const PredictionInterval* Calibration::Interval(WorkCategory category, bool small) const {
  const std::string_view size = small ? "small" : "large";
  const PredictionInterval* pooled = nullptr;
  for (const PredictionInterval& i : intervals) {
    if (i.size != size || i.rows < kMinIntervalRows) continue;
    if (i.category == WorkCategoryName(category)) return &i;
    if (i.category == "all") pooled = &i;
  }
  return pooled;
}

const CategoryRatio* Calibration::Ratio(std::string_view from, std::string_view to,
                                        WorkCategory category) const {
  for (const CategoryRatio& r : ratios) {
    if (r.from == from && r.to == to && r.category == category) return &r;
  }
  return nullptr;
}

StatusOr<Calibration> Calibrate(const std::vector<const LinkedTrace*>& traces,
                                const std::vector<DeviceSpec>& devices) {
  return CalibrateOn(traces, devices, true);
}

StatusOr<Calibration> CalibrateOn(const std::vector<const LinkedTrace*>& traces,
                                  const std::vector<DeviceSpec>& devices, bool intervals) {
  Calibration calibration;
  std::vector<TraceSource> sources;
  for (const LinkedTrace* linked : traces) {
    TM_ASSIGN_OR_RETURN(TraceSource source, SourceOf(*linked, devices));
    sources.push_back(std::move(source));
    const TraceSource& s = sources.back();
    CalibrationSource out;
    out.path = linked->trace().path;
    out.device = linked->trace().devices[s.device].name;
    out.database_key = s.spec->key;
    out.family = s.family;
    for (const Kernel& k : linked->trace().kernels) out.kernel_ns += k.duration_ns;
    calibration.sources.push_back(std::move(out));
  }

  // Floors: the kernels of each family's busiest devices.
  std::map<std::string, std::vector<int64_t>> durations;
  std::map<std::string, std::vector<std::string>> family_devices;
  for (const TraceSource& s : sources) {
    std::vector<int64_t>& d = durations[s.family];
    for (const Kernel& k : s.linked->trace().kernels) {
      if (k.device == s.device) d.push_back(k.duration_ns);
    }
    family_devices[s.family].push_back(s.spec->key);
  }
  for (auto& [family, d] : durations) {
    FamilyCalibration f;
    f.family = family;
    f.devices = family_devices[family];
    std::sort(f.devices.begin(), f.devices.end());
    f.devices.erase(std::unique(f.devices.begin(), f.devices.end()), f.devices.end());
    f.kernels = d.size();
    const auto at = static_cast<size_t>(kFloorPercentile * static_cast<double>(d.size() - 1));
    std::nth_element(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(at), d.end());
    f.kernel_floor_ns = d[at];
    calibration.families.push_back(std::move(f));
  }

  // Fixed costs and fractions of roof: each trace's own op rows against its own device.
  std::map<std::pair<std::string, size_t>, ClassRows> classes;
  for (const TraceSource& s : sources) {
    CompareQuery query;
    query.devices = &devices;
    query.side_headers = false;
    const CompareResult rows = CompareTraces({s.linked}, query);
    for (const CompareRow& row : rows.rows) {
      const std::optional<CompareCell>& cell = row.sides[0];
      if (!cell || !cell->flops || !cell->bytes || cell->device_index != s.device) continue;
      if (cell->flops_device_ns != cell->device_ns || cell->device_ns <= 0 || cell->kernels == 0) {
        continue;
      }
      const std::optional<RoofTime> roof =
          RoofTimeOn(*s.spec, cell->precision, *cell->flops, *cell->bytes);
      if (!roof || !(roof->ns() > 0)) continue;
      classes[{s.family, static_cast<size_t>(row.category)}].Add(static_cast<double>(cell->kernels),
                                                                 roof->ns(), cell->device_ns);
    }
  }
  for (FamilyCalibration& f : calibration.families) {
    std::vector<std::pair<double, uint64_t>> family_latency;
    for (const auto& [at, c] : classes) {
      if (at.first == f.family) {
        family_latency.insert(family_latency.end(), c.latency.begin(), c.latency.end());
      }
    }
    for (const auto& [at, c] : classes) {
      if (at.first != f.family) continue;
      CategoryEfficiency e;
      if (KernelsOf(c.latency) >= kLatencyMinKernels) {
        e.kernel_ns = WeightedMedian(c.latency);
        e.latency_kernels = KernelsOf(c.latency);
      } else if (KernelsOf(family_latency) >= kLatencyMinKernels) {
        e.kernel_ns = WeightedMedian(family_latency);
        e.kernel_ns_from = "family";
        e.latency_kernels = KernelsOf(family_latency);
      } else {
        e.kernel_ns = static_cast<double>(f.kernel_floor_ns);
        e.kernel_ns_from = "floor";
      }
      e.fraction_of_roof = 1 / InverseFraction(c, e.kernel_ns);
      e.rows = c.rows.size();
      e.device_ns = c.device_ns;
      e.roof_ns = c.roof_ns;
      f.efficiency[at.second] = e;
    }
  }

  // Category ratios and kernel counts over the pairs of traces of one workload on two families.
  std::map<std::tuple<std::string, std::string, size_t>, CategoryRatio> ratios;
  for (size_t i = 0; i < sources.size(); ++i) {
    for (size_t j = i + 1; j < sources.size(); ++j) {
      if (sources[i].family == sources[j].family) continue;
      CompareQuery query;
      query.devices = &devices;
      query.side_headers = false;
      const CompareResult pair = CompareTraces({sources[i].linked, sources[j].linked}, query);
      auto share = [](const CompareSide& side) {
        return side.kernel_ns > 0 ? static_cast<double>(side.matched_kernel_ns) /
                                        static_cast<double>(side.kernel_ns)
                                  : 0.0;
      };
      const double matched = std::min(share(pair.sides[0]), share(pair.sides[1]));
      if (matched < kPairMatchedShare) continue;
      calibration.pairs.push_back({i, j, matched});
      // work[c][from]: {time past the floors on `from`, on the other side}, both with the
      // kernel count of `from` (the one a prediction from it knows); kernels[c][side].
      const std::array<int64_t, 2> floor = {calibration.Family(sources[i].family)->kernel_floor_ns,
                                            calibration.Family(sources[j].family)->kernel_floor_ns};
      std::array<std::array<std::array<int64_t, 2>, 2>, kWorkCategoryCount> work{};
      std::array<std::array<uint64_t, 2>, kWorkCategoryCount> kernels{};
      for (const CompareRow& row : pair.rows) {
        if (!row.matched) continue;
        const auto c = static_cast<size_t>(row.category);
        for (size_t from = 0; from < 2; ++from) {
          kernels[c][from] += row.sides[from]->kernels;
          const auto k = static_cast<int64_t>(row.sides[from]->kernels);
          for (size_t s = 0; s < 2; ++s) {
            const size_t side = s == 0 ? from : 1 - from;
            work[c][from][s] += std::max<int64_t>(0, row.sides[side]->device_ns - k * floor[side]);
          }
        }
      }
      for (size_t c = 0; c < kWorkCategoryCount; ++c) {
        for (size_t from = 0; from < 2; ++from) {
          if (work[c][from][0] <= 0 || work[c][from][1] <= 0) continue;
          const std::string& a = sources[from == 0 ? i : j].family;
          const std::string& b = sources[from == 0 ? j : i].family;
          CategoryRatio& r = ratios[{a, b, c}];
          r.from = a;
          r.to = b;
          r.category = static_cast<WorkCategory>(c);
          r.from_ns += work[c][from][0];
          r.to_ns += work[c][from][1];
          r.from_kernels += kernels[c][from];
          r.to_kernels += kernels[c][1 - from];
          ++r.pairs;
        }
      }
    }
  }
  for (auto& [at, r] : ratios) {
    r.ratio = static_cast<double>(r.to_ns) / static_cast<double>(r.from_ns);
    r.kernel_ratio = r.from_kernels > 0
                         ? static_cast<double>(r.to_kernels) / static_cast<double>(r.from_kernels)
                         : 1;
    calibration.ratios.push_back(std::move(r));
  }
  if (intervals) {
    TM_ASSIGN_OR_RETURN(calibration.intervals, HeldOutIntervals(traces, devices, calibration));
  }
  return calibration;
}

}  // namespace tensormorph
