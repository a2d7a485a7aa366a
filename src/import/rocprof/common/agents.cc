#include "import/rocprof/common/agents.h"

#include <fmt/format.h>

#include <algorithm>

namespace tensormorph::rocprof {

Status ReadAgentInfo(CsvFile* file, Warnings* warnings, std::vector<AgentInfo>* agents) {
  const Columns c(file->header());
  const size_t node = c.Find({"Node_Id"}), logical = c.Find({"Logical_Node_Id"}),
               type = c.Find({"Agent_Type"}), name = c.Find({"Name"}),
               product = c.Find({"Product_Name"}), version = c.Find({"Gfx_Target_Version"}),
               cus = c.Find({"Cu_Count"}), wave = c.Find({"Wave_Front_Size"}),
               waves = c.Find({"Max_Waves_Per_Cu"}), lds = c.Find({"Lds_Size_In_Kb"});
  auto integer = [](const CsvRecord& row, size_t column) -> int64_t {
    if (column == kMissing) return 0;
    std::optional<int64_t> v = ParseInt(row.at(column));
    return v && *v > 0 ? *v : 0;
  };
  CsvRecord row;
  while (file->Next(&row, warnings)) {
    std::optional<int64_t> node_id = ParseInt(row.at(node));
    std::optional<int64_t> logical_id = ParseInt(row.at(logical));
    if (!node_id || !logical_id) {
      warnings->Row(file->path(), row.line, "agent without Node_Id / Logical_Node_Id: skipped");
      continue;
    }
    AgentInfo a;
    a.node_id = *node_id;
    a.logical_node_id = *logical_id;
    a.gpu = type != kMissing && row.at(type) == "GPU";
    if (name != kMissing) a.gfx = row.at(name);
    if (product != kMissing) a.product = row.at(product);
    a.gfx_target_version = integer(row, version);
    a.cu_count = integer(row, cus);
    a.wave_front_size = integer(row, wave);
    a.max_waves_per_cu = integer(row, waves);
    a.lds_kb = integer(row, lds);
    agents->push_back(std::move(a));
  }
  TM_RETURN_IF_ERROR(file->status());
  NumberGpus(agents);
  return Status::Ok();
}

void NumberGpus(std::vector<AgentInfo>* agents) {
  std::vector<AgentInfo*> gpus;
  for (AgentInfo& a : *agents) {
    if (a.gpu) gpus.push_back(&a);
  }
  std::stable_sort(gpus.begin(), gpus.end(), [](const AgentInfo* x, const AgentInfo* y) {
    return x->logical_node_id < y->logical_node_id;
  });
  for (size_t i = 0; i < gpus.size(); ++i) gpus[i]->gpu_ordinal = static_cast<int32_t>(i);
}

std::string GfxArchMetadataKey(int64_t trace_id) {
  return fmt::format("rocm_agent{}_gfx_arch", trace_id);
}

const AgentInfo* DeviceResolver::Find(const AgentRef& ref) const {
  for (const AgentInfo& a : agents_) {
    switch (ref.space) {
      case AgentRef::Space::kLogical:
        if (a.logical_node_id == ref.number) return &a;
        break;
      case AgentRef::Space::kNode:
        if (a.node_id == ref.number) return &a;
        break;
      case AgentRef::Space::kGpu:
        if (a.gpu && a.gpu_ordinal == ref.number) return &a;
        break;
      case AgentRef::Space::kCpu:
        break;
    }
  }
  return nullptr;
}

bool DeviceResolver::IsHost(std::string_view agent_text) const {
  std::optional<AgentRef> ref = ParseAgent(agent_text);
  if (!ref) return false;
  if (ref->space == AgentRef::Space::kCpu) return true;
  const AgentInfo* info = Find(*ref);
  return info != nullptr && !info->gpu;
}

void DeviceResolver::Forget(size_t count) {
  std::erase_if(devices_, [count](const auto& entry) { return entry.second >= count; });
}

uint32_t DeviceResolver::Unrecorded() {
  const auto key = std::make_pair(-1, int64_t{-1});
  if (auto it = devices_.find(key); it != devices_.end()) return it->second;
  Device d;
  d.backend = Backend::kRocm;
  d.vendor = "AMD";
  d.trace_id = -1;
  const auto index = static_cast<uint32_t>(trace_->devices.size());
  trace_->devices.push_back(std::move(d));
  devices_.emplace(key, index);
  return index;
}

uint32_t DeviceResolver::Resolve(std::string_view agent_text) {
  std::optional<AgentRef> ref = ParseAgent(agent_text);
  if (!ref || ref->space == AgentRef::Space::kCpu) return kNoDevice;
  const auto key = std::make_pair(static_cast<int>(ref->space), ref->number);
  if (auto it = devices_.find(key); it != devices_.end()) return it->second;
  const AgentInfo* info = Find(*ref);
  if (info != nullptr && !info->gpu) return kNoDevice;

  Device d;
  d.backend = Backend::kRocm;
  d.vendor = "AMD";
  d.trace_id = ref->number;
  d.index = ref->space == AgentRef::Space::kGpu ? static_cast<int32_t>(ref->number) : -1;
  if (info != nullptr) {
    d.index = info->gpu_ordinal;
    d.name = !info->product.empty() ? info->product : info->gfx;
    // Gfx_Target_Version is major*10000 + minor*100 + stepping (gfx942 = 90402).
    d.compute_major = static_cast<int32_t>(info->gfx_target_version / 10000);
    d.compute_minor = static_cast<int32_t>(info->gfx_target_version / 100 % 100);
    d.sm_count = static_cast<int32_t>(std::min<int64_t>(info->cu_count, INT32_MAX));
    d.warp_size = static_cast<int32_t>(std::min<int64_t>(info->wave_front_size, 1024));
    d.max_threads_per_sm =
        static_cast<int32_t>(std::min<int64_t>(info->max_waves_per_cu * d.warp_size, INT32_MAX));
    d.shared_memory_per_sm = std::min<int64_t>(info->lds_kb, INT32_MAX) * 1024;
    d.described = true;
    if (!info->gfx.empty()) {
      d.arch = info->gfx;
      trace_->metadata[GfxArchMetadataKey(d.trace_id)] = fmt::format("\"{}\"", info->gfx);
    }
  }
  const auto index = static_cast<uint32_t>(trace_->devices.size());
  trace_->devices.push_back(std::move(d));
  devices_.emplace(key, index);
  return index;
}

}  // namespace tensormorph::rocprof
