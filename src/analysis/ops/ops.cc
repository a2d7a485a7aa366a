#include "tensormorph/analysis/ops/ops.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <unordered_map>

#include "analysis/common/saturating.h"
#include "analysis/ranking.h"
#include "analysis/roofline_ops.h"
#include "link/op_stacks.h"
#include "link/slice_device_time.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {
namespace {

// What makes rows distinct: the input (by_input / by_instance), the slice (by_instance), the
// module path (by_stack), the origin and the name.
using RowKey = std::tuple<int, int64_t, std::string, std::string, std::string>;

struct RowAccumulator {
  OpRow row;
  std::map<std::pair<Backend, std::string>, OpPlacement> placements;
  std::unordered_map<std::string, OpKernel> kernels;
  // The calls with flops: their FLOPs per precision, whether every one knew its bytes, and their
  // device time per (trace, device), for the row's roof.
  std::map<Precision, double> flops_by_precision;
  bool bytes_unknown = false;
  std::map<std::pair<const Trace*, uint32_t>, int64_t> flops_ns_by_device;
};

// OpRow::percent_of_roof and bound: the roofline of op shapes over the row's calls with flops,
// on the device that ran most of their time.
void ApplyRoof(const RowAccumulator& acc, const std::vector<DeviceSpec>& devices, OpRow* row) {
  if (!row->flops || !row->bytes || acc.bytes_unknown || row->flops_device_ns <= 0) return;
  const std::pair<const Trace*, uint32_t>* busiest = nullptr;
  int64_t most = 0;
  for (const auto& [where, ns] : acc.flops_ns_by_device) {
    if (where.second != kNoDevice && ns > most) {
      most = ns;
      busiest = &where;
    }
  }
  if (busiest == nullptr) return;
  RooflineRow roof;
  double most_flops = -1;
  for (const auto& [precision, flops] : acc.flops_by_precision) {
    if (flops > most_flops) {
      most_flops = flops;
      roof.precision = precision;
    }
  }
  roof.count = row->calls_with_flops;
  roof.total_ns = row->flops_device_ns;
  roof.flops = row->flops;
  roof.dram_bytes = row->bytes;
  roof.arithmetic_intensity = *row->bytes > 0 ? *row->flops / *row->bytes : 0;
  const double seconds = static_cast<double>(row->flops_device_ns) * 1e-9;
  roof.achieved_flops_per_s = *row->flops / seconds;
  roof.achieved_bytes_per_s = *row->bytes / seconds;
  ApplyOpShapeCeiling(*busiest->first, busiest->second, devices, &roof);
  row->percent_of_roof = roof.percent_of_roof;
  row->bound = roof.bound;
  row->bound_source = roof.bound_source;
}

class OpAggregator {
 public:
  explicit OpAggregator(const OpQuery& query) : query_(query) {}

  void Add(const LinkedTrace& linked, int input, bool several_inputs);
  OpSummary Finish();

 private:
  size_t RowOf(const Trace& trace, int input, uint32_t slice, const OpStacks& stacks,
               const std::string& origin);
  size_t UnattributedRow(int input, WorkOrigin origin);
  // Adds a kernel to a row: to its own device time when `self` (the row's op launched it),
  // always to the inclusive time, placements and kernel list.
  void AddKernel(const Kernel& kernel, const std::string& kernel_name, Backend backend,
                 uint32_t device, const std::string& device_label, size_t row, bool self,
                 bool graph);

