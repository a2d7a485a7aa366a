#include "import/chrome/trace_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "import/chrome/jax_events.h"
#include "import/common/device_arch.h"
#include "import/common/finish_import.h"
#include "import/common/metadata_keys.h"
#include "model/trace_order.h"

namespace tensormorph::chrome {
namespace {

bool Contains(std::string_view text, std::string_view part) {
  return text.find(part) != std::string_view::npos;
}

// Which GPU runtime produced the trace. The profiler's own version keys are the surest sign, then
// the names of the runtime calls (cuda*/cu* vs hip*), then the device names.
Backend DecideGpuBackend(const TopLevelMetadata& meta, const MergedChunks& merged,
                         const Trace& trace, std::string* reason) {
  if (merged.evidence.mtia_events > 0) {
    *reason = "Meta MTIA accelerator events";
    return Backend::kOther;
  }
  for (const char* key : {"roctracer_version", "hip_runtime_version", "hip_driver_version"}) {
    if (meta.scalars.count(key)) {
      *reason = key;
      return Backend::kRocm;
    }
  }
  for (const char* key : {"cupti_version", "cuda_runtime_version", "cuda_driver_version"}) {
    if (meta.scalars.count(key)) {
      *reason = key;
      return Backend::kCuda;
    }
  }
  std::set<StringId> api_names;
  for (const ApiCall& call : trace.api_calls) api_names.insert(call.name);
  uint64_t cuda = 0, hip = 0;
  for (StringId id : api_names) {
    std::string_view name = trace.str(id);
    if (name.starts_with("hip")) {
      ++hip;
    } else if (name.starts_with("cuda") || name.starts_with("cu")) {
      ++cuda;
    }
  }
  if (hip > cuda) {
    *reason = "HIP runtime calls";
    return Backend::kRocm;
  }
  if (cuda > 0) {
    *reason = "CUDA runtime calls";
    return Backend::kCuda;
  }
  for (const Device& d : meta.device_properties) {
    if (Contains(d.name, "AMD") || Contains(d.name, "Radeon") || Contains(d.name, "Instinct") ||
        d.warp_size == 64) {
      *reason = "AMD device properties";
      return Backend::kRocm;
    }
    if (Contains(d.name, "NVIDIA") || Contains(d.name, "Tesla") || Contains(d.name, "GeForce") ||
        Contains(d.name, "Quadro") || d.warp_size == 32) {
      *reason = "NVIDIA device properties";
      return Backend::kCuda;
    }
  }
  reason->clear();
  return Backend::kOther;
}

bool SameModel(const Device& a, const Device& b) {
  return a.name == b.name && a.compute_major == b.compute_major &&
         a.compute_minor == b.compute_minor && a.sm_count == b.sm_count &&
         a.total_memory_bytes == b.total_memory_bytes;
}

const char* VendorOf(Backend backend) {
  switch (backend) {
    case Backend::kCuda:
      return "NVIDIA";
    case Backend::kRocm:
      return "AMD";
    default:
      return "";
  }
}

// Builds the device table from the device ids that GPU events carry, one device per id.
// CUDA (and other Kineto backends) use the device ordinal, which is deviceProperties' id. ROCm's
// roctracer numbers agents with the CPU sockets first (kineto#925), so a GPU's id is its ordinal
// plus an unknown number of CPU agents: we do not guess the ordinal. When every described device
// is the same model (the usual node), its properties still apply.
void ResolveDevices(const TopLevelMetadata& meta, MergedChunks& merged, Backend gpu_backend,
                    Trace* trace) {
  const std::vector<Device>& described = meta.device_properties;
  trace->described_device_count = static_cast<int32_t>(described.size());
  const bool homogeneous = !described.empty() &&
                           std::all_of(described.begin(), described.end(),
                                       [&](const Device& d) { return SameModel(d, described[0]); });
  std::vector<uint32_t> order(merged.device_keys.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return merged.device_keys[a] < merged.device_keys[b]; });
  std::vector<uint32_t> key_to_device(merged.device_keys.size());
  for (uint32_t i : order) {
    const int64_t key = merged.device_keys[i];
    Device d;
    const Device* props = nullptr;
    if (gpu_backend == Backend::kRocm) {
      if (homogeneous) props = &described[0];
    } else {
      for (const Device& candidate : described) {
        if (candidate.index == key) props = &candidate;
      }
    }
    if (props != nullptr) d = *props;
    d.index = gpu_backend == Backend::kRocm || key < 0 || key > INT32_MAX
                  ? -1
                  : static_cast<int32_t>(key);
    d.trace_id = key;
    d.backend = gpu_backend;
    d.vendor = VendorOf(gpu_backend);
    if (d.name.empty()) {
      auto label = merged.process_labels.find(key);
      if (label != merged.process_labels.end() && gpu_backend != Backend::kRocm)
        d.name = label->second;
    }
    key_to_device[i] = static_cast<uint32_t>(trace->devices.size());
    trace->devices.push_back(std::move(d));
  }
  for (Kernel& k : trace->kernels) k.device = key_to_device[k.device];
  for (Transfer& t : trace->transfers) t.device = key_to_device[t.device];
}

// Adds Kineto's base time to every timestamp. Timestamps are within ±2^62 ns (the builder checks),
// so a base time within [0, 2^62) cannot overflow; anything else is not a real base time.
void ApplyBaseTime(int64_t base, Trace* trace) {
  if (base < 0 || base >= (int64_t{1} << 62)) {
    trace->warnings.push_back(fmt::format(
        "baseTimeNanoseconds {} is not a plausible epoch time; timestamps are left relative",
        base));
    trace->base_time_ns.reset();
    return;
  }
  ShiftTraceTimes(base, trace);
}

void DescribeFormat(const TopLevelMetadata& meta, const FormatEvidence& evidence, Trace* trace) {
  if (evidence.cpu_functions_pid > 0 && evidence.categorised == 0) {
    trace->format = "pytorch-autograd";
    trace->format_version = "legacy autograd profiler export (use_kineto=False)";
    return;
  }
  const bool kineto =
      evidence.categorised > 0 || meta.schema_version || !meta.device_properties.empty();
  trace->format = kineto ? "kineto" : "chrome-json";
  if (!kineto) {
    trace->format_version = "Chrome Trace Event format";
    return;
  }
  std::string era;
  if (evidence.legacy_gpu_categories > 0) {
    era = "2021 (Kernel/Runtime categories)";
  } else if (evidence.async_gpu_flows > 0) {
    era = "2022 (async_gpu flows)";
  } else if (meta.base_time_ns) {
    era = "2024-05+ (relative timestamps, baseTimeNanoseconds)";
  } else if (evidence.fractional_timestamps > 0) {
    era = "2024 (ns-precision timestamps)";
  } else if (evidence.ac2g_flows > 0) {
    era = "2022-10+ (ac2g flows)";
  } else {
    era = "schema era not identifiable";
  }
  trace->format_version =
      meta.schema_version ? fmt::format("schemaVersion {}, {}", *meta.schema_version, era) : era;
}

void NameTracks(const MergedChunks& merged, Trace* trace) {
  for (size_t i = 0; i < trace->tracks.size(); ++i) {
    auto it = merged.thread_names.find(merged.track_keys[i]);
    if (it != merged.thread_names.end()) trace->tracks[i].thread_name = it->second;
  }
}

// Our own chrome-json export names each device's backend (trace_metadata.h); it wins over the
// guess, which can only give one backend for the whole trace. Whether any device was named.
bool ApplyExportedDevices(const TopLevelMetadata& meta, Trace* trace) {
  if (meta.exported_devices.empty()) return false;
  bool named = false;
  for (Device& d : trace->devices) {
    auto it = meta.exported_devices.find(d.trace_id);
    if (it == meta.exported_devices.end()) continue;
    named = true;
    d.backend = it->second.first;
    d.vendor = it->second.second;
  }
  std::erase_if(trace->warnings, [](const std::string& w) {
    return w.starts_with("cannot tell which GPU runtime produced this trace");
  });
  return named;
}

}  // namespace

