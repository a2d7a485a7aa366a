// fp32_matmul, below_roof and low_occupancy: the kernels and ops themselves, from roofline's and
// occupancy's rows of the input.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "analysis/findings/rules.h"
#include "analysis/roofline_ops.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/occupancy/kernel_occupancy.h"
#include "tensormorph/analysis/roofline.h"

namespace tensormorph::findings {
namespace {

// Matrix multiplications and convolutions by op name (the FLOP counter's families).
bool IsMatmulOrConv(std::string_view name) {
  for (std::string_view op : {"aten::mm", "aten::addmm", "aten::bmm", "aten::baddbmm",
                              "aten::matmul", "aten::linear", "aten::einsum"}) {
    if (name == op) return true;
  }
  return name.starts_with("aten::conv") || name == "aten::_convolution" ||
         name.starts_with("aten::cudnn_convolution") || name.starts_with("aten::miopen_conv");
}

// The vendor library a kernel comes from, by its name, or "" for a kernel the user (or the
// framework's build) compiles: its registers, shared memory and block size are the library's
// choice, so __launch_bounds__ or -maxrregcount cannot change them.
std::string_view VendorLibraryOf(std::string_view kernel_name) {
  const std::string lower = [&] {
    std::string l(kernel_name);
    for (char& c : l) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return l;
  }();
  auto has = [&](std::string_view part) { return lower.find(part) != std::string::npos; };
  if (has("nccl") || has("rccl")) return "NCCL/RCCL";
  if (has("cudnn") || has("implicit_convolve") || has("_fprop_") || has("_dgrad_") ||
      has("_wgrad_")) {
    return "cuDNN";
  }
  if (has("miopen") || has("naive_conv")) return "MIOpen";
  if (lower.starts_with("cijk_")) return "rocBLAS/hipBLASLt";
  if (has("cublas") || has("nvjet") || has("xmma") ||
      ((lower.starts_with("volta_") || lower.starts_with("turing_") ||
        lower.starts_with("ampere_") || lower.starts_with("sm80_") || lower.starts_with("sm90_") ||
        lower.starts_with("sm100_")) &&
       (has("gemm") || has("gemv")))) {
    return "cuBLAS";
  }
  return "";
}

uint32_t DeviceIndexOf(const Trace& trace, const std::string& label) {
  for (uint32_t d = 0; d < trace.devices.size(); ++d) {
    if (DeviceLabel(trace, d, false) == label) return d;
  }
  return kNoDevice;
}

// The tensor-core roof an FP32 matrix op can move to: TF32 where the device has it (Ampere and
// later), else FP16 (Volta, Turing: FP16 tensor cores, no TF32), reached by autocast.
struct MatrixRoof {
  Metric metric;
  double time_ns;  // the row's time had it kept its fraction of the roof on that roof
};

// The row's time on the first of TF32's and FP16's matrix roofs the device has; none when it has
// neither, or the roof is no higher than the row's own.
std::optional<MatrixRoof> TimeAtTensorCoreRoof(const InputContext& ctx, const RooflineRow& row) {
  if (!row.ceiling_flops_per_s || !row.flops || *row.ceiling_flops_per_s <= 0) return {};
  const uint32_t device = DeviceIndexOf(ctx.trace(), row.device);
  for (Metric metric : {Metric::kTf32MatrixFlopsPerS, Metric::kFp16MatrixFlopsPerS}) {
    RooflineRow roof = row;
    roof.peak_flops_per_s.reset();
    ResolveDatabasePeaks(ctx.trace(), device, metric, *ctx.devices, &roof);
    if (!roof.peak_flops_per_s || !roof.peak_bytes_per_s) continue;
    const double ceiling =
        std::min(*roof.peak_flops_per_s, row.arithmetic_intensity * *roof.peak_bytes_per_s);
    if (ceiling <= *row.ceiling_flops_per_s) return {};
    return MatrixRoof{metric,
                      static_cast<double>(row.total_ns) * *row.ceiling_flops_per_s / ceiling};
  }
  return {};
}

FindingItem RoofItem(const RooflineRow& row, int64_t gain_ns) {
  FindingItem item{row.name,
                   {{"calls", static_cast<int64_t>(row.count)},
                    {"total_ns", row.total_ns},
                    {"percent_of_roof", row.percent_of_roof.value_or(0)},
                    {"bound", std::string(row.bound ? BoundName(*row.bound) : "")},
                    {"precision", std::string(PrecisionName(row.precision))},
                    {"source", row.source},
                    {"gain_ns", gain_ns}}};
  return item;
}

struct Claimed {
  int64_t gain_ns = 0;
  std::vector<std::pair<int64_t, const RooflineRow*>> rows;
  Metric roof = Metric::kTf32MatrixFlopsPerS;  // fp32_matmul: the tensor-core roof of the gain
};

void AddRoofFinding(const InputContext& ctx, const char* rule, const std::string& device,
                    Claimed& claimed, std::vector<Finding>* out) {
  if (claimed.rows.empty() || claimed.gain_ns <= 0) return;
  std::stable_sort(claimed.rows.begin(), claimed.rows.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  // The span basis (without steps) is its device's, set by FindFindings after the timeline.
  Finding f = NewFinding(ctx, rule, claimed.gain_ns);
  f.where.device = device;
  const RooflineRow& first = *claimed.rows.front().second;
  (first.source == "counters" ? f.where.kernel : f.where.op) = first.name;
  const bool fp32 = std::string_view(rule) == "fp32_matmul";
  const bool tf32 = claimed.roof == Metric::kTf32MatrixFlopsPerS;
  f.title = fp32 ? fmt::format("{} FP32 matrix ops on a device with {} tensor cores (most: {})",
                               claimed.rows.size(), tf32 ? "TF32" : "FP16 (no TF32)", first.name)
                 : fmt::format("{} ops below {:.0f} % of their roof (most: {} at {:.1f} %)",
                               claimed.rows.size(), ctx.query->attainable_roof_percent, first.name,
                               first.percent_of_roof.value_or(0));
  f.evidence = {{"rows", static_cast<int64_t>(claimed.rows.size())}};
  if (fp32) f.evidence.push_back({"gain_roof", std::string(MetricName(claimed.roof))});
  if (!fp32) f.evidence.push_back({"attainable_percent", ctx.query->attainable_roof_percent});
  for (size_t i = 0; i < claimed.rows.size() && i < ctx.query->top_items; ++i) {
    f.top.push_back(RoofItem(*claimed.rows[i].second, claimed.rows[i].first));
  }
  for (const auto& [gain, row] : claimed.rows) {
    const uint32_t index = DeviceIndexOf(ctx.trace(), row->device);
    if (index == kNoDevice || gain >= row->total_ns) continue;
    f.speedups.push_back(
        {row->name, row->source == "counters" ? "kernel" : "op", index,
         static_cast<double>(row->total_ns) / static_cast<double>(row->total_ns - gain)});
  }
  f.fix = fp32 && tf32 ? "Let FP32 matrix math use the tensor cores: "
                         "torch.backends.cuda.matmul.allow_tf32 = True and "
                         "torch.backends.cudnn.allow_tf32 = True (or "
                         "torch.set_float32_matmul_precision(\"high\")), or run the model under "
                         "torch.autocast(dtype=torch.bfloat16)."
          : fp32
              ? "This GPU's tensor cores take FP16, not TF32 (nor BF16): run the model under "
                "automatic mixed precision, torch.autocast(\"cuda\", dtype=torch.float16) with "
                "a torch.cuda.amp.GradScaler for training; the gain is the ops' time on the "
                "FP16 tensor-core roof."
              : "Give the op more work per launch (larger batch or fused neighbours), pick a "
                "better kernel (torch.compile max-autotune, cuDNN benchmark mode), and check the "
                "layout (channels_last for convolutions) and the precision.";
  out->push_back(std::move(f));
}

void FindRoofRules(const InputContext& ctx, std::vector<Finding>* out) {
  std::optional<RooflineResult> analysed;
  const RooflineResult& roof = CallersOr(ctx.roofline, &analysed, [&] {
    RooflineQuery query;
    query.devices = ctx.devices;
    return AnalyzeRoofline({ctx.linked}, query);
  });
  std::map<std::string, Claimed> fp32_by_device, below_by_device;
  const double attainable = ctx.query->attainable_roof_percent;
  for (const RooflineRow& row : roof.rows) {
    if (!row.percent_of_roof || !row.flops || row.total_ns <= 0) continue;
    // Short launches are launch_bound_kernels' and host_launch_gaps' concern: no roof applies.
    if (row.bound_source == "launch_duration") continue;
    if (row.precision == Precision::kFp32 && IsMatmulOrConv(row.name)) {
      if (std::optional<MatrixRoof> at = TimeAtTensorCoreRoof(ctx, row)) {
        const int64_t gain = row.total_ns - static_cast<int64_t>(at->time_ns);
        if (gain > 0) {
          Claimed& c = fp32_by_device[row.device];
          c.roof = at->metric;
          c.gain_ns += gain;
          c.rows.emplace_back(gain, &row);
          continue;  // claimed: not also below_roof
        }
      }
    }
    if (*row.percent_of_roof >= attainable) continue;
    const auto at_attainable =
        static_cast<int64_t>(static_cast<double>(row.total_ns) * *row.percent_of_roof / attainable);
    const int64_t gain = row.total_ns - at_attainable;
    if (gain <= 0) continue;
    Claimed& c = below_by_device[row.device];
    c.gain_ns += gain;
    c.rows.emplace_back(gain, &row);
  }
  for (auto& [device, claimed] : fp32_by_device) {
    AddRoofFinding(ctx, "fp32_matmul", device, claimed, out);
  }
  for (auto& [device, claimed] : below_by_device) {
    AddRoofFinding(ctx, "below_roof", device, claimed, out);
  }
}

// The largest value of `field` below its current one that gives one more block per SM, searching
// down by `step`; none when no value does.
std::optional<int64_t> NextOccupancyStep(const GpuArch& arch, LaunchConfig launch,
                                         int64_t LaunchConfig::*field, int64_t step,
                                         int64_t current_blocks) {
  for (int64_t v = launch.*field - step; v > 0; v -= step) {
    launch.*field = v;
    StatusOr<OccupancyResult> r = ComputeOccupancy(arch, launch);
    if (r.ok() && r->active_blocks_per_sm > current_blocks) return v;
  }
  return std::nullopt;
}

void FindLowOccupancy(const InputContext& ctx, std::vector<Finding>* out) {
  int64_t kernel_ns = 0;
  for (const Kernel& k : ctx.trace().kernels) kernel_ns += k.duration_ns;
  if (kernel_ns <= 0) return;
  std::optional<KernelOccupancySummary> analysed;
  const KernelOccupancySummary& summary = CallersOr(
      ctx.occupancy, &analysed, [&] { return SummarizeKernelOccupancy({ctx.linked}, {}); });
  size_t reported = 0;
  for (const KernelOccupancyRow& row : summary.rows) {
    if (reported == ctx.query->top_items) break;
    const double share = 100.0 * static_cast<double>(row.total_ns) / kernel_ns;
    if (share < ctx.query->occupancy_time_percent) continue;
    if (100 * row.occupancy.occupancy >= ctx.query->low_occupancy_percent) continue;
    // A collective's kernels run one block per channel by design: their occupancy says nothing
    // about the work, and nothing in the kernel is the user's to change.
    const std::string_view library = VendorLibraryOf(row.name);
    if (library == "NCCL/RCCL") continue;
    ++reported;
    Finding f = NewFinding(ctx, "low_occupancy", 0);
    f.where.device = row.arch;
    f.where.kernel = row.name;
    const char* limiter = LimiterName(row.occupancy.limiter);
    f.title = fmt::format(
        "{:.4g} % theoretical occupancy ({}-limited) on a kernel with {:.1f} % of "
        "the kernel time",
        100 * row.occupancy.occupancy, limiter, share);
    f.evidence = {{"occupancy_percent", 100 * row.occupancy.occupancy},
                  {"limiter", std::string(limiter)},
                  {"active_blocks_per_sm", row.occupancy.active_blocks_per_sm},
                  {"block_size", row.block_size},
                  {"registers_per_thread", row.registers_per_thread},
                  {"shared_memory_bytes", row.shared_memory_bytes},
                  {"kernel_time_percent", share},
                  {"launches", static_cast<int64_t>(row.count)},
                  {"total_ns", row.total_ns}};
    if (row.achieved) f.evidence.push_back({"achieved_percent", 100 * *row.achieved});
    std::string lift;
    StatusOr<GpuArch> arch = ParseArch(row.arch);
    if (!library.empty()) {
      f.evidence.push_back({"library", std::string(library)});
      lift = fmt::format(
          "a {} kernel: its registers, shared memory and block size are the library's choice, "
          "not the code's; what can change is the problem it is given (batch and dimensions in "
          "multiples of 8 to 128, another data type) or the algorithm the library picks "
          "(cuDNN: torch.backends.cudnn.benchmark = True; cuBLASLt / hipBLASLt: their tuning "
          "and autotuning options)",
          library);
    } else if (arch.ok() && arch->vendor == GpuVendor::kNvidia && row.registers_per_thread > 0) {
      LaunchConfig launch;
      launch.block_size = row.block_size;
      launch.registers_per_thread = row.registers_per_thread;
      launch.dynamic_shared_bytes = std::max<int64_t>(0, row.shared_memory_bytes);
      const int64_t blocks = row.occupancy.active_blocks_per_sm;
      if (row.occupancy.limiter == OccupancyLimiter::kRegisters) {
        if (auto r =
                NextOccupancyStep(*arch, launch, &LaunchConfig::registers_per_thread, 1, blocks)) {
          f.evidence.push_back({"registers_for_next_step", *r});
          lift = fmt::format(
              "at most {} registers per thread (__launch_bounds__, "
              "-maxrregcount) give one more block per SM",
              *r);
        }
      } else if (row.occupancy.limiter == OccupancyLimiter::kSharedMemory) {
        if (auto r = NextOccupancyStep(*arch, launch, &LaunchConfig::dynamic_shared_bytes, 128,
                                       blocks)) {
          f.evidence.push_back({"shared_memory_for_next_step", *r});
          lift = fmt::format(
              "at most {} bytes of shared memory per block give one more block "
              "per SM",
              *r);
        }
      }
    }
    if (lift.empty()) {
      lift = row.occupancy.limiter == OccupancyLimiter::kBlocks ||
                     row.occupancy.limiter == OccupancyLimiter::kWarps
                 ? "larger blocks (more threads per block) raise the warps an SM can hold"
                 : "fewer registers or less shared memory per block raise it";
    }
    f.fix = fmt::format(
        "{}; low occupancy matters only when the kernel is latency-bound: check "
        "the achieved occupancy and the stall reasons in {} first.",
        lift, arch.ok() && arch->vendor == GpuVendor::kAmd ? "rocprof-compute" : "Nsight Compute");
    out->push_back(std::move(f));
  }
}

}  // namespace

void FindSlowWork(const InputContext& ctx, std::vector<Finding>* out) {
  FindRoofRules(ctx, out);
  FindLowOccupancy(ctx, out);
}

}  // namespace tensormorph::findings
