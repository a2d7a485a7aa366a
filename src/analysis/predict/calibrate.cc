// Calibrate (calibration.h): floors, fractions of roof and category ratios from real traces.

#include <algorithm>
#include <filesystem>
#include <map>
#include <tuple>

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

struct EfficiencySums {
  double roof_ns = 0, net_ns = 0;
  uint64_t rows = 0;
  int64_t device_ns = 0;
};

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

const CategoryRatio* Calibration::Ratio(std::string_view from, std::string_view to,
                                        WorkCategory category) const {
  for (const CategoryRatio& r : ratios) {
    if (r.from == from && r.to == to && r.category == category) return &r;
  }
  return nullptr;
}

StatusOr<Calibration> Calibrate(const std::vector<const LinkedTrace*>& traces,
                                const std::vector<DeviceSpec>& devices) {
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

  // Fractions of roof: each trace's own op rows against its own device.
  std::map<std::pair<std::string, size_t>, EfficiencySums> sums;
  for (const TraceSource& s : sources) {
    const int64_t floor = calibration.Family(s.family)->kernel_floor_ns;
    CompareQuery query;
    query.devices = &devices;
    query.side_headers = false;
    const CompareResult rows = CompareTraces({s.linked}, query);
    for (const CompareRow& row : rows.rows) {
      const std::optional<CompareCell>& cell = row.sides[0];
      if (!cell || !cell->flops || !cell->bytes || cell->device_index != s.device) continue;
      if (cell->flops_device_ns != cell->device_ns || cell->device_ns <= 0) continue;
      const std::optional<RoofTime> roof =
          RoofTimeOn(*s.spec, cell->precision, *cell->flops, *cell->bytes);
      const double net = static_cast<double>(cell->device_ns) -
                         static_cast<double>(cell->kernels) * static_cast<double>(floor);
      if (!roof || net <= 0) continue;
      EfficiencySums& e = sums[{s.family, static_cast<size_t>(row.category)}];
      e.roof_ns += roof->ns();
      e.net_ns += net;
      ++e.rows;
      e.device_ns += cell->device_ns;
    }
  }
  for (const auto& [at, e] : sums) {
    // Every family with sums has its floor row (above).
    for (FamilyCalibration& f : calibration.families) {
      if (f.family == at.first) {
        f.efficiency[at.second] =
            CategoryEfficiency{e.roof_ns / e.net_ns, e.rows, e.device_ns, e.roof_ns};
      }
    }
  }

  // Category ratios over the pairs of traces of one workload on two families.
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
      // kernel count of `from` (the one a prediction from it knows).
      const std::array<int64_t, 2> floor = {calibration.Family(sources[i].family)->kernel_floor_ns,
                                            calibration.Family(sources[j].family)->kernel_floor_ns};
      std::array<std::array<std::array<int64_t, 2>, 2>, kWorkCategoryCount> work{};
      for (const CompareRow& row : pair.rows) {
        if (!row.matched) continue;
        for (size_t from = 0; from < 2; ++from) {
          const auto kernels = static_cast<int64_t>(row.sides[from]->kernels);
          for (size_t s = 0; s < 2; ++s) {
            const size_t side = s == 0 ? from : 1 - from;
            work[static_cast<size_t>(row.category)][from][s] +=
                std::max<int64_t>(0, row.sides[side]->device_ns - kernels * floor[side]);
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
          ++r.pairs;
        }
      }
    }
  }
  for (auto& [at, r] : ratios) {
    r.ratio = static_cast<double>(r.to_ns) / static_cast<double>(r.from_ns);
    calibration.ratios.push_back(std::move(r));
  }
  return calibration;
}

}  // namespace tensormorph
