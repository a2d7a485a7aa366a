#include "analysis/roofline_ops.h"

#include <fmt/format.h>

#include <tuple>

#include "link/op_stacks.h"
#include "link/slice_device_time.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/link/work_links.h"

namespace tensormorph {
namespace {

struct OpGroup {
  RooflineRow row;
  uint32_t device = kNoDevice;
  std::map<Precision, double> flops_by_precision;
  double flops = 0, bytes = 0;
  bool bytes_known = true;
};

void FinishGroup(const Trace& trace, OpGroup& g, const std::vector<DeviceSpec>& devices) {
  RooflineRow& row = g.row;
  Precision dominant = Precision::kUnknown;
  double most = -1;
  for (const auto& [precision, flops] : g.flops_by_precision) {
    if (flops > most) {
      most = flops;
      dominant = precision;
    }
  }
  row.precision = dominant;
  row.flops = g.flops;
  if (g.bytes_known) row.dram_bytes = g.bytes;
  row.arithmetic_intensity = g.bytes_known && g.bytes > 0 ? g.flops / g.bytes : 0;
  if (row.total_ns > 0) {
    row.achieved_flops_per_s = g.flops / (row.total_ns * 1e-9);
    if (g.bytes_known) row.achieved_bytes_per_s = g.bytes / (row.total_ns * 1e-9);
  }
  if (!g.bytes_known) {
    row.no_ceiling_reason =
        "bytes unknown (an operand's element type is not recorded), so no intensity";
    return;
  }
  ApplyOpShapeCeiling(trace, g.device, devices, &row);
}

}  // namespace

void ApplyOpShapeCeiling(const Trace& trace, uint32_t device,
                         const std::vector<DeviceSpec>& devices, RooflineRow* row) {
  std::string reasons;
  for (Metric metric : PeakMetricsFor(row->precision)) {
    RooflineRow attempt = *row;
    ResolveDatabasePeaks(trace, device, metric, devices, &attempt);
    if (attempt.peak_flops_per_s) {
      *row = std::move(attempt);
      ApplyCeiling(row);
      return;
    }
    reasons = attempt.no_ceiling_reason;
  }
  row->no_ceiling_reason = reasons.empty() ? fmt::format("no peak for {} in the device database",
                                                         PrecisionName(row->precision))
                                           : reasons;
}

std::vector<Metric> PeakMetricsFor(Precision precision) {
  switch (precision) {
    case Precision::kFp64:
      return {Metric::kFp64MatrixFlopsPerS, Metric::kFp64FlopsPerS};
    case Precision::kFp32:
      return {Metric::kFp32MatrixFlopsPerS, Metric::kFp32FlopsPerS};
    case Precision::kTf32:
      return {Metric::kTf32MatrixFlopsPerS};
    case Precision::kFp16:
      return {Metric::kFp16MatrixFlopsPerS};
    case Precision::kBf16:
      return {Metric::kBf16MatrixFlopsPerS};
    case Precision::kFp8:
      return {Metric::kFp8MatrixFlopsPerS};
    case Precision::kInt8:
      return {Metric::kInt8MatrixOpsPerS};
    case Precision::kFp6:
      return {Metric::kFp6MatrixFlopsPerS};
    case Precision::kFp4:
      return {Metric::kFp4MatrixFlopsPerS};
    case Precision::kUnknown:
      break;
  }
  return {};
}

std::string NoCountedOpReason(Backend backend) {
  const char* counters = backend == Backend::kCuda ? ", or collect Nsight Compute metrics"
                         : backend == Backend::kRocm
                             ? ", or collect counters with rocprof-compute (rocprof-compute "
                               "profile) or rocprofv3 --pmc"
                             : "";
  return fmt::format(
      "no counters, and not launched by a framework op with recorded shapes that the FLOP "
      "counter knows (mm, addmm, bmm, baddbmm, matmul, linear, convolution, scaled-dot-product "
      "attention, FP8/FP4 scaled and grouped GEMMs; profile with record_shapes=True{})",
      counters);
}

void AddOpShapeRows(const LinkedTrace& linked, const std::vector<DeviceSpec>& devices,
                    std::vector<RooflineRow>* rows, std::map<std::string, uint64_t>* skipped) {
  const Trace& trace = linked.trace();
  linked.Prepare({LinkedPart::kLinks, LinkedPart::kSliceWork});
  const TraceLinks& links = linked.links();
  const OpStacks stacks(trace, links, false);
  const SliceDeviceTime device_time = ComputeSliceDeviceTime(trace, links, stacks, std::nullopt);
  const SliceWork& work = linked.slice_work();

  // The outermost counted call around each slice, so that each kernel is counted once.
  std::vector<uint32_t> counted_root(trace.slices.size(), kNoRow);
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    const uint32_t parent = stacks.TargetParentOf(i);
    if (parent != kNoRow && counted_root[parent] != kNoRow) {
      counted_root[i] = counted_root[parent];
    } else if (work[i]) {
      counted_root[i] = i;
    }
  }
  // TargetParentOf skips python frames but parents precede children in slice order, so the
  // forward pass above sees each parent's root before its children.

  std::map<std::tuple<std::string, Backend, std::string>, OpGroup> groups;
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    if (counted_root[i] != i) continue;
    const int64_t ns = device_time.inclusive_ns[i];
    const uint32_t device = device_time.device[i];
    if (ns <= 0 || device == kNoDevice) continue;  // ran on the host: no device kernels
    const Backend backend =
        device < trace.devices.size() ? trace.devices[device].backend : Backend::kOther;
    std::string name(trace.str(trace.slices[i].name));
    std::string label = DeviceLabel(trace, device, false);
    OpGroup& g = groups[{name, backend, label}];
    if (g.row.count == 0) {
      g.row.name = std::move(name);
      g.row.backend = backend;
      g.row.device = std::move(label);
      g.row.source = "op shapes";
      g.device = device;
    }
    ++g.row.count;
    g.row.total_ns += ns;
    g.flops += work[i]->flops;
    g.flops_by_precision[work[i]->precision] += work[i]->flops;
    if (work[i]->bytes > 0) {
      g.bytes += work[i]->bytes;
    } else {
      g.bytes_known = false;
    }
  }
  for (size_t k = 0; k < trace.kernels.size(); ++k) {
    const uint32_t op = links.kernels[k].op;
    if (op != kNoRow && counted_root[op] != kNoRow) continue;
    const uint32_t device = trace.kernels[k].device;
    ++(*skipped)[NoCountedOpReason(device < trace.devices.size() ? trace.devices[device].backend
                                                                 : Backend::kOther)];
  }
  for (auto& [key, g] : groups) {
    FinishGroup(trace, g, devices);
    rows->push_back(std::move(g.row));
  }
}

}  // namespace tensormorph
