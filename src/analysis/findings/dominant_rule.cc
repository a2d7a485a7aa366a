// dominant_op: one op (else one kernel) holds most of a device's kernel time and no roofline rule
// named anything on that device, because the device is not in the database or the trace records
// no work for its ops. The finding says what is known of it (its kernels, the bytes its recorded
// shapes move and the bandwidth they reached) and, for an unknown device, why the roofline rules
// were skipped. It claims no time: without a roof, how much faster the op could run is not known.
#include <fmt/format.h>

#include <map>

#include "analysis/findings/rules.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/ops/ops.h"

namespace tensormorph::findings {
namespace {

// The rule names what dominates from this share of a device's kernel time on.
constexpr double kDominantSharePercent = 40;

struct Dominant {
  std::string name;
  bool is_op = false;
  int64_t device_ns = 0;
  uint64_t count = 0;  // op calls or kernel launches
  const OpRow* op = nullptr;
};

// The op with the most self device time on `label` (the kernels it launched itself, so that
// aten::cudnn_convolution is named rather than the aten::conv2d around it; an op whose kernels ran
// on several devices is left to the kernel names, its self time per device not being kept), else
// the kernel name with the most time there, if it reaches kDominantSharePercent of `kernel_ns`.
std::optional<Dominant> DominantOn(const Trace& trace, uint32_t device, const std::string& label,
                                   int64_t kernel_ns, const OpSummary& ops) {
  const double needed = kDominantSharePercent / 100 * static_cast<double>(kernel_ns);
  Dominant best;
  for (const OpRow& row : ops.rows) {
    if (row.origin != "op") continue;  // kernels no op launched are not an op to optimise
    if (row.placements.size() == 1 && row.placements[0].device == label &&
        row.device_ns > best.device_ns) {
      best = {row.name, true, row.device_ns, row.calls, &row};
    }
  }
  if (best.device_ns >= needed && best.device_ns > 0) return best;
  std::map<std::string_view, std::pair<int64_t, uint64_t>> by_name;
  for (const Kernel& k : trace.kernels) {
    if (k.device != device) continue;
    auto& [ns, count] = by_name[trace.str(k.name)];
    ns += k.duration_ns;
    ++count;
  }
  best = {};
  for (const auto& [name, figures] : by_name) {
    if (figures.first > best.device_ns)
      best = {std::string(name), false, figures.first, figures.second};
  }
  if (best.device_ns >= needed && best.device_ns > 0) return best;
  return std::nullopt;
}

bool RooflineRuleNamed(const std::vector<Finding>& found, int input, const std::string& device) {
  for (const Finding& f : found) {
    if (f.where.input == input && f.where.device == device &&
        (f.rule == "below_roof" || f.rule == "fp32_matmul")) {
      return true;
    }
  }
  return false;
}

}  // namespace

void FindDominantWork(const InputContext& ctx, const std::vector<Finding>& found,
                      std::vector<Finding>* out) {
  const Trace& trace = ctx.trace();
  std::vector<int64_t> kernel_ns(trace.devices.size(), 0);
  for (const Kernel& k : trace.kernels) {
    if (k.device < kernel_ns.size()) kernel_ns[k.device] += k.duration_ns;
  }
  // Only for a device without roofline findings: the caller's, or analysed here.
  std::optional<OpSummary> analysed;
  const OpSummary* ops = ctx.ops;
  for (const DeviceTimeline* d : ctx.timelines) {
    if (d->device >= trace.devices.size() || kernel_ns[d->device] <= 0) continue;
    // below_roof and fp32_matmul name their device without its rank, as roofline labels it.
    const std::string label = DeviceLabel(trace, d->device, /*with_rank=*/false);
    if (RooflineRuleNamed(found, ctx.input, label)) continue;
    if (ops == nullptr) {
      OpQuery query;
      query.devices = ctx.devices;
      ops = &analysed.emplace(SummarizeOps({ctx.linked}, query));
    }
    const int64_t total = kernel_ns[d->device];
    std::optional<Dominant> dominant = DominantOn(trace, d->device, label, total, *ops);
    if (!dominant) continue;
    const double share = 100.0 * static_cast<double>(dominant->device_ns) / total;
    const char* what = dominant->is_op ? "op" : "kernel";
    Finding f = NewFinding(ctx, "dominant_op", 0, d);
    (dominant->is_op ? f.where.op : f.where.kernel) = dominant->name;
    f.title = fmt::format("{} {} is {:.1f} % of the kernel time on {}", what, dominant->name, share,
                          label);
    f.evidence = {{"share_percent", share},
                  {"device_ns", dominant->device_ns},
                  {"device_kernel_ns", total},
                  {dominant->is_op ? "calls" : "launches", static_cast<int64_t>(dominant->count)},
                  {"threshold_percent", kDominantSharePercent}};
    const DeviceMatch match = MatchTraceDevice(*ctx.devices, trace.devices[d->device]);
    std::string known;
    if (dominant->op != nullptr) {
      const OpRow& row = *dominant->op;
      for (const OpKernel& k : row.top_kernels) {
        f.top.push_back(
            {k.name, {{"total_ns", k.total_ns}, {"count", static_cast<int64_t>(k.count)}}});
      }
      if (row.bytes && row.device_inclusive_ns > 0) {
        const double bytes_per_s =
            *row.bytes / (static_cast<double>(row.device_inclusive_ns) * 1e-9);
        f.evidence.push_back({"bytes", *row.bytes});
        f.evidence.push_back({"achieved_bytes_per_s", bytes_per_s});
        known = fmt::format("Its recorded shapes move {:.3f} GB in all, at {:.1f} GB/s",
                            *row.bytes / 1e9, bytes_per_s / 1e9);
        const std::optional<Figure>& peak =
            match.matched() ? match.spec->Get(Metric::kMemoryBandwidthBytesPerS) : std::nullopt;
        if (peak) {
          const double percent =
              100 * bytes_per_s / (peak->value / match.spec->devices_per_package);
          f.evidence.push_back({"percent_of_bandwidth", percent});
          known += fmt::format(", {:.1f} % of the device's peak bandwidth", percent);
        }
        known += ". ";
      } else {
        known =
            "The trace records no work for it (no shapes, or an op the work counter does not "
            "estimate), so neither its bytes nor its FLOPs are known. ";
      }
    }
    const std::string skipped =
        match.matched()
            ? ""
            : fmt::format(
                  "The device is not in the device database ({}): the roofline rules (below_roof, "
                  "fp32_matmul) were skipped for it, so how far this {} is from the device's roof "
                  "is not known; describe the device with --device-spec FILE (docs/devices.md) to "
                  "get them. ",
                  match.reason, what);
    f.fix = fmt::format(
        "This one {} decides the device's time: optimise it first, starting with "
        "its kernels listed here. {}{}",
        what, known, skipped);
    while (!f.fix.empty() && f.fix.back() == ' ') f.fix.pop_back();
    out->push_back(std::move(f));
  }
}

}  // namespace tensormorph::findings
