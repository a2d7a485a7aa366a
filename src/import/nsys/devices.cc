#include "import/nsys/devices.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <numeric>

namespace tensormorph::nsys {
namespace {

int32_t ToInt32(std::optional<int64_t> value) {
  return value ? static_cast<int32_t>(std::clamp<int64_t>(*value, 0, INT32_MAX)) : 0;
}

Device NvidiaDevice(int64_t id) {
  Device d;
  d.backend = Backend::kCuda;
  d.vendor = "NVIDIA";
  d.trace_id = id;
  return d;
}

// TARGET_INFO_GPU, by id (the deviceId of the activity tables).
StatusOr<std::map<int64_t, Device>> ReadGpuTable(ImportContext& context) {
  std::map<int64_t, Device> devices;
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement rows,
      SelectColumns(context.db(), context.schema(), kGpuTable, {"id"},
                    {"name", "cuDevice", "computeMajor", "computeMinor", "smCount",
                     "threadsPerWarp", "maxWarpsPerSm", "maxRegistersPerSm", "maxShmemPerSm",
                     "maxShmemPerBlock", "totalMemory", "memoryBandwidth", "clockRate",
                     "l2CacheSize", "chipName", "maxBlocksPerSm", "maxShmemPerBlockOptin"}));
  auto column = [&](const char* name) { return rows.Int(rows.Index(name)); };
  Trace& trace = context.trace();
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, rows.Step());
    if (!more) break;
    ++trace.described_device_count;
    std::optional<int64_t> id = column("id");
    if (!id) continue;
    Device d = NvidiaDevice(*id);
    d.described = true;
    d.name = std::string(rows.Text(rows.Index("name")).value_or(""));
    // cuDevice is the CUDA ordinal; `id` need not be (a 4-GPU export numbers them in reverse).
    if (std::optional<int64_t> ordinal = column("cuDevice"); ordinal && *ordinal >= 0)
      d.index = ToInt32(ordinal);
    d.compute_major = ToInt32(column("computeMajor"));
    d.compute_minor = ToInt32(column("computeMinor"));
    d.sm_count = ToInt32(column("smCount"));
    d.warp_size = ToInt32(column("threadsPerWarp"));
    d.max_threads_per_sm = ToInt32(column("maxWarpsPerSm")) * d.warp_size;
    d.registers_per_sm = ToInt32(column("maxRegistersPerSm"));
    d.shared_memory_per_sm = std::max<int64_t>(0, column("maxShmemPerSm").value_or(0));
    d.shared_memory_per_block = std::max<int64_t>(0, column("maxShmemPerBlock").value_or(0));
    d.total_memory_bytes = std::max<int64_t>(0, column("totalMemory").value_or(0));
    // Properties the model has no field for yet; bandwidth is bytes/s, the clock Hz.
    for (const char* extra : {"memoryBandwidth", "clockRate", "l2CacheSize", "maxBlocksPerSm",
                              "maxShmemPerBlockOptin"}) {
      if (std::optional<int64_t> v = column(extra))
        trace.metadata[fmt::format("gpu.{}.{}", *id, extra)] = std::to_string(*v);
    }
    if (std::optional<std::string_view> chip = rows.Text(rows.Index("chipName")))
      trace.metadata[fmt::format("gpu.{}.chipName", *id)] = std::string(*chip);
    devices.emplace(*id, std::move(d));
  }
  return devices;
}