void BuildChromeTrace(const TopLevelMetadata& meta, MergedChunks& merged, Trace* trace) {
  trace->rank = meta.rank;
  trace->world_size = meta.world_size;
  trace->base_time_ns = meta.base_time_ns;
  trace->metadata = meta.scalars;
  if (!meta.distributed_backend.empty()) {
    trace->metadata[std::string(kDistributedBackendKey)] = meta.distributed_backend;
    trace->distributed_backend = meta.distributed_backend;
  }

  const JaxEvents jax = ClassifyUntypedEvents(merged, trace);
  std::string reason;
  Backend gpu = DecideGpuBackend(meta, merged, *trace, &reason);
  const bool device_work = !trace->kernels.empty() || !trace->transfers.empty();
  if (device_work && reason.empty()) {
    trace->warnings.push_back(
        "cannot tell which GPU runtime produced this trace (no runtime versions, runtime calls or "
        "device names); its kernels are reported with backend 'other'");
  }
  ResolveDevices(meta, merged, gpu, trace);
  NumberJaxDevices(jax, trace);
  if (meta.base_time_ns && *meta.base_time_ns != 0) ApplyBaseTime(*meta.base_time_ns, trace);
  NameTracks(merged, trace);
  DescribeFormat(meta, merged.evidence, trace);
  if (jax.any() && merged.evidence.categorised == 0) {
    trace->format = "jax-json";
    trace->format_version = "XLA trace viewer JSON (trace.json.gz / perfetto_trace.json.gz)";
  }

  const bool named = ApplyExportedDevices(meta, trace);
  SetCudaArchs(trace);  // deviceProperties' computeMajor/Minor, once the backends are known
  // Our own export of a trace from another importer carries its facts as metadata keys.
  SetFieldsFromMetadata(trace);
  // Rows without a device ran on the guessed runtime, unless our export named the devices; an
  // export's devices count whether they ran something or not.
  BackendFacts backends{.every_device = !meta.exported_devices.empty()};
  if (!named) backends.deviceless = gpu;
  FinishImport(trace, {.backends = backends});
}

}  // namespace tensormorph::chrome
