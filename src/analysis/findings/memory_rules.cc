// memory_near_capacity, memory_fragmentation, memory_growth and allocation_churn: where the memory
// went (analysis/memory/memory.h) and how the program asked for it. None claims time: memory
// decides what fits, and the churn's cost is already in the idle gaps the other rules claim.
#include <fmt/format.h>

#include "analysis/findings/rules.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/memory/memory.h"

namespace tensormorph::findings {
namespace {

// A device is near its capacity from this share of it on (allocated or reserved, the larger).
constexpr double kNearCapacityPercent = 90;
// Growth is a leak's sign when allocated memory grows in every one of at least this many steps.
constexpr size_t kGrowthSteps = 3;
// Fragmentation: reserved beyond the allocated peak, at least this much and this share of the
// reserved peak.
constexpr int64_t kFragmentationBytes = int64_t{1} << 30;
constexpr double kFragmentationPercent = 25;
// Allocation churn: this many device allocation calls (the caching allocator makes few).
constexpr uint64_t kChurnCalls = 100;

std::string Gib(int64_t bytes) {
  return fmt::format("{:.2f} GiB", bytes / 1073741824.0);
}

// The timeline's label of the device (with its rank), as the other rules name it.
std::string LabelOf(const InputContext& ctx, const DeviceMemory& memory) {
  for (const DeviceTimeline* d : ctx.timelines) {
    if (memory.device_index && d->device == *memory.device_index) return d->label;
  }
  return memory.device;
}

void AddTop(const std::vector<MemoryOpRow>& rows, size_t top, Finding* f) {
  for (size_t i = 0; i < rows.size() && i < top; ++i) {
    f->top.push_back(
        {rows[i].module.empty() ? rows[i].op : rows[i].module + " > " + rows[i].op,
         {{"bytes", rows[i].bytes}, {"allocations", static_cast<int64_t>(rows[i].allocations)}}});
  }
}

// Device allocation calls that synchronise the device: cudaMalloc/hipMalloc (not the Async or
// host variants, and not the managed ones, whose cost differs).
bool IsDeviceMallocCall(std::string_view name) {
  return name == "cudaMalloc" || name == "hipMalloc" || name == "cuMemAlloc" ||
         name == "cuMemAlloc_v2" || name.starts_with("cudaMalloc_v");
}

void AllocationChurn(const InputContext& ctx, std::vector<Finding>* out) {
  const Trace& trace = ctx.trace();
  uint64_t calls = 0;
  int64_t call_ns = 0;
  for (const ApiCall& c : trace.api_calls) {
    if (!IsDeviceMallocCall(trace.str(c.name))) continue;
    ++calls;
    call_ns += c.duration_ns;
  }
  if (calls < kChurnCalls) return;
  Finding f = NewFinding(ctx, "allocation_churn", 0);
  f.title = fmt::format("{} device allocation calls ({:.3f} ms on the host)", calls,
                        static_cast<double>(call_ns) / 1e6);
  f.evidence = {{"calls", static_cast<int64_t>(calls)},
                {"call_ns", call_ns},
                {"threshold_calls", static_cast<int64_t>(kChurnCalls)}};
  f.fix =
      "The program allocates device memory call by call, and cudaMalloc/hipMalloc synchronise the "
      "device: use PyTorch's caching allocator (do not disable it: PYTORCH_NO_CUDA_MEMORY_CACHING, "
      "PYTORCH_NO_HIP_MEMORY_CACHING), keep buffers across steps, or enable "
      "PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True. The idle time it causes is in the gap "
      "findings.";
  out->push_back(std::move(f));
}

}  // namespace

void FindMemoryPressure(const InputContext& ctx, std::vector<Finding>* out) {
  AllocationChurn(ctx, out);
  std::optional<MemoryResult> analysed;
  const MemoryResult& memory = CallersOr(ctx.memory, &analysed, [&] {
    MemoryQuery query;
    query.top = ctx.query->top_items;
    query.devices = ctx.devices;
    return AnalyzeMemory({ctx.linked}, query);
  });
  for (const DeviceMemory& d : memory.devices) {
    if (!d.device_index) continue;  // host memory: no capacity here
    const int64_t held = std::max(d.peak_allocated_bytes, d.peak_reserved_bytes.value_or(0));
    if (d.capacity_bytes && *d.capacity_bytes > 0 &&
        100.0 * static_cast<double>(held) / static_cast<double>(*d.capacity_bytes) >
            kNearCapacityPercent) {
      const double percent =
          100.0 * static_cast<double>(held) / static_cast<double>(*d.capacity_bytes);
      Finding f = NewFinding(ctx, "memory_near_capacity", 0);
      f.where.device = LabelOf(ctx, d);
      f.title = fmt::format("the device held {} of its {} ({:.1f} %) at its peak", Gib(held),
                            Gib(*d.capacity_bytes), percent);
      f.evidence = {{"peak_allocated_bytes", d.peak_allocated_bytes},
                    {"peak_reserved_bytes", d.peak_reserved_bytes.value_or(0)},
                    {"capacity_bytes", *d.capacity_bytes},
                    {"percent_of_capacity", percent},
                    {"threshold_percent", kNearCapacityPercent},
                    {"capacity_source", d.capacity_source}};
      AddTop(d.at_peak, ctx.query->top_items, &f);
      f.fix =
          "Little headroom: a larger batch or input will not fit. Free what was alive at the peak "
          "(listed by op): activation checkpointing (torch.utils.checkpoint) for activations, a "
          "smaller batch or sequence, bf16/fp16 activations, parameters and optimizer states "
          "sharded (FSDP, ZeRO); reserved memory above allocated is the caching allocator's "
          "(PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True lowers it).";
      out->push_back(std::move(f));
    }
    if (const std::optional<int64_t> beyond = ReservedBeyondPeakAllocated(d);
        beyond && *beyond >= kFragmentationBytes &&
        100.0 * static_cast<double>(*beyond) > kFragmentationPercent * *d.peak_reserved_bytes) {
      const double percent =
          100.0 * static_cast<double>(*beyond) / static_cast<double>(*d.peak_reserved_bytes);
      Finding f = NewFinding(ctx, "memory_fragmentation", 0);
      f.where.device = LabelOf(ctx, d);
      f.title = fmt::format(
          "the allocator reserved {} beyond the most ever allocated at once ({:.1f} % of its {} "
          "peak)",
          Gib(*beyond), percent, Gib(*d.peak_reserved_bytes));
      f.evidence = {{"peak_reserved_bytes", *d.peak_reserved_bytes},
                    {"peak_allocated_bytes", d.peak_allocated_bytes},
                    {"reserved_beyond_peak_allocated_bytes", *beyond},
                    {"percent_of_reserved", percent},
                    {"threshold_bytes", kFragmentationBytes},
                    {"threshold_percent", kFragmentationPercent}};
      f.fix =
          "The caching allocator reserved memory that no set of live tensors needed: free blocks "
          "too small or on the wrong stream for the next request (fragmentation), which a larger "
          "batch or another process cannot use. PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True "
          "(PYTORCH_HIP_ALLOC_CONF on ROCm) lets segments grow instead of splitting; otherwise "
          "max_split_size_mb, or allocate tensors of varying size (sequence lengths) at a few "
          "fixed sizes.";
      out->push_back(std::move(f));
    }
    bool growing = d.steps.size() >= kGrowthSteps;
    for (const MemoryStep& s : d.steps) {
      growing = growing && s.allocated_end_bytes > s.allocated_start_bytes;
    }
    if (growing) {
      const int64_t growth =
          d.steps.back().allocated_end_bytes - d.steps.front().allocated_start_bytes;
      Finding f = NewFinding(ctx, "memory_growth", 0);
      f.where.device = LabelOf(ctx, d);
      f.title = fmt::format("allocated memory grew in every one of {} steps (+{} in all)",
                            d.steps.size(), Gib(growth));
      f.evidence = {{"steps", static_cast<int64_t>(d.steps.size())},
                    {"growth_bytes", growth},
                    {"first_step_start_bytes", d.steps.front().allocated_start_bytes},
                    {"last_step_end_bytes", d.steps.back().allocated_end_bytes}};
      AddTop(d.alive_at_end, ctx.query->top_items, &f);
      f.fix =
          "Memory allocated in the steps is not freed: a leak, until it runs out. The ops listed "
          "made the allocations still alive at the end of the trace: look for tensors kept across "
          "steps (a loss summed without .item() or .detach(), outputs appended to a list, a "
          "cache that only grows).";
      out->push_back(std::move(f));
    }
  }
}

}  // namespace tensormorph::findings