// The older layout: TARGET_INFO_GPU (vmId, deviceId, name, busLocation, isDiscrete) names the
// devices and TARGET_INFO_CUDA_GPU (one row per deviceId) describes them. Its bandwidth is in
// kB/s and its clock in kHz (an A100-PCIE-40GB: 1555200000 and 1410000, where the current layout
// writes 1555200000000 B/s and 1410000000 Hz); they are kept in the current layout's units.
StatusOr<std::map<int64_t, Device>> ReadLegacyGpuTables(ImportContext& context) {
  std::map<int64_t, Device> devices;
  Trace& trace = context.trace();
  {
    TM_ASSIGN_OR_RETURN(sqlite::Statement rows, SelectColumns(context.db(), context.schema(),
                                                              kGpuTable, {"deviceId"}, {"name"}));
    for (;;) {
      TM_ASSIGN_OR_RETURN(bool more, rows.Step());
      if (!more) break;
      ++trace.described_device_count;
      std::optional<int64_t> id = rows.Int(rows.Index("deviceId"));
      if (!id) continue;
      Device d = NvidiaDevice(*id);
      d.index = ToInt32(id);  // the old layout has no CUDA ordinal column; deviceId is it
      d.name = std::string(rows.Text(rows.Index("name")).value_or(""));
      devices.emplace(*id, std::move(d));
    }
  }
  if (!context.schema().HasTable(kLegacyCudaGpuTable)) return devices;
  TM_ASSIGN_OR_RETURN(
      sqlite::Statement rows,
      SelectColumns(
          context.db(), context.schema(), kLegacyCudaGpuTable, {"deviceId"},
          {"name", "numMultiprocessors", "computeCapabilityMajor", "computeCapabilityMinor",
           "numThreadsPerWarp", "maxWarpsPerMultiprocessor", "maxRegistersPerMultiprocessor",
           "maxSharedMemoryPerMultiprocessor", "maxSharedMemoryPerBlock", "globalMemorySize",
           "globalMemoryBandwidth", "coreClockRate", "l2CacheSize", "maxBlocksPerMultiprocessor"}));
  auto column = [&](const char* name) { return rows.Int(rows.Index(name)); };
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, rows.Step());
    if (!more) break;
    std::optional<int64_t> id = column("deviceId");
    if (!id) continue;
    auto [it, added] = devices.try_emplace(*id, NvidiaDevice(*id));
    Device& d = it->second;
    if (added) {
      ++trace.described_device_count;
      d.index = ToInt32(id);
    }
    d.described = true;
    if (d.name.empty()) d.name = std::string(rows.Text(rows.Index("name")).value_or(""));
    d.compute_major = ToInt32(column("computeCapabilityMajor"));
    d.compute_minor = ToInt32(column("computeCapabilityMinor"));
    d.sm_count = ToInt32(column("numMultiprocessors"));
    d.warp_size = ToInt32(column("numThreadsPerWarp"));
    d.max_threads_per_sm = ToInt32(column("maxWarpsPerMultiprocessor")) * d.warp_size;
    d.registers_per_sm = ToInt32(column("maxRegistersPerMultiprocessor"));
    d.shared_memory_per_sm =
        std::max<int64_t>(0, column("maxSharedMemoryPerMultiprocessor").value_or(0));
    d.shared_memory_per_block = std::max<int64_t>(0, column("maxSharedMemoryPerBlock").value_or(0));
    d.total_memory_bytes = std::max<int64_t>(0, column("globalMemorySize").value_or(0));
    const std::pair<const char*, std::pair<const char*, int64_t>> extras[] = {
        {"globalMemoryBandwidth", {"memoryBandwidth", 1000}},
        {"coreClockRate", {"clockRate", 1000}},
        {"l2CacheSize", {"l2CacheSize", 1}},
        {"maxBlocksPerMultiprocessor", {"maxBlocksPerSm", 1}}};
    for (const auto& [legacy, current] : extras) {
      if (std::optional<int64_t> v = column(legacy)) {
        trace.metadata[fmt::format("gpu.{}.{}", *id, current.first)] =
            std::to_string(*v * current.second);
      }
    }
  }
  return devices;
}

// TARGET_INFO_CUDA_DEVICE (gpuId, cudaId, numMultiprocessors): the ordinal and SM count when
// TARGET_INFO_GPU is missing.
Status ReadCudaDeviceTable(ImportContext& context, std::map<int64_t, Device>* devices) {
  TM_ASSIGN_OR_RETURN(sqlite::Statement rows,
                      SelectColumns(context.db(), context.schema(), kCudaDeviceTable, {"gpuId"},
                                    {"cudaId", "numMultiprocessors"}));
  for (;;) {
    TM_ASSIGN_OR_RETURN(bool more, rows.Step());
    if (!more) break;
    std::optional<int64_t> id = rows.Int(rows.Index("gpuId"));
    if (!id || devices->contains(*id)) continue;
    Device d = NvidiaDevice(*id);
    if (std::optional<int64_t> ordinal = rows.Int(rows.Index("cudaId")); ordinal && *ordinal >= 0)
      d.index = ToInt32(ordinal);
    d.sm_count = ToInt32(rows.Int(rows.Index("numMultiprocessors")));
    devices->emplace(*id, std::move(d));
  }
  return Status::Ok();
}

}  // namespace

Status ResolveDevices(ImportContext& context) {
  const Schema& schema = context.schema();
  Trace& trace = context.trace();
  std::map<int64_t, Device> known;
  const bool has_gpu_table = schema.HasTable(kGpuTable);
  if (has_gpu_table) {
    const bool legacy =
        !schema.HasColumn(kGpuTable, "id") && schema.HasColumn(kGpuTable, "deviceId");
    TM_ASSIGN_OR_RETURN(known, legacy ? ReadLegacyGpuTables(context) : ReadGpuTable(context));
  } else if (schema.HasTable(kCudaDeviceTable)) {
    TM_RETURN_IF_ERROR(ReadCudaDeviceTable(context, &known));
  }

  // Devices in deviceId order; slot_to_index maps the slots rows carry to positions in it.
  const std::vector<int64_t>& ids = context.device_ids();
  std::vector<uint32_t> order(ids.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) { return ids[a] < ids[b]; });
  std::vector<uint32_t> slot_to_index(ids.size());
  std::vector<int64_t> unknown;
  for (uint32_t slot : order) {
    auto it = known.find(ids[slot]);
    if (it == known.end() || !it->second.described) unknown.push_back(ids[slot]);
    slot_to_index[slot] = static_cast<uint32_t>(trace.devices.size());
    trace.devices.push_back(it != known.end() ? it->second : NvidiaDevice(ids[slot]));
  }
  for (Kernel& k : trace.kernels) k.device = slot_to_index[k.device];
  for (Transfer& t : trace.transfers) t.device = slot_to_index[t.device];

  if (unknown.empty()) return Status::Ok();
  if (!has_gpu_table) {
    trace.warnings.emplace_back(
        "the export has no TARGET_INFO_GPU table: GPU names and properties are unknown; devices "
        "are shown by the deviceId their activities carry");
  } else {
    trace.warnings.push_back(fmt::format(
        "deviceId {} not described in TARGET_INFO_GPU: shown without name or properties",
        fmt::join(unknown, ", ")));
  }
  return Status::Ok();
}

}  // namespace tensormorph::nsys
