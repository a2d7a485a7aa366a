// Whether a workload's memory fits a device (compare, predict): the workload's peak, the largest
// peak allocated over the accelerators of its trace (memory.h), against a device's capacity.
//
// Invariants:
//  - the peak is allocated memory, not reserved: the caching allocator's reserve beyond it is
//    cache, which another device's allocator would size by its own rules; it is reported beside;
//  - on the "running sum" basis the trace does not know what was allocated before it, so the peak
//    is a lower bound and the text says "at least";
//  - a device whose capacity is not known has no verdict (fits is empty), never a guess; the
//    peak measured on one device is what the workload needs on another only as far as the
//    libraries allocate alike (workspaces differ by vendor), which docs/memory.md says.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tensormorph/devices/device_db.h"
#include "tensormorph/link/linked_trace.h"

namespace tensormorph {

struct WorkloadMemory {
  int64_t peak_allocated_bytes = 0;
  std::optional<int64_t> peak_reserved_bytes;
  std::string basis;   // "allocator totals" or "running sum" (then the peak is a lower bound)
  std::string device;  // the device that peaked (DeviceLabel)
};

struct MemoryFit {
  std::string device;  // the device's label or database key
  std::optional<int64_t> capacity_bytes;
  std::optional<bool> fits;  // peak allocated <= capacity; none when the capacity is unknown
  std::optional<double> percent_of_capacity;
};

// The workload's peak; none when the trace has no allocator records of an accelerator.
std::optional<WorkloadMemory> WorkloadPeak(const LinkedTrace& linked,
                                           const std::vector<DeviceSpec>& devices);

// A device's memory: what the trace reports for it, else the database's entry (per device of a
// package); none when neither knows.
std::optional<int64_t> TraceDeviceCapacity(const Trace& trace, uint32_t device,
                                           const std::vector<DeviceSpec>& devices);
std::optional<int64_t> SpecCapacity(const DeviceSpec& spec);

MemoryFit FitMemory(const WorkloadMemory& memory, std::string device,
                    std::optional<int64_t> capacity_bytes);

// "needs 1.945 GiB at peak (allocated; 2.3 GiB reserved): fits MI300X (191.5 GiB, 1.0 %), not
// L4 (22.0 GiB)"; "needs at least ..." on the running-sum basis.
std::string DescribeMemoryFits(const WorkloadMemory& memory, const std::vector<MemoryFit>& fits);

}  // namespace tensormorph
