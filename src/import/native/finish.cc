// The last step of a native import: the model's order, and the defaults of header members that
// the file left out (counts, backends, described devices, format).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <tuple>

#include "import/native/native_schema.h"
#include "import/native/trace_assembler.h"
#include "model/trace_order.h"

namespace tensormorph::native {
namespace {

// The model's order (device tables by device, stream, start; host tables by track, start, longer
// first), applied with a stable sort, and only to a table that is out of order: a file written by
// the exporter is already in order, and keeping its rows exactly as written keeps rows that tie
// on every key (SortTraceTables' std::sort would leave them in no particular order) and the
// kernel positions that kernel_counters refer to.
auto DeviceKey = [](const auto& row) { return std::tie(row.device, row.stream, row.start_ns); };
auto TrackKey = [](const auto& row) {
  return std::make_tuple(row.track, row.start_ns, -row.duration_ns);
};

template <typename Row, typename Key>
bool InOrder(const std::vector<Row>& rows, Key key) {
  return std::is_sorted(rows.begin(), rows.end(),
                        [&](const Row& a, const Row& b) { return key(a) < key(b); });
}

template <typename Row, typename Key>
void StableOrder(std::vector<Row>* rows, Key key) {
  if (InOrder(*rows, key)) return;
  std::stable_sort(rows->begin(), rows->end(),
                   [&](const Row& a, const Row& b) { return key(a) < key(b); });
}

// Kernels in the model's order, with kernel_counters following their kernels.
void OrderKernels(Trace* trace) {
  if (InOrder(trace->kernels, DeviceKey)) return;
  std::vector<uint32_t> order(trace->kernels.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return DeviceKey(trace->kernels[a]) < DeviceKey(trace->kernels[b]);
  });
  std::vector<uint32_t> new_index(order.size());
  std::vector<Kernel> sorted;
  sorted.reserve(order.size());
  for (uint32_t i = 0; i < order.size(); ++i) {
    new_index[order[i]] = i;
    sorted.push_back(trace->kernels[order[i]]);
  }
  trace->kernels = std::move(sorted);
  for (KernelCounters& c : trace->kernel_counters) c.kernel = new_index[c.kernel];
  std::stable_sort(
      trace->kernel_counters.begin(), trace->kernel_counters.end(),
      [](const KernelCounters& a, const KernelCounters& b) { return a.kernel < b.kernel; });
}

// What each count is when the header does not give it: the rows of that kind.
uint64_t CountedFromRows(const Trace& t, std::string_view name) {
  auto count_if = [](const auto& rows, auto predicate) {
    return static_cast<uint64_t>(std::count_if(rows.begin(), rows.end(), predicate));
  };
  auto slices_of = [&](SliceKind kind) {
    return count_if(t.slices, [&](const Slice& s) { return s.kind == kind; });
  };
  auto calls_of = [&](ApiKind kind) {
    return count_if(t.api_calls, [&](const ApiCall& c) { return c.kind == kind; });
  };
  auto transfers_of = [&](TransferKind kind) {
    return count_if(t.transfers, [&](const Transfer& x) { return x.kind == kind; });
  };
  if (name == "kernels") return t.kernels.size();
  if (name == "memcpys") return transfers_of(TransferKind::kMemcpy);
  if (name == "memsets") return transfers_of(TransferKind::kMemset);
  if (name == "runtime_calls") return calls_of(ApiKind::kRuntime);
  if (name == "driver_calls") return calls_of(ApiKind::kDriver);
  if (name == "sync_events") return calls_of(ApiKind::kSync);
  if (name == "ops") return slices_of(SliceKind::kOp);
  if (name == "annotations") return slices_of(SliceKind::kUserAnnotation);
  if (name == "gpu_annotations") return slices_of(SliceKind::kGpuAnnotation);
  if (name == "python_functions") return slices_of(SliceKind::kPythonFunction);
  if (name == "flows") return t.flows.size();
  return 0;
}

}  // namespace

StatusOr<Trace> TraceAssembler::Finish() {
  Trace& t = trace_;
  OrderKernels(&t);
  StableOrder(&t.transfers, DeviceKey);
  StableOrder(&t.api_calls, TrackKey);
  StableOrder(&t.slices, TrackKey);
  StableOrder(&t.instants, [](const Instant& i) { return std::tie(i.track, i.ts_ns); });

  for (size_t i = 0; i < std::size(kCountFields); ++i) {
    if (!counts_given_[i])
      t.counts.*kCountFields[i].member = CountedFromRows(t, kCountFields[i].name);
  }
  if (!backends_given_) {
    // As the other importers decide it: cpu, plus the backends of the devices that ran something.
    std::set<Backend> used = {Backend::kCpu};
    for (const Kernel& k : t.kernels) {
      if (k.device != kNoDevice) used.insert(t.devices[k.device].backend);
    }
    for (const Transfer& x : t.transfers) {
      if (x.device != kNoDevice) used.insert(t.devices[x.device].backend);
    }
    t.backends.assign(used.begin(), used.end());
  }
  if (!described_count_given_) {
    t.described_device_count = static_cast<int32_t>(std::count_if(
        t.devices.begin(), t.devices.end(), [](const Device& d) { return d.described; }));
  }
  if (!format_given_) {
    t.format = kNativeFormat;
    if (t.format_version.empty()) t.format_version = kSchema;
  }
  for (const auto& [what, seen] : unknown_) {
    t.warnings.push_back(fmt::format("{}:{}:{}: {} is not part of {}; ignored ({} time{})", t.path,
                                     seen.first.line, seen.first.column, what, kSchema, seen.count,
                                     seen.count == 1 ? "" : "s"));
  }
  ComputeTraceSpan(&t);
  return std::move(t);
}

}  // namespace tensormorph::native
