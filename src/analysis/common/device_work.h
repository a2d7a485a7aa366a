// The device work the timeline looks at: every kernel, memcpy and memset of a trace, grouped by
// device, with the class Holistic Trace Analysis gives it (communication / memory / computation).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/common/intervals.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

enum class WorkKind : uint8_t { kKernel, kMemcpy, kMemset };

// HTA's kernel types (hta/common/types.py): communication = collective library kernels, memory =
// copies and fills, computation = the rest.
enum class WorkClass : uint8_t { kCommunication, kMemory, kComputation };

// Communication: the name contains "nccl" or "rccl" in any case (ncclKernel_AllReduce_...,
// ncclDevKernel_..., RCCL's own kernels). Memory: HTA's MEM regex, a name starting with Memcpy,
// Memset, hipMemcpy, hipMemset or dma. Computation: every other kernel.
WorkClass ClassifyKernelName(std::string_view name);

struct WorkItem {
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  int64_t stream = -1;
  uint32_t row = 0;  // index into Trace::kernels or Trace::transfers, by `kind`
  WorkKind kind = WorkKind::kKernel;
  WorkClass work_class = WorkClass::kComputation;
  Interval interval() const { return {start_ns, end_ns}; }
};

// Element d: the work of Trace::devices[d], sorted by (start, end, kind, row); one more element
// at the end holds work whose device the trace does not name (usually empty). Memcpys and memsets
// are always memory work.
std::vector<std::vector<WorkItem>> CollectDeviceWork(const Trace& trace);

// The name of the kernel or transfer behind a work item.
std::string_view WorkName(const Trace& trace, const WorkItem& item);

std::vector<Interval> IntervalsOf(const std::vector<WorkItem>& work);

}  // namespace tensormorph
