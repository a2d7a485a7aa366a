// TraceBuilder::Build(), after the last record: the model's order, and the defaults of header
// members that the file left out (counts, described devices, format; the backends are
// FinishImport's, which runs next).
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <string_view>
#include <tuple>

#include "import/common/device_arch.h"
#include "import/common/metadata_keys.h"
#include "import/native/native_schema.h"
#include "import/native/trace_builder.h"

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

CounterSource CountersOf(std::string_view format) {
  if (format == "ncu-csv") return CounterSource::kNsightCompute;
  if (format == "rocprof") return CounterSource::kRocprofCompute;
  if (format == "rocprof-compute-db") return CounterSource::kRocprofComputeDb;
  if (format == "rocpd") return CounterSource::kRocpd;
  return CounterSource::kNone;
}

// The model's typed facts that tensormorph.trace/1 does not spell out, from what the file does
// carry: the source format, and the metadata keys the importers write beside each field
// (import/common/metadata_keys.h). A file written by the exporter reads back with the fields its
// trace had.
void DeriveTypedFacts(Trace* t) {
  SetFieldsFromMetadata(t);
  for (Device& d : t->devices) SetCudaArch(&d);
  const CounterSource counters = CountersOf(t->format);
  for (KernelCounters& c : t->kernel_counters) {
    if (c.source == CounterSource::kNone) c.source = counters;
  }
  // Only the Nsight Compute importer copies a measurement into the kernel row.
  const CounterSource row_occupancy = counters == CounterSource::kNsightCompute
                                          ? CounterSource::kNsightCompute
                                          : CounterSource::kKinetoEstimate;
  for (Kernel& k : t->kernels) {
    if (k.achieved_occupancy_percent >= 0 && k.occupancy_source == CounterSource::kNone) {
      k.occupancy_source = row_occupancy;
    }
  }
  t->kernels_traced_on_request = t->format == "nsys-sqlite";
}

}  // namespace

StatusOr<Trace> TraceBuilder::Build() {
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
  DeriveTypedFacts(&t);
  return std::move(t);
}

}  // namespace tensormorph::native