  const OpQuery& query_;
  std::map<RowKey, size_t> index_;
  std::vector<RowAccumulator> rows_;
  OpSummary summary_;
  // What RowOf and AddKernel found, by integer keys of the input being added (cleared by Add):
  // op slices and kernels repeat a few thousand names, so a row's key strings are built and
  // compared once per distinct (origin, module path, name), and a kernel name is hashed once per
  // row, not once per slice or kernel. Map nodes do not move, so the pointers stay valid.
  std::vector<std::string> origins_;  // origin code -> origin
  std::unordered_map<uint64_t, size_t> row_of_key_;
  std::unordered_map<uint64_t, OpPlacement*> placement_of_key_;
  std::unordered_map<uint64_t, OpKernel*> kernel_of_key_;
};

size_t OpAggregator::RowOf(const Trace& trace, int input, uint32_t slice, const OpStacks& stacks,
                           const std::string& origin) {
  const Slice& s = trace.slices[slice];
  const int64_t instance = query_.by_instance ? static_cast<int64_t>(slice) : -1;
  uint64_t cache_key = UINT64_MAX;  // none: each slice is its own row
  const uint32_t path = stacks.PathIndexOf(slice);
  auto code = std::find(origins_.begin(), origins_.end(), origin);
  if (code == origins_.end() && origins_.size() < 256) code = origins_.insert(code, origin);
  if (!query_.by_instance && path < (1u << 24) && code != origins_.end()) {
    cache_key = static_cast<uint64_t>(code - origins_.begin()) << 56 |
                static_cast<uint64_t>(path) << 32 | s.name;
    if (auto cached = row_of_key_.find(cache_key); cached != row_of_key_.end()) {
      return cached->second;
    }
  }
  RowKey key{input, instance, stacks.PathOf(slice), origin, std::string(trace.str(s.name))};
  auto [it, added] = index_.emplace(std::move(key), rows_.size());
  if (cache_key != UINT64_MAX) row_of_key_.emplace(cache_key, it->second);
  if (added) {
    RowAccumulator acc;
    acc.row.name = std::get<4>(it->first);
    acc.row.stack = std::get<2>(it->first);
    acc.row.origin = origin;
    acc.row.input = input;
    if (query_.by_instance) acc.row.start_ns = s.start_ns;
    rows_.push_back(std::move(acc));
  }
  return it->second;
}

size_t OpAggregator::UnattributedRow(int input, WorkOrigin origin) {
  const std::string name =
      origin == WorkOrigin::kNoOp ? "(launched outside any op)" : "(no launch call in the trace)";
  RowKey key{input, -1, "", WorkOriginName(origin), name};
  auto [it, added] = index_.emplace(std::move(key), rows_.size());
  if (added) {
    RowAccumulator acc;
    acc.row.name = name;
    acc.row.origin = WorkOriginName(origin);
    acc.row.input = input;
    rows_.push_back(std::move(acc));
  }
  return it->second;
}

void OpAggregator::AddKernel(const Kernel& kernel, const std::string& kernel_name, Backend backend,
                             uint32_t device, const std::string& device_label, size_t row,
                             bool self, bool graph) {
  OpRow& r = rows_[row].row;
  if (self) {
    r.device_ns = SaturatingAdd(r.device_ns, kernel.duration_ns);
    ++r.kernels;
    r.graph_kernels += graph;
  }
  r.device_inclusive_ns = SaturatingAdd(r.device_inclusive_ns, kernel.duration_ns);
  OpPlacement* placement_of_device = nullptr;
  if (device < (1u << 24)) {  // (row, backend, device) fits the key: always, in practice
    OpPlacement*& cached = placement_of_key_[static_cast<uint64_t>(row) << 32 |
                                             static_cast<uint64_t>(backend) << 24 | device];
    if (cached == nullptr) cached = &rows_[row].placements[{backend, device_label}];
    placement_of_device = cached;
  } else {
    placement_of_device = &rows_[row].placements[{backend, device_label}];
  }
  OpPlacement& placement = *placement_of_device;
  placement.backend = backend;
  placement.device_ns = SaturatingAdd(placement.device_ns, kernel.duration_ns);
  ++placement.kernels;
  OpKernel*& cached_kernel = kernel_of_key_[static_cast<uint64_t>(row) << 32 | kernel.name];
  if (cached_kernel == nullptr) cached_kernel = &rows_[row].kernels[kernel_name];
  OpKernel& named = *cached_kernel;
  ++named.count;
  named.total_ns = SaturatingAdd(named.total_ns, kernel.duration_ns);
}

void OpAggregator::Add(const LinkedTrace& linked, int input, bool several_inputs) {
  const Trace& trace = linked.trace();
  linked.Prepare({LinkedPart::kLinks, LinkedPart::kSliceWork});
  const TraceLinks& links = linked.links();
  const OpStacks stacks(trace, links, query_.by_stack);
  row_of_key_.clear();
  placement_of_key_.clear();
  kernel_of_key_.clear();
  constexpr size_t kNone = SIZE_MAX;
  std::vector<size_t> row_of_slice(trace.slices.size(), kNone);
  const SliceDeviceTime device_time = ComputeSliceDeviceTime(trace, links, stacks, query_.backend);
  const std::vector<int64_t>& inclusive_ns = device_time.inclusive_ns;
  const SliceWork& work_of_slice = linked.slice_work();

  auto count_call = [&](uint32_t slice, const std::string& origin) {
    const size_t row = RowOf(trace, input, slice, stacks, origin);
    row_of_slice[slice] = row;
    const Slice& s = trace.slices[slice];
    ++rows_[row].row.calls;
    rows_[row].row.host_ns = SaturatingAdd(rows_[row].row.host_ns, s.duration_ns);
    return row;
  };
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.kind != SliceKind::kOp) continue;
    ++summary_.ops;
    count_call(i, "op");
  }

  std::vector<std::string> device_labels;
  for (uint32_t d = 0; d <= trace.devices.size(); ++d) {
    device_labels.push_back(DeviceLabel(trace, d, several_inputs));
  }
  std::unordered_map<StringId, std::string> kernel_names;
  std::vector<size_t> chain_rows;
  for (size_t k = 0; k < trace.kernels.size(); ++k) {
    const Kernel& kernel = trace.kernels[k];
    const uint32_t device = std::min<uint32_t>(kernel.device, trace.devices.size());
    const Backend backend =
        device < trace.devices.size() ? trace.devices[device].backend : Backend::kOther;
    if (query_.backend && backend != *query_.backend) continue;
    const WorkLink& link = links.kernels[k];
    ++summary_.kernels;
    summary_.kernel_ns = SaturatingAdd(summary_.kernel_ns, kernel.duration_ns);
    summary_.graph_kernels += link.graph;
    auto name = kernel_names.try_emplace(kernel.name, trace.str(kernel.name)).first;
    if (link.op == kNoRow) {
      AddKernel(kernel, name->second, backend, device, device_labels[device],
                UnattributedRow(input, link.origin), true, link.graph);
      continue;
    }
    ++summary_.attributed_kernels;
    summary_.attributed_ns = SaturatingAdd(summary_.attributed_ns, kernel.duration_ns);
    if (row_of_slice[link.op] == kNone) count_call(link.op, WorkOriginName(link.origin));
    // The op and every op around it; a row met twice on the chain (aten::to inside aten::to)
    // counts the kernel once.
    chain_rows.clear();
    for (uint32_t s = link.op; s != kNoRow; s = stacks.TargetParentOf(s)) {
      const size_t row = row_of_slice[s];
      if (row == kNone ||
          std::find(chain_rows.begin(), chain_rows.end(), row) != chain_rows.end()) {
        continue;
      }
      chain_rows.push_back(row);
      AddKernel(kernel, name->second, backend, device, device_labels[device], row, s == link.op,
                link.graph);
    }
  }
  for (size_t t = 0; t < trace.transfers.size(); ++t) {
    const Transfer& transfer = trace.transfers[t];
    const WorkLink& link = links.transfers[t];
    size_t row = link.op != kNoRow ? row_of_slice[link.op] : UnattributedRow(input, link.origin);
    if (row == kNone) row = count_call(link.op, WorkOriginName(link.origin));
    rows_[row].row.transfer_ns = SaturatingAdd(rows_[row].row.transfer_ns, transfer.duration_ns);
  }

  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    const OpWork* work = work_of_slice[i];
    if (!work) continue;
    RowAccumulator& acc = rows_[row_of_slice[i]];
    OpRow& r = acc.row;
    r.flops = r.flops.value_or(0) + work->flops;
    if (work->bytes > 0) {
      r.bytes = r.bytes.value_or(0) + work->bytes;
    } else {
      acc.bytes_unknown = true;
    }
    ++r.calls_with_flops;
    r.flops_device_ns = SaturatingAdd(r.flops_device_ns, inclusive_ns[i]);
    acc.flops_by_precision[work->precision] += work->flops;
    int64_t& on_device = acc.flops_ns_by_device[{&trace, device_time.device[i]}];
    on_device = SaturatingAdd(on_device, inclusive_ns[i]);
  }
}

