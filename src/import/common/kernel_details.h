// The `kernel_details` text that the XLA profiler attaches to every GPU kernel, in both of the
// spellings seen in the wild (shared/reference/chrome-kineto-jax.md §3.3):
//   CUDA (CUPTI):  "regs:32 static_shared:0 dynamic_shared:0 grid:1,1,1 block:128,1,1 occ_pct:50"
//   ROCm (JAX 0.8): " grid:1280,1,1 block:256,1,1 private_mem:0 group_mem:49280 occ_pct:0"
// JAX 0.6 on ROCm wrote the CUDA spelling with uninitialised registers and static shared memory
// (regs:2191487992 static_shared:32462 on every kernel); a register count above kMaxRegisters
// marks such a record, and then neither field is believed.
// Read by both the xplane.pb importer and the Chrome importer's JAX path.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "tensormorph/model/trace.h"

namespace tensormorph::xplane {

// No GPU gives a thread more than 512 registers (AMD: 512 VGPRs + AGPRs; NVIDIA: 255).
constexpr uint64_t kMaxRegisters = 1024;

struct KernelDetails {
  Dim3 grid, block;
  std::optional<uint64_t> registers;       // per thread
  std::optional<uint64_t> static_shared;   // bytes per block (CUDA)
  std::optional<uint64_t> dynamic_shared;  // bytes per block (CUDA)
  std::optional<uint64_t> group_memory;    // LDS bytes per workgroup (ROCm)
  std::optional<uint64_t> private_memory;  // scratch bytes per work-item (ROCm)
  bool implausible = false;  // registers above kMaxRegisters: registers and shared memory unset
};

// Fields that are absent or unreadable stay unset; unknown keys are ignored.
KernelDetails ParseKernelDetails(std::string_view text);

// Copies the launch configuration into a kernel row. Returns false when the record was implausible
// (the caller counts those for one warning).
bool ApplyKernelDetails(const KernelDetails& details, Kernel* kernel);

// The byte count of an XLA `memcpy_details` text ("kind:Unknown size:655360 dest:2 async:1"),
// 0 when absent.
uint64_t MemcpyBytes(std::string_view memcpy_details);

}  // namespace tensormorph::xplane
