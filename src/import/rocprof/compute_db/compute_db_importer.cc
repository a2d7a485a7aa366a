#include "import/rocprof/compute_db/compute_db_importer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "devices/measured_peaks.h"
#include "import/common/finish_import.h"
#include "import/nsys/schema.h"
#include "import/rocprof/common/agents.h"
#include "import/rocprof/compute_db/dispatches.h"
#include "import/rocprof/compute_db/kernel_work.h"
#include "import/rocprof/compute_db/kernels.h"
#include "import/rocprof/compute_db/tables.h"
#include "import/rocprof/compute_db/workloads.h"
#include "io/sqlite_db.h"

namespace tensormorph::rocprof::compute_db {
namespace {

constexpr std::string_view kPeaksSource = "rocprof-compute database";

std::string Json(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// One device per (workload, gpu_id), described by its workload's sysinfo.
class Devices {
 public:
  Devices(const std::map<int64_t, Workload>& workloads, Trace* trace)
      : workloads_(workloads), trace_(trace) {}

  uint32_t Resolve(int64_t workload_id, int64_t gpu_id) {
    const auto key = std::make_pair(workload_id, gpu_id);
    if (auto it = ids_.find(key); it != ids_.end()) return it->second;
    const Workload* w = Find(workload_id);
    Device d = w != nullptr && w->system ? compute::DeviceFromSystemInfo(*w->system) : Device{};
    d.backend = Backend::kRocm;
    d.vendor = "AMD";
    d.trace_id = gpu_id;
    if (w != nullptr) d.measured_peaks = w->peaks;
    if (!d.measured_peaks.empty()) d.measured_peaks_source = kPeaksSource;
    if (w != nullptr && w->system && !w->system->gpu_arch.empty()) {
      d.arch = w->system->gpu_arch;
      trace_->metadata[GfxArchMetadataKey(gpu_id)] = Json(w->system->gpu_arch);
    }
    const auto index = static_cast<uint32_t>(trace_->devices.size());
    trace_->devices.push_back(std::move(d));
    ids_.emplace(key, index);
    return index;
  }
  const Workload* Find(int64_t workload_id) const {
    auto it = workloads_.find(workload_id);
    return it == workloads_.end() ? nullptr : &it->second;
  }

 private:
  const std::map<int64_t, Workload>& workloads_;
  Trace* trace_;
  std::map<std::pair<int64_t, int64_t>, uint32_t> ids_;
};

void DescribeWorkloads(const std::map<int64_t, Workload>& workloads, Trace* trace,
                       RowWarnings* warnings) {
  if (workloads.size() > 1) {
    warnings->File(
        fmt::format("{} workloads in one database: each gets its own devices", workloads.size()));
  }
  if (workloads.empty()) {
    warnings->File(
        "compute_workload has no row: the device stays unnamed, without its gfx "
        "target (occupancy needs --arch) or measured peaks");
    return;
  }
  const Workload& w = workloads.begin()->second;
  trace->described_device_count = static_cast<int32_t>(workloads.size());
  if (!w.name.empty()) trace->metadata["rocprof_compute_workload"] = Json(w.name);
  if (w.system) {
    trace->metadata["rocprof_compute_gpu_model"] = Json(w.system->gpu_model);
    if (!w.system->rocm_version.empty()) {
      trace->metadata["rocm_version"] = Json(w.system->rocm_version);
    }
    auto clock = [&](const char* key, std::optional<int64_t> mhz) {
      if (mhz) trace->metadata[key] = std::to_string(*mhz);
    };
    clock("rocprof_compute_max_sclk_mhz", w.system->max_sclk_mhz);
    clock("rocprof_compute_cur_sclk_mhz", w.cur_sclk_mhz);
    clock("rocprof_compute_max_mclk_mhz", w.max_mclk_mhz);
    clock("rocprof_compute_cur_mclk_mhz", w.cur_mclk_mhz);
  } else {
    warnings->File(
        "compute_workload has no sys_info_extdata: the device stays unnamed, "
        "without its gfx target (occupancy needs --arch)");
  }
  bool any_peaks = false;
  for (const auto& [id, workload] : workloads) any_peaks |= !workload.peaks.empty();
  if (any_peaks) {
    trace->metadata[measured_peaks::kSourceMetadataKey] = Json(std::string(kPeaksSource));
  } else {
    warnings->File(
        "no roofline_bench_extdata (profiled with --no-roof): the roofline uses the "
        "device database");
  }
}

struct Row {
  Kernel kernel;
  int64_t dispatch_id = 0, uuid = 0;
  KernelCounters counters;
};

}  // namespace

int ComputeDbImporter::Sniff(std::string_view head) const {
  if (!head.starts_with(sqlite::kSqliteMagic)) return 0;
  const bool dispatch = head.find("compute_dispatch") != std::string_view::npos;
  const bool workload = head.find("compute_workload") != std::string_view::npos;
  return dispatch && workload ? 100 : 0;
}

StatusOr<Trace> ComputeDbImporter::Import(const Input& input, const ImportOptions& options) const {
  (void)options;
  const std::string& path = input.path();
  TM_ASSIGN_OR_RETURN(sqlite::Database db, sqlite::Database::Open(input));
  TM_ASSIGN_OR_RETURN(nsys::Schema schema, nsys::Schema::Read(db));
  if (!LooksLikeComputeDb(schema)) {
    return UnreadableInput(
        "an SQLite database, but not a rocprof-compute database: it lacks the compute_dispatch, "
        "compute_kernel and compute_workload tables (expected the .db of `rocprof-compute "
        "analyze --output-format db`, rocprof-compute 3.5 or later)");
  }
  TM_ASSIGN_OR_RETURN(DbVersion version, ReadDbVersion(db, schema));

  RowWarnings warnings(path);
  if (!version.schema_version.empty() && !version.schema_version.starts_with("1.")) {
    warnings.File(
        fmt::format("database schema {} is not the 1.x this reader was written for; "
                    "tables and columns are read by name",
                    version.schema_version));
  }
  Trace trace;
  trace.path = path;
  trace.format = "rocprof-compute-db";
  trace.format_version = fmt::format("rocprof-compute database ({})", version.Describe());
  if (!version.compute_version.empty()) {
    trace.metadata["rocprof_compute_version"] = Json(version.compute_version);
  }

  TM_ASSIGN_OR_RETURN(auto workloads, ReadWorkloads(db, schema, version, &warnings));
  DescribeWorkloads(workloads, &trace, &warnings);
  TM_ASSIGN_OR_RETURN(auto kernels, ReadKernels(db, schema, version, &trace.strings, &warnings));
  TM_ASSIGN_OR_RETURN(Dispatches dispatches, ReadDispatches(db, schema, version, &warnings));

  std::map<int64_t, int64_t> dispatch_count;  // by kernel_uuid
  for (const DispatchRow& d : dispatches.rows) ++dispatch_count[d.kernel_uuid];
  const bool synthetic = !dispatches.rows.empty() && dispatches.untimed == dispatches.rows.size();

  Devices devices(workloads, &trace);
  std::map<uint32_t, int64_t> cursor;  // synthetic timeline: end of the last dispatch per device
  std::set<int64_t> averaged, launch_varies;
  std::map<HbmSource, std::set<int64_t>> hbm_sources;
  std::vector<Row> rows;
  rows.reserve(dispatches.rows.size());
  for (const DispatchRow& d : dispatches.rows) {
    const std::string where = fmt::format("compute_dispatch dispatch_uuid {}", d.uuid);
    auto kernel = kernels.find(d.kernel_uuid);
    if (kernel == kernels.end()) {
      ++trace.counts.skipped;
      warnings.Add(where,
                   fmt::format("kernel_uuid {} is not in compute_kernel: skipped", d.kernel_uuid));
      continue;
    }
    const KernelInfo& info = kernel->second;
    const Workload* workload = devices.Find(info.workload_id);
    const compute::SystemInfo* system =
        workload != nullptr && workload->system ? &*workload->system : nullptr;
    Row row;
    row.uuid = d.uuid;
    row.dispatch_id = d.dispatch_id;
    Kernel& k = row.kernel;
    k.name = trace.strings.Intern(info.name);
    k.device = devices.Resolve(info.workload_id, d.gpu_id);
    if (d.start_ns) {
      k.start_ns = *d.start_ns;
      k.duration_ns = *d.end_ns - *d.start_ns;
    } else if (synthetic) {
      const std::optional<double> mean =
          info.Mean(trace.strings, "Wavefront Runtime Stats", "Kernel Time");
      k.start_ns = cursor[k.device];
      k.duration_ns = mean && *mean >= 0 && *mean < 1e15 ? std::llround(*mean) : 0;  // nearest ns
      cursor[k.device] = k.start_ns + k.duration_ns;
    } else {
      ++trace.counts.skipped;
      warnings.Add(where, "no start/end_timestamp while other dispatches have them: skipped");
      continue;
    }
    std::vector<std::string> varying;
    ReadLaunch(info, trace.strings, system, &k, &varying);
    if (!varying.empty()) launch_varies.insert(d.kernel_uuid);
    const int64_t count = dispatch_count[d.kernel_uuid];
    if (count > 1) averaged.insert(d.kernel_uuid);
    HbmSource hbm = HbmSource::kUnknown;
    row.counters = KernelWork(info, &trace.strings, system, count, k.duration_ns, &hbm);
    hbm_sources[hbm].insert(d.kernel_uuid);
    rows.push_back(std::move(row));
    ++trace.counts.kernels;
  }

  if (synthetic) {
    trace.metadata["start_times"] = "\"synthetic\"";
    trace.format_version += "; durations only, timeline synthetic";
    warnings.File(
        "compute_dispatch has no start/end_timestamp: each dispatch lasts its kernel's mean "
        "\"Kernel Time\" and the dispatches are laid end to end per GPU in dispatch_id order; "
        "start times and gaps are not real");
  }
  if (!averaged.empty()) {
    warnings.File(fmt::format(
        "{} kernels ran more than once; the database keeps per-kernel averages only, so each "
        "of their dispatches carries its kernel's mean counters (FLOPs, bytes, metrics)",
        averaged.size()));
  }
  if (!launch_varies.empty()) {
    warnings.File(
        fmt::format("{} kernels were launched with different configurations (Min != "
                    "Max in Wavefront Launch Stats): those fields are left unset",
                    launch_varies.size()));
  }
  if (!hbm_sources[HbmSource::kRooflineIntensity].empty() ||
      !hbm_sources[HbmSource::kBandwidthTimesDuration].empty() ||
      !hbm_sources[HbmSource::kUnknown].empty()) {
    warnings.File(fmt::format(
        "HBM bytes: the database has no TCC_BUBBLE counter; for {} kernels they are their mean "
        "FLOPs over compute_kernel_roofline_data's HBM intensity, for {} \"HBM Bandwidth\" x "
        "duration (one dispatch), {} have none",
        hbm_sources[HbmSource::kRooflineIntensity].size(),
        hbm_sources[HbmSource::kBandwidthTimesDuration].size(),
        hbm_sources[HbmSource::kUnknown].size()));
  }
  if (dispatches.rows.empty()) warnings.File("compute_dispatch has no rows: no kernels");

  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(a.kernel.device, a.kernel.stream, a.kernel.start_ns, a.dispatch_id, a.uuid) <
           std::tie(b.kernel.device, b.kernel.stream, b.kernel.start_ns, b.dispatch_id, b.uuid);
  });
  for (Row& row : rows) {
    row.counters.kernel = static_cast<uint32_t>(trace.kernels.size());
    trace.kernels.push_back(row.kernel);
    row.counters.source = CounterSource::kRocprofComputeDb;
    trace.kernel_counters.push_back(std::move(row.counters));
  }
  warnings.AppendTo(&trace.warnings);
  FinishImport(&trace,
               {.order = TableOrder::kKernelsInOrder, .backends = {.deviceless = Backend::kRocm}});
  return trace;
}

}  // namespace tensormorph::rocprof::compute_db