OpSummary OpAggregator::Finish() {
  const bool host_only = summary_.kernels == 0;
  summary_.host_only = host_only;
  for (RowAccumulator& acc : rows_) {
    OpRow& row = acc.row;
    if (query_.backend) {
      const bool on_backend = *query_.backend == Backend::kCpu ? row.kernels == 0 : row.kernels > 0;
      if (!on_backend) continue;
    }
    for (auto& [key, placement] : acc.placements) {
      placement.device = key.second;
      row.placements.push_back(std::move(placement));
    }
    std::stable_sort(
        row.placements.begin(), row.placements.end(),
        [](const OpPlacement& a, const OpPlacement& b) { return a.device_ns > b.device_ns; });
    for (auto& [name, kernel] : acc.kernels) {
      kernel.name = name;
      row.top_kernels.push_back(std::move(kernel));
    }
    RankByTotalTime(&row.top_kernels, query_.top_kernels);
    if (row.flops && row.flops_device_ns > 0) {
      row.achieved_flops_per_s = *row.flops / (static_cast<double>(row.flops_device_ns) * 1e-9);
    }
    ApplyRoof(acc, query_.devices ? *query_.devices : BuiltInDevices(), &row);
    row.total_ns = host_only ? row.host_ns : row.device_ns;
    summary_.rows.push_back(std::move(row));
  }
  summary_.row_count_before_top = RankByTotalTime(&summary_.rows, query_.top);
  return std::move(summary_);
}

}  // namespace

OpSummary SummarizeOps(const std::vector<const LinkedTrace*>& traces, const OpQuery& query) {
  OpAggregator aggregator(query);
  const bool several = traces.size() > 1;
  for (size_t i = 0; i < traces.size(); ++i) {
    const int input = query.by_input || query.by_instance ? static_cast<int>(i) : -1;
    aggregator.Add(*traces[i], input, several);
  }
  return aggregator.Finish();
}

}  // namespace tensormorph
