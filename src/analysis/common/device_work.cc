#include "analysis/common/device_work.h"

#include <algorithm>
#include <cctype>
#include <tuple>

namespace tensormorph {
namespace {

// ASCII only (kernel names; `needle` lower case): called for every kernel by every analysis that
// classifies work, so no locale lookup per character (std::tolower was a seventh of `whatif` on a
// large job).
bool ContainsNoCase(std::string_view text, std::string_view needle) {
  auto it = std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
    return static_cast<char>(a >= 'A' && a <= 'Z' ? a - 'A' + 'a' : a) == b;
  });
  return it != text.end();
}

// By (start, end, kind, row): a total order (no two items share kind and row), so any sort gives
// the same result. The tables come sorted by (device, stream, start, duration, name), so a
// device's items are one sorted run per stream (a row's place in its table breaks the ties the
// table's name order leaves); merging the runs pairwise takes log2(streams) passes where a sort
// of the whole takes log2(items). An unsorted table is many short runs: a merge sort.
void SortByStartMergingRuns(std::vector<WorkItem>* items) {
  auto before = [](const WorkItem& a, const WorkItem& b) {
    return std::tie(a.start_ns, a.end_ns, a.kind, a.row) <
           std::tie(b.start_ns, b.end_ns, b.kind, b.row);
  };
  std::vector<size_t> bounds = {0};
  for (size_t i = 1; i < items->size(); ++i) {
    if (before((*items)[i], (*items)[i - 1])) bounds.push_back(i);
  }
  bounds.push_back(items->size());
  while (bounds.size() > 2) {
    std::vector<size_t> merged = {0};
    size_t k = 0;
    for (; k + 2 < bounds.size(); k += 2) {
      std::inplace_merge(items->begin() + static_cast<std::ptrdiff_t>(bounds[k]),
                         items->begin() + static_cast<std::ptrdiff_t>(bounds[k + 1]),
                         items->begin() + static_cast<std::ptrdiff_t>(bounds[k + 2]), before);
      merged.push_back(bounds[k + 2]);
    }
    if (k + 1 < bounds.size()) merged.push_back(bounds[k + 1]);  // an odd run left as it is
    bounds = std::move(merged);
  }
}

uint32_t DeviceSlot(const Trace& trace, uint32_t device) {
  return device < trace.devices.size() ? device : static_cast<uint32_t>(trace.devices.size());
}

}  // namespace

WorkClass ClassifyKernelName(std::string_view name) {
  if (ContainsNoCase(name, "nccl") || ContainsNoCase(name, "rccl")) {
    return WorkClass::kCommunication;
  }
  for (std::string_view prefix : {"Memcpy", "Memset", "hipMemcpy", "hipMemset", "dma"}) {
    if (name.starts_with(prefix)) return WorkClass::kMemory;
  }
  return WorkClass::kComputation;
}

std::vector<std::vector<WorkItem>> CollectDeviceWork(const Trace& trace) {
  std::vector<std::vector<WorkItem>> work(trace.devices.size() + 1);
  // Each device's vector made once at its size: grown by doubling, a 1 GB trace's would touch
  // twice its memory, and memory touched for the first time costs a page fault (docs/performance.md
  // "First touches").
  std::vector<size_t> count(work.size(), 0);
  for (const Kernel& k : trace.kernels) ++count[DeviceSlot(trace, k.device)];
  for (const Transfer& t : trace.transfers) ++count[DeviceSlot(trace, t.device)];
  for (size_t d = 0; d < work.size(); ++d) work[d].reserve(count[d]);
  // Kernel names repeat; classify each string id once.
  std::vector<int8_t> class_of_name;
  for (uint32_t i = 0; i < trace.kernels.size(); ++i) {
    const Kernel& k = trace.kernels[i];
    if (k.name >= class_of_name.size()) class_of_name.resize(k.name + 1, -1);
    if (class_of_name[k.name] < 0) {
      class_of_name[k.name] = static_cast<int8_t>(ClassifyKernelName(trace.str(k.name)));
    }
    work[DeviceSlot(trace, k.device)].push_back({k.start_ns, k.end_ns(), k.stream, i,
                                                 WorkKind::kKernel,
                                                 static_cast<WorkClass>(class_of_name[k.name])});
  }
  for (uint32_t i = 0; i < trace.transfers.size(); ++i) {
    const Transfer& t = trace.transfers[i];
    const WorkKind kind = t.kind == TransferKind::kMemset ? WorkKind::kMemset : WorkKind::kMemcpy;
    work[DeviceSlot(trace, t.device)].push_back(
        {t.start_ns, t.start_ns + t.duration_ns, t.stream, i, kind, WorkClass::kMemory});
  }
  for (auto& items : work) SortByStartMergingRuns(&items);
  return work;
}

std::string_view WorkName(const Trace& trace, const WorkItem& item) {
  return item.kind == WorkKind::kKernel ? trace.str(trace.kernels[item.row].name)
                                        : trace.str(trace.transfers[item.row].name);
}

std::vector<Interval> IntervalsOf(const std::vector<WorkItem>& work) {
  std::vector<Interval> out;
  out.reserve(work.size());
  for (const WorkItem& w : work) out.push_back(w.interval());
  return out;
}

}  // namespace tensormorph
