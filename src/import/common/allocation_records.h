// Allocator records of formats that keep them as table rows (Nsight Systems'
// CUDA_GPU_MEMORY_USAGE_EVENTS, rocpd's rocpd_memory_allocate), written into the trace in the form
// the model keeps Kineto's: `[memory]` instants with Device Type, Device Id, Addr and Bytes
// (model/trace.h), read by analysis/memory like the PyTorch profiler's own.
//
// Invariants:
//  - an allocation is written with its size; a free with minus the size of the allocation it
//    frees, on that allocation's device, found by address within its process (virtual addresses
//    are unique in a process on CUDA and ROCm, whatever the device): rocpd writes size 0 and no
//    agent on frees. A free of an address the rows never allocated is written with the size and
//    device the row gives, or skipped and counted when either is unknown;
//  - no allocated totals are written: the sources have none, so allocated memory is the running
//    sum from the first record (memory.h's "running sum" basis); a reserved total only where the
//    source gives one;
//  - rows are taken in the order given; the caller gives them in time order per device.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <utility>

#include "tensormorph/model/trace.h"

namespace tensormorph {

// c10::DeviceType numbers, as Kineto writes them in "Device Type".
inline constexpr int64_t kC10Cpu = 0, kC10Cuda = 1, kC10Hip = 6;

// Where a record belongs: c10::DeviceType and the device's ordinal (Device::index) for
// accelerators, 0 for the host.
struct RecordDevice {
  int64_t type = kC10Cpu;
  int64_t id = 0;
};

class AllocationRecordWriter {
 public:
  explicit AllocationRecordWriter(Trace* trace) : trace_(trace) {}

  // `process`: any number that tells the source's processes apart (their addresses may repeat).
  // `total_reserved`: what the device's allocator holds after this record, where the source says
  // (Nsight's memory pools), written as Kineto's "Total Reserved".
  void Allocate(int64_t ts_ns, uint32_t track, int64_t process, RecordDevice device,
                uint64_t address, int64_t bytes, std::optional<int64_t> total_reserved = {});
  // `device` and `bytes` (positive) when the row gives them. Returns the device the free was
  // written on (its allocation's), none when it was left out.
  std::optional<RecordDevice> Free(int64_t ts_ns, uint32_t track, int64_t process,
                                   std::optional<RecordDevice> device, uint64_t address,
                                   std::optional<int64_t> bytes,
                                   std::optional<int64_t> total_reserved = {});

  uint64_t written() const { return written_; }
  // Frees of an address never allocated in the rows and without a size or device of their own.
  uint64_t unmatched_frees() const { return unmatched_frees_; }

 private:
  struct Alive {
    RecordDevice device;
    int64_t bytes = 0;
  };
  void Write(int64_t ts_ns, uint32_t track, RecordDevice device, uint64_t address, int64_t bytes,
             std::optional<int64_t> total_reserved);

  Trace* trace_;
  StringId name_ = 0, category_ = 0;
  std::map<std::pair<int64_t, uint64_t>, Alive> alive_;  // by (process, address)
  uint64_t written_ = 0, unmatched_frees_ = 0;
};

}  // namespace tensormorph
