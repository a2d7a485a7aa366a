#include "import/rocprof/compute/workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "devices/measured_peaks.h"
#include "import/common/finish_import.h"
#include "import/rocprof/common/agents.h"
#include "import/rocprof/compute/dispatch_table.h"
#include "import/rocprof/compute/system_info.h"
#include "import/rocprof/compute/times.h"
#include "import/rocprof/compute/work.h"
#include "import/rocprof/compute/workload_files.h"

namespace tensormorph::rocprof::compute {
namespace {

namespace fs = std::filesystem;

// roofline.csv has a row per GPU of the node; rocprof-compute's analysis plots device 0's.
constexpr int64_t kRooflineDevice = 0;

std::string Json(const std::string& text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string FileName(const std::string& path) {
  return fs::path(path).filename().string();
}

// The profiler backend behind the workload, from the spelling of its header.
std::string BackendSpelling(const std::vector<std::string>& header) {
  const Columns c(header);
  if (c.Has({"queue-id"}) || c.Has({"obj"})) return "rocprof v1 backend, renamed columns";
  if (c.Has({"Kernel_ID"})) return "rocprofv3 backend";
  return "rocprofv2 backend";
}

struct Times {
  ParsedTime start, end;
  bool usable() const {
    return start.kind != ParsedTime::Kind::kUnreadable && end.kind != ParsedTime::Kind::kUnreadable;
  }
  bool exact() const {
    return start.kind == ParsedTime::Kind::kExact && end.kind == ParsedTime::Kind::kExact;
  }
};

Times TimesOf(const DispatchRow& row) {
  return {ParseTime(row.start_text), ParseTime(row.end_text)};
}

constexpr const char* kPeaksSource = "rocprof-compute roofline.csv";

// One device per GPU_ID, each described by sysinfo (a workload profiles one GPU model).
class Devices {
 public:
  Devices(const SystemInfo* info, const std::map<std::string, double>& peaks, Trace* trace)
      : info_(info), peaks_(peaks), trace_(trace) {}
  uint32_t Resolve(const std::string& gpu_id) {
    if (auto it = ids_.find(gpu_id); it != ids_.end()) return it->second;
    Device d = info_ != nullptr ? DeviceFromSystemInfo(*info_) : Device{};
    d.backend = Backend::kRocm;
    d.vendor = "AMD";
    d.trace_id = ParseInt(gpu_id).value_or(0);
    d.measured_peaks = peaks_;
    if (!peaks_.empty()) d.measured_peaks_source = kPeaksSource;
    if (info_ != nullptr && !info_->gpu_arch.empty()) {
      d.arch = info_->gpu_arch;
      trace_->metadata[GfxArchMetadataKey(d.trace_id)] = Json(info_->gpu_arch);
    }
    const auto index = static_cast<uint32_t>(trace_->devices.size());
    trace_->devices.push_back(std::move(d));
    ids_.emplace(gpu_id, index);
    return index;
  }

 private:
  const SystemInfo* info_;
  const std::map<std::string, double>& peaks_;
  Trace* trace_;
  std::map<std::string, uint32_t> ids_;
};

Status MissingCounters(const WorkloadFiles& files) {
  std::string present;
  for (const std::string* f : {&files.timestamps, &files.sysinfo, &files.roofline}) {
    if (!f->empty()) present += (present.empty() ? "" : ", ") + FileName(*f);
  }
  return UnreadableInput(fmt::format(
      "rocprof-compute workload folder {} has no pmc_perf.csv (nor pmc_perf_N.csv){}: the "
      "profile did not finish or the folder is not the <SoC> level; profile again, or name "
      "timestamps.csv itself to read only kernel times",
      files.folder, present.empty() ? "" : " (it has " + present + ")"));
}

}  // namespace

int SniffWorkloadFolder(const std::string& folder) {
  const WorkloadFiles files = FindWorkloadFiles(folder);
  if (!files.counter_files.empty()) return 100;
  return files.any() ? 60 : 0;
}

bool IsWorkloadCounterFile(const std::string& path, const std::vector<std::string>& header) {
  if (FileName(path).starts_with("pmc_perf")) return true;
  const Columns c(header);
  // The long layout written through rocpd, under any name: rocprof-compute's column names
  // (rocprofv3's own counter_collection.csv says LDS_Block_Size and Scratch_Size).
  if (c.Has({"Counter_Name"}) && c.Has({"LDS_Per_Workgroup"}) && c.Has({"Dispatch_ID"})) {
    return true;
  }
  if (!c.Has({"Dispatch_ID"}) || !c.Has({"Kernel_Name"})) return false;
  for (const std::string& name : header) {
    if (name.starts_with("SQ_") || name.starts_with("TCC_") || name.starts_with("TCP_") ||
        name.starts_with("GRBM_")) {
      return true;
    }
  }
  return false;
}

StatusOr<Trace> ImportWorkload(const Input& input, const std::string& path) {
  const std::string folder = fs::is_directory(path) ? path : fs::path(path).parent_path().string();
  WorkloadFiles files = FindWorkloadFiles(folder.empty() ? "." : folder);
  if (!fs::is_directory(path)) {
    // The file given is the primary, whatever the folder's merged file is.
    std::erase(files.counter_files, path);
    files.counter_files.insert(files.counter_files.begin(), path);
  }
  if (files.counter_files.empty()) return MissingCounters(files);

  Warnings warnings;
  Trace trace;
  trace.path = path;
  trace.format = "rocprof";
  std::vector<std::string> used;

  std::optional<SystemInfo> info;
  if (!files.sysinfo.empty()) {
    StatusOr<SystemInfo> read = ReadSystemInfo(input, files.sysinfo, &warnings);
    if (read.ok()) {
      info = std::move(read).value();
      used.push_back("sysinfo.csv");
    } else {
      warnings.File(files.sysinfo,
                    "could not be read, the device stays unnamed: " + read.status().message());
    }
  } else {
    warnings.File(files.folder,
                  "no sysinfo.csv: the device stays unnamed, without its gfx "
                  "target (occupancy needs --arch)");
  }
  std::map<std::string, double> peaks;
  if (!files.roofline.empty()) {
    StatusOr<std::map<std::string, double>> read =
        ReadRooflinePeaks(input, files.roofline, kRooflineDevice, &warnings);
    if (read.ok() && !read->empty()) {
      peaks = std::move(read).value();
      used.push_back("roofline.csv");
      trace.metadata[measured_peaks::kSourceMetadataKey] = Json(kPeaksSource);
    } else {
      warnings.File(files.roofline, read.ok() ? "no row for device 0: peaks not used"
                                              : "could not be read: " + read.status().message());
    }
  } else {
    warnings.File(files.folder,
                  "no roofline.csv (profiled with --no-roof): the roofline uses "
                  "the device database");
  }

  // Counter files: the first gives the dispatches, the others are joined to them.
  std::vector<DispatchTable> tables;
  for (size_t i = 0; i < files.counter_files.size(); ++i) {
    StatusOr<DispatchTable> table = DispatchTable::Read(input, files.counter_files[i], &warnings);
    if (!table.ok()) {  // by hand: only the first file is needed, the others become warnings
      if (i == 0) return table.status();
      warnings.File(files.counter_files[i], "not used: " + table.status().message());
      continue;
    }
    used.push_back(FileName(files.counter_files[i]));
    tables.push_back(std::move(table).value());
  }
  std::optional<DispatchTable> timestamps;
  if (!files.timestamps.empty()) {
    StatusOr<DispatchTable> table = DispatchTable::Read(input, files.timestamps, &warnings);
    if (table.ok()) {
      timestamps = std::move(table).value();
    } else {
      warnings.File(files.timestamps, "not used: " + table.status().message());
    }
  }
  const DispatchTable& primary = tables.front();
  const bool gfx950 = info && info->gpu_arch.starts_with("gfx950");

  Devices devices(info ? &*info : nullptr, peaks, &trace);
  struct Row {
    Kernel kernel;
    int64_t dispatch_id;
    KernelCounters counters;
  };
  std::vector<Row> rows;
  int64_t rounded_resolution = 0;
  std::string rounded_example;
  bool used_timestamps = false;
  for (const DispatchRow& d : primary.rows()) {
    Times t = TimesOf(d);
    const DispatchRow* timed = &d;
    if (!t.exact() && timestamps && d.dispatch_id >= 0) {
      if (std::optional<size_t> r = timestamps->RowOf(d.dispatch_id)) {
        const Times other = TimesOf(timestamps->rows()[*r]);
        if (other.exact() || (!t.usable() && other.usable())) {
          t = other;
          timed = &timestamps->rows()[*r];
          used_timestamps = true;
        }
      }
    }
    if (!t.usable() || t.end.ns < t.start.ns) {
      ++trace.counts.skipped;
      warnings.Row(primary.path(), d.line,
                   fmt::format("dispatch {}: start/end '{}', '{}' are not nanoseconds (nor are "
                               "timestamps.csv's): skipped",
                               d.dispatch_id, timed->start_text.substr(0, 40),
                               timed->end_text.substr(0, 40)));
      continue;
    }
    Row row;
    row.dispatch_id = d.dispatch_id;
    row.kernel = d.launch;
    row.kernel.start_ns = t.start.ns;
    if (t.exact()) {
      row.kernel.duration_ns = t.end.ns - t.start.ns;
    } else {
      // Rounded times: the difference is noise at the rounding step, not a duration.
      rounded_resolution =
          std::max({rounded_resolution, t.start.resolution_ns, t.end.resolution_ns});
      if (rounded_example.empty()) rounded_example = timed->start_text;
    }
    row.kernel.name = trace.strings.Intern(d.kernel_name);
    row.kernel.device = devices.Resolve(d.gpu_id);
    // rocprofv3 decodes gfx950's VGPR count with the pre-CDNA granule of 4 while the hardware
    // allocates in 8s, so it reports half the VGPRs (other-backends.md §2.4).
    if (gfx950 && row.kernel.accum_registers_per_thread == 0) {
      row.kernel.registers_per_thread =
          static_cast<uint16_t>(std::min<int>(row.kernel.registers_per_thread * 2, UINT16_MAX));
    }
    DispatchSources sources;
    sources.rows.emplace_back(&primary, &d);
    for (size_t i = 1; i < tables.size(); ++i) {
      std::optional<size_t> r = tables[i].RowOf(d.dispatch_id);
      if (!r) continue;
      const DispatchRow& other = tables[i].rows()[*r];
      if (other.kernel_name != d.kernel_name) {
        warnings.Row(tables[i].path(), other.line,
                     fmt::format("dispatch {} is '{}' here but '{}' in {}: not joined",
                                 d.dispatch_id, other.kernel_name.substr(0, 60),
                                 d.kernel_name.substr(0, 60), FileName(primary.path())));
        continue;
      }
      sources.rows.emplace_back(&tables[i], &other);
    }
    row.counters = ComputeDispatchWork(sources, info ? &*info : nullptr, &trace.strings);
    rows.push_back(std::move(row));
    ++trace.counts.kernels;
  }
  if (rounded_resolution > 0) {
    trace.timestamp_resolution_ns = rounded_resolution;
    warnings.File(files.folder,
                  fmt::format("kernel timestamps were rounded by a spreadsheet (e.g. '{}', "
                              "known to {} ns): kernel durations are unknown and shown as 0, "
                              "start times are approximate; counters are unaffected",
                              rounded_example, rounded_resolution));
  }
  if (used_timestamps) used.push_back("timestamps.csv");

  // The model's order, (device, stream, start), ties by dispatch id; counters follow their kernel.
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(a.kernel.device, a.kernel.stream, a.kernel.start_ns, a.dispatch_id) <
           std::tie(b.kernel.device, b.kernel.stream, b.kernel.start_ns, b.dispatch_id);
  });
  for (Row& row : rows) {
    row.counters.kernel = static_cast<uint32_t>(trace.kernels.size());
    trace.kernels.push_back(row.kernel);
    row.counters.source = CounterSource::kRocprofCompute;
    trace.kernel_counters.push_back(std::move(row.counters));
  }

  trace.format_version = fmt::format(
      "rocprof-compute workload ({}{})", BackendSpelling(primary.header()),
      primary.long_layout() ? " through rocpd: one row per dispatch and counter, pivoted" : "");
  std::string list;
  for (const std::string& u : used) list += (list.empty() ? "" : ", ") + u;
  trace.format_version += "; " + list;
  if (info) {
    trace.metadata["rocprof_compute_gpu_model"] = Json(info->gpu_model);
    if (!info->rocm_version.empty()) trace.metadata["rocm_version"] = Json(info->rocm_version);
    if (!info->workload_name.empty()) {
      trace.metadata["rocprof_compute_workload"] = Json(info->workload_name);
    }
    trace.described_device_count = 1;
  }
  if (trace.counts.kernels == 0) warnings.File(primary.path(), "no kernel dispatch rows");
  warnings.AppendTo(&trace.warnings);
  FinishImport(&trace,
               {.order = TableOrder::kKernelsInOrder, .backends = {.deviceless = Backend::kRocm}});
  return trace;
}

}  // namespace tensormorph::rocprof::compute
