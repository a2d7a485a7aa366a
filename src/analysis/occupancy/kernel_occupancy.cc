#include "tensormorph/analysis/occupancy/kernel_occupancy.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <unordered_map>

#include "analysis/ranking.h"

namespace tensormorph {
namespace {

// AMD's register inputs beside the VGPRs (AGPRs, SGPRs, wave size); all 0 on NVIDIA.
struct AmdRegisters {
  int64_t accum = 0, scalar = 0, wave = 0;
  auto tie() const { return std::tie(accum, scalar, wave); }
  bool operator==(const AmdRegisters& o) const { return tie() == o.tie(); }
  bool operator<(const AmdRegisters& o) const { return tie() < o.tie(); }
};

// A row: kernel name, backend, architecture and launch configuration. Block size, not shape,
// decides occupancy, so 256x1x1 and 32x8x1 launches of one kernel share a row.
struct GroupKey {
  std::string name;
  Backend backend;
  std::string arch;
  int64_t block_size;
  int64_t registers;
  int64_t shared;
  AmdRegisters amd;
  bool operator<(const GroupKey& o) const {
    return std::tie(name, backend, arch, block_size, registers, shared, amd) <
           std::tie(o.name, o.backend, o.arch, o.block_size, o.registers, o.shared, o.amd);
  }
};

// The same within one trace, by string id and device, so the per-launch loop does no string work.
struct LaunchKey {
  StringId name;
  uint32_t device;
  int64_t block_size;
  int64_t registers;
  int64_t shared;
  AmdRegisters amd;
  bool operator==(const LaunchKey& o) const {
    return name == o.name && device == o.device && block_size == o.block_size &&
           registers == o.registers && shared == o.shared && amd == o.amd;
  }
};

struct LaunchKeyHash {
  size_t operator()(const LaunchKey& k) const {
    uint64_t h = k.name;
    for (uint64_t v : {uint64_t{k.device}, static_cast<uint64_t>(k.block_size),
                       static_cast<uint64_t>(k.registers), static_cast<uint64_t>(k.shared),
                       static_cast<uint64_t>(k.amd.accum << 32 | k.amd.scalar << 8 | k.amd.wave)}) {
      h = (h ^ v) * 0x100000001b3ULL + 0x9e3779b97f4a7c15ULL;
    }
    return h;
  }
};

// A mean of percentages weighted by launch duration; the plain mean stands in when every
// launch has duration 0 (Nsight Compute exports can lack times).
struct Mean {
  double weighted = 0, weight = 0, sum = 0;
  uint64_t n = 0;
  void Add(double percent, int64_t duration_ns) {
    weighted += percent * static_cast<double>(duration_ns);
    weight += static_cast<double>(duration_ns);
    sum += percent;
    ++n;
  }
  double Value() const { return weight > 0 ? weighted / weight : sum / static_cast<double>(n); }
};

struct Group {
  KernelOccupancyRow row;
  bool invalid = false;  // the calculator rejected the configuration: launches count as skipped
  Mean ncu, kineto;      // ncu: measured counters (Nsight Compute, or rocprof-compute)
  bool measured_by_rocprof = false;
};

// Resolved once per launch key: the group, or why the launch has none.
struct Resolution {
  Group* group = nullptr;
  SkipReason reason = SkipReason::kNoLaunchConfiguration;
};

uint64_t GridBlocks(const Dim3& grid) {
  return uint64_t{std::max(grid.x, 1u)} * std::max(grid.y, 1u) * std::max(grid.z, 1u);
}

// One more launch in a row: count, time and the range of grid sizes.
void CountLaunch(const Kernel& k, KernelOccupancyRow* row) {
  const uint64_t blocks = GridBlocks(k.grid);
  row->grid_blocks_min = row->count == 0 ? blocks : std::min(row->grid_blocks_min, blocks);
  row->grid_blocks_max = std::max(row->grid_blocks_max, blocks);
  ++row->count;
  if (__builtin_add_overflow(row->total_ns, k.duration_ns, &row->total_ns))
    row->total_ns = INT64_MAX;
}

// The architecture a kernel on `device` ran on. The override wins for its own vendor. Otherwise
// the device's own (Device::arch): a CUDA compute capability, or the gfx target of a ROCm device
// (ROCm devices report a "compute capability" too, 9.0 on an MI250, but it does not name the gfx
// target: gfx940 and gfx942 are both 9.4), when its trace recorded one.
std::optional<GpuArch> ArchOf(const Trace& trace, uint32_t device, Backend backend,
                              const KernelOccupancyQuery& query) {
  const GpuVendor vendor = backend == Backend::kRocm ? GpuVendor::kAmd : GpuVendor::kNvidia;
  if (query.arch && query.arch->vendor == vendor) return query.arch;
  if (device >= trace.devices.size()) return std::nullopt;
  if (backend != Backend::kRocm && backend != Backend::kCuda) return std::nullopt;
  const Device& d = trace.devices[device];
  if (d.arch.empty()) return std::nullopt;
  StatusOr<GpuArch> arch = ParseArch(d.arch);
  if (!arch.ok() || arch->vendor != vendor) return std::nullopt;
  return std::move(arch).value();
}

// Nsight Compute's own occupancy of a launch it could not be recomputed for. The limiter is the
// smallest block limit, ties broken in the calculator's order (warps, registers, shared memory,
// blocks); barriers, which CUDA's calculator does not weigh, are shown but never limit.
OccupancyResult ReportedResult(const ReportedOccupancy& reported, const std::string& arch,
                               int64_t block_size, const Device* device) {
  OccupancyResult o;
  o.arch = arch;
  o.vendor = GpuVendor::kNvidia;
  o.warp_size = device != nullptr && device->warp_size > 0 ? device->warp_size : 32;
  o.warps_per_block = (block_size + o.warp_size - 1) / o.warp_size;
  auto limit = [](std::optional<int64_t> v) { return v.value_or(kNoLimit); };
  o.limits.warps = limit(reported.warps_limit);
  o.limits.registers = limit(reported.registers_limit);
  o.limits.shared_memory = limit(reported.shared_memory_limit);
  o.limits.blocks = limit(reported.blocks_limit);
  o.limits.barriers = limit(reported.barriers_limit);
  const std::pair<OccupancyLimiter, int64_t> limits[] = {
      {OccupancyLimiter::kWarps, o.limits.warps},
      {OccupancyLimiter::kRegisters, o.limits.registers},
      {OccupancyLimiter::kSharedMemory, o.limits.shared_memory},
      {OccupancyLimiter::kBlocks, o.limits.blocks}};
  int64_t fewest = kNoLimit;
  for (const auto& [limiter, blocks] : limits) fewest = std::min(fewest, blocks);
  if (fewest != kNoLimit) {
    o.active_blocks_per_sm = fewest;
    for (const auto& [limiter, blocks] : limits) {
      if (blocks == fewest) o.limiters.push_back(limiter);
    }
    o.limiter = o.limiters.front();
  }
  o.occupancy = reported.theoretical_percent / 100.0;
  o.active_warps_per_sm = reported.theoretical_warps_per_sm
                              ? std::llround(*reported.theoretical_warps_per_sm)
                              : o.active_blocks_per_sm * o.warps_per_block;
  if (device != nullptr && device->max_threads_per_sm > 0) {
    o.max_warps_per_sm = device->max_threads_per_sm / o.warp_size;
  } else if (o.occupancy > 0) {
    o.max_warps_per_sm = std::llround(static_cast<double>(o.active_warps_per_sm) / o.occupancy);
  }
  o.note = fmt::format(
      "Nsight Compute's Occupancy section{}: the export has no launch statistics (registers per "
      "thread, shared memory per block) to compute it again",
      fewest == kNoLimit ? ", without block limits" : "");
  return o;
}

}  // namespace

const char* TheoreticalSourceName(TheoreticalSource source) {
  return source == TheoreticalSource::kNcuOccupancySection ? "ncu_occupancy_section" : "computed";
}

const char* AchievedSourceName(AchievedSource source) {
  switch (source) {
    case AchievedSource::kKinetoEstimate:
      return "kineto_estimate";
    case AchievedSource::kNcu:
      return "ncu";
    case AchievedSource::kRocprofCompute:
      return "rocprof_compute";
    case AchievedSource::kNone:
      break;
  }
  return nullptr;
}

const char* SkipReasonName(SkipReason reason) {
  switch (reason) {
    case SkipReason::kNoLaunchConfiguration:
      return "no_launch_configuration";
    case SkipReason::kNoRegisters:
      return "no_registers";
    case SkipReason::kUnknownArchitecture:
      return "unknown_architecture";
    case SkipReason::kInvalidLaunch:
      return "invalid_launch";
    case SkipReason::kNotAGpuKernel:
      return "not_a_gpu_kernel";
  }
  return "unknown";
}

const char* SkipReasonText(SkipReason reason) {
  switch (reason) {
    case SkipReason::kNoLaunchConfiguration:
      return "no launch configuration in the trace";
    case SkipReason::kNoRegisters:
      return "no registers in the trace (ROCm Kineto traces and ROCm 6.2 rocprofv3 CSVs carry no "
             "VGPR/SGPR counts)";
    case SkipReason::kUnknownArchitecture:
      return "unknown architecture: pass --arch";
    case SkipReason::kInvalidLaunch:
      return "launch configuration over an architecture limit";
    case SkipReason::kNotAGpuKernel:
      return "not a CUDA or ROCm kernel: no occupancy rules";
  }
  return "unknown";
}

KernelOccupancySummary SummarizeKernelOccupancy(const std::vector<const LinkedTrace*>& traces,
                                                const KernelOccupancyQuery& query) {
  KernelOccupancySummary summary;
  std::map<GroupKey, Group> groups;
  // Rows of Nsight Compute's Occupancy section: by name, backend, arch, block size and what the
  // section said, so that launches it judged differently do not share a row.
  using ReportedKey = std::tuple<std::string, Backend, std::string, int64_t, double, double,
                                 std::array<int64_t, 5>>;
  std::map<ReportedKey, Group> reported_groups;
  auto skip = [&summary](SkipReason reason, const Trace& trace, const Kernel& k) {
    SkippedLaunches& s = summary.skipped[reason];
    if (s.count++ == 0) s.example = std::string(trace.str(k.name));
    if (__builtin_add_overflow(s.total_ns, k.duration_ns, &s.total_ns)) s.total_ns = INT64_MAX;
  };

  for (const LinkedTrace* input : traces) {
    const Trace& trace = input->trace();
    std::vector<std::optional<std::optional<GpuArch>>> archs(trace.devices.size() + 1);
    // Measured counters by kernel index (a side table; empty for most formats).
    std::vector<const KernelCounters*> counters;
    if (!trace.kernel_counters.empty()) {
      counters.assign(trace.kernels.size(), nullptr);
      for (const KernelCounters& c : trace.kernel_counters) {
        if (c.kernel < counters.size()) counters[c.kernel] = &c;
      }
    }
    std::unordered_map<LaunchKey, Resolution, LaunchKeyHash> cache;

    for (size_t i = 0; i < trace.kernels.size(); ++i) {
      const Kernel& k = trace.kernels[i];
      ++summary.kernel_count;
      const uint32_t device = std::min<uint32_t>(k.device, trace.devices.size());
      const Backend backend =
          device < trace.devices.size() ? trace.devices[device].backend : Backend::kOther;
      const int64_t block_size = int64_t{k.block.x} * k.block.y * k.block.z;
      // AMD: AGPRs, SGPRs and wave size (rocprof) change occupancy too; 0 where unknown.
      const AmdRegisters amd =
          backend == Backend::kRocm
              ? AmdRegisters{k.accum_registers_per_thread, k.scalar_registers, k.wave_size}
              : AmdRegisters{};
      const KernelCounters* c = counters.empty() ? nullptr : counters[i];
      if (c != nullptr && c->reported_occupancy && backend == Backend::kCuda &&
          k.registers_per_thread == 0) {
        // No launch statistics to compute from: Nsight Compute's own answer.
        const ReportedOccupancy& r = *c->reported_occupancy;
        if (!archs[device]) archs[device] = ArchOf(trace, device, backend, query);
        const std::string arch = *archs[device] ? (*archs[device])->name : std::string();
        auto v = [](std::optional<int64_t> x) { return x.value_or(-1); };
        ReportedKey rk{std::string(trace.str(k.name)),
                       backend,
                       arch,
                       block_size,
                       r.theoretical_percent,
                       r.theoretical_warps_per_sm.value_or(-1),
                       {v(r.warps_limit), v(r.registers_limit), v(r.shared_memory_limit),
                        v(r.blocks_limit), v(r.barriers_limit)}};
        auto [g, inserted] = reported_groups.try_emplace(std::move(rk));
        KernelOccupancyRow& row = g->second.row;
        if (inserted) {
          row.name = std::get<0>(g->first);
          row.backend = backend;
          row.arch = arch;
          row.grid = k.grid;
          row.block = k.block;
          row.block_size = block_size;
          row.registers_per_thread = -1;
          row.shared_memory_bytes =
              k.shared_memory_bytes > 0 ? static_cast<int64_t>(k.shared_memory_bytes) : -1;
          row.theoretical_source = TheoreticalSource::kNcuOccupancySection;
          row.occupancy =
              ReportedResult(r, arch, block_size,
                             device < trace.devices.size() ? &trace.devices[device] : nullptr);
        }
        CountLaunch(k, &row);
        if (c->achieved_occupancy_percent)
          g->second.ncu.Add(*c->achieved_occupancy_percent, k.duration_ns);
        ++summary.computed_count;
        ++summary.reported_count;
        continue;
      }
      const LaunchKey key{k.name, device, block_size, k.registers_per_thread, k.shared_memory_bytes,
                          amd};
      auto it = cache.find(key);
      if (it == cache.end()) {
        Resolution res;
        std::optional<GpuArch> arch;
        if (backend != Backend::kCuda && backend != Backend::kRocm) {
          res.reason = SkipReason::kNotAGpuKernel;
        } else if (backend == Backend::kRocm && k.registers_per_thread == 0) {
          res.reason = SkipReason::kNoRegisters;
        } else if (block_size == 0 || k.registers_per_thread == 0) {
          // Registers are 0 only when the trace left them out: every CUDA kernel uses some.
          res.reason = SkipReason::kNoLaunchConfiguration;
        } else {
          if (!archs[device]) archs[device] = ArchOf(trace, device, backend, query);
          arch = *archs[device];
          if (!arch) res.reason = SkipReason::kUnknownArchitecture;
        }
        if (arch) {
          GroupKey gk{std::string(trace.str(k.name)),
                      backend,
                      arch->name,
                      block_size,
                      k.registers_per_thread,
                      k.shared_memory_bytes,
                      amd};
          auto [g, inserted] = groups.try_emplace(std::move(gk));
          Group& group = g->second;
          if (inserted) {
            LaunchConfig launch;
            launch.block_size = block_size;
            launch.registers_per_thread = k.registers_per_thread;
            // Traces give static + dynamic together; the calculator only adds them.
            launch.dynamic_shared_bytes = k.shared_memory_bytes;
            launch.accum_registers = amd.accum;
            launch.scalar_registers = amd.scalar;
            launch.wave_size = static_cast<int>(amd.wave);
            StatusOr<OccupancyResult> result = ComputeOccupancy(*arch, launch);
            group.invalid = !result.ok();
            if (result.ok()) group.row.occupancy = std::move(result).value();
            KernelOccupancyRow& row = group.row;
            row.name = g->first.name;
            row.backend = backend;
            row.arch = arch->name;
            row.grid = k.grid;
            row.block = k.block;
            row.block_size = block_size;
            row.registers_per_thread = k.registers_per_thread;
            row.shared_memory_bytes = k.shared_memory_bytes;
          }
          if (group.invalid) {
            res.reason = SkipReason::kInvalidLaunch;
          } else {
            res.group = &group;
          }
        }
        it = cache.emplace(key, res).first;
      }
      Group* group = it->second.group;
      if (group == nullptr) {
        skip(it->second.reason, trace, k);
        continue;
      }
      ++summary.computed_count;
      KernelOccupancyRow& row = group->row;
      CountLaunch(k, &row);
      if (c != nullptr && c->achieved_occupancy_percent) {
        group->ncu.Add(*c->achieved_occupancy_percent, k.duration_ns);
        group->measured_by_rocprof |= c->source == CounterSource::kRocprofCompute ||
                                      c->source == CounterSource::kRocprofComputeDb ||
                                      c->source == CounterSource::kRocpd;
      } else if (k.occupancy_source == CounterSource::kKinetoEstimate &&
                 k.achieved_occupancy_percent >= 0) {
        // The Nsight Compute importer copies its counter into the row too; only Kineto's own
        // estimate is read from there.
        group->kineto.Add(k.achieved_occupancy_percent, k.duration_ns);
      }
    }
  }

  auto finish = [&summary](Group& group) {
    KernelOccupancyRow& row = group.row;
    // A measurement beats an estimate.
    const Mean* mean = group.ncu.n > 0 ? &group.ncu : group.kineto.n > 0 ? &group.kineto : nullptr;
    if (mean != nullptr) {
      row.achieved = mean->Value() / 100.0;
      row.achieved_source = mean != &group.ncu          ? AchievedSource::kKinetoEstimate
                            : group.measured_by_rocprof ? AchievedSource::kRocprofCompute
                                                        : AchievedSource::kNcu;
      row.achieved_launches = mean->n;
    }
    summary.rows.push_back(std::move(row));
  };
  for (auto& [key, group] : groups) {
    if (!group.invalid) finish(group);
  }
  for (auto& [key, group] : reported_groups) finish(group);
  summary.row_count_before_top = RankByTotalTime(&summary.rows, query.top);
  return summary;
}

}  // namespace tensormorph
