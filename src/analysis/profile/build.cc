#include "tensormorph/analysis/profile/build.h"

#include <algorithm>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>

#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/ops/ops.h"

namespace tensormorph {
namespace {

using RowKey = std::pair<std::string, Backend>;

// Saturating: corrupt durations must not wrap a total around.
void AddCapped(int64_t* total, int64_t value) {
  if (__builtin_add_overflow(*total, value, total)) *total = INT64_MAX;
}

// Per input, the index into Baseline::step_numbers of each of its steps.
struct InputSteps {
  const std::vector<Step>* steps = nullptr;  // the LinkedTrace's
  std::vector<size_t> slot;                  // parallel to *steps
};

std::vector<InputSteps> FindAllSteps(const std::vector<const LinkedTrace*>& traces,
                                     std::vector<int64_t>* step_numbers) {
  std::vector<InputSteps> out(traces.size());
  for (size_t i = 0; i < traces.size(); ++i) {
    out[i].steps = &traces[i]->steps();
    for (const Step& s : *out[i].steps) step_numbers->push_back(s.number);
  }
  std::sort(step_numbers->begin(), step_numbers->end());
  step_numbers->erase(std::unique(step_numbers->begin(), step_numbers->end()), step_numbers->end());
  for (InputSteps& input : out) {
    for (const Step& s : *input.steps) {
      input.slot.push_back(std::lower_bound(step_numbers->begin(), step_numbers->end(), s.number) -
                           step_numbers->begin());
    }
  }
  return out;
}

void AddKernelRows(const std::vector<const LinkedTrace*>& traces,
                   const std::vector<InputSteps>& steps, Baseline* baseline) {
  // Counts and totals exactly as `tensormorph kernels` computes them.
  const KernelSummary summary = SummarizeKernels(traces, KernelQuery{});
  std::map<RowKey, ProfileRow> rows;
  for (const KernelRow& k : summary.rows) {
    ProfileRow& row = rows[{k.name, k.backend}];
    row.kind = ProfileRowKind::kKernel;
    row.name = k.name;
    row.backend = k.backend;
    row.count = k.count;
    row.total_ns = k.total_ns;
  }
  baseline->kernel_ns = summary.total_ns;
  baseline->kernel_count = summary.kernel_count;
  const size_t n_steps = baseline->steps();
  baseline->step_kernel_ns.assign(n_steps, 0);
  if (n_steps > 0) {
    for (auto& [key, row] : rows) row.step_totals_ns.assign(n_steps, 0);
    for (size_t input = 0; input < traces.size(); ++input) {
      const Trace& trace = traces[input]->trace();
      if (steps[input].steps->empty()) continue;
      const std::vector<int32_t>& step_of = traces[input]->step_of_kernels();
      for (size_t i = 0; i < trace.kernels.size(); ++i) {
        if (step_of[i] < 0) continue;
        const Kernel& k = trace.kernels[i];
        const Backend backend =
            k.device < trace.devices.size() ? trace.devices[k.device].backend : Backend::kOther;
        auto it = rows.find({std::string(trace.str(k.name)), backend});
        if (it == rows.end()) continue;
        const size_t slot = steps[input].slot[step_of[i]];
        AddCapped(&it->second.step_totals_ns[slot], k.duration_ns);
        AddCapped(&baseline->step_kernel_ns[slot], k.duration_ns);
      }
    }
  }
  for (auto& [key, row] : rows) baseline->kernels.push_back(std::move(row));
}

void AddOpRows(const std::vector<const LinkedTrace*>& traces, const std::vector<InputSteps>& steps,
               Baseline* baseline) {
  // Calls and host time straight from the op slices (every call, nested ones included); device
  // time and backend from the Compute panel's attribution.
  const size_t n_steps = baseline->steps();
  std::map<std::string, ProfileRow, std::less<>> rows;
  for (size_t input = 0; input < traces.size(); ++input) {
    const Trace& trace = traces[input]->trace();
    for (const Slice& s : trace.slices) {
      if (s.kind != SliceKind::kOp) continue;
      const std::string_view name = trace.str(s.name);
      auto it = rows.find(name);
      if (it == rows.end()) {
        ProfileRow row;
        row.kind = ProfileRowKind::kOp;
        row.name = std::string(name);
        row.backend = Backend::kCpu;
        row.step_totals_ns.assign(n_steps, 0);
        it = rows.emplace(row.name, std::move(row)).first;
      }
      ProfileRow& row = it->second;
      ++row.count;
      AddCapped(&row.total_ns, s.duration_ns);
      if (const int32_t step = StepIndexAt(*steps[input].steps, s.start_ns); step >= 0) {
        AddCapped(&row.step_totals_ns[steps[input].slot[step]], s.duration_ns);
      }
    }
  }
  OpQuery query;
  query.top_kernels = 0;
  for (const OpRow& op : SummarizeOps(traces, query).rows) {
    if (op.origin != "op") continue;  // kernels without an op are in the kernel rows
    auto it = rows.find(op.name);
    if (it == rows.end()) continue;
    it->second.device_ns = op.device_ns;
    if (!op.placements.empty()) it->second.backend = op.placements.front().backend;
  }
  for (auto& [name, row] : rows) {
    AddCapped(&baseline->op_host_ns, row.total_ns);
    baseline->op_calls += row.count;
    baseline->ops.push_back(std::move(row));
  }
}

// End of the last kernel minus start of the first; 0 without kernels. Saturating, like the totals.
int64_t KernelSpan(const Trace& trace) {
  if (trace.kernels.empty()) return 0;
  int64_t first = INT64_MAX, last = INT64_MIN;
  for (const Kernel& k : trace.kernels) {
    first = std::min(first, k.start_ns);
    int64_t end = 0;
    if (__builtin_add_overflow(k.start_ns, k.duration_ns, &end)) end = INT64_MAX;
    last = std::max(last, end);
  }
  int64_t span = 0;
  return __builtin_sub_overflow(last, first, &span) ? INT64_MAX : std::max<int64_t>(span, 0);
}

}  // namespace

Baseline BuildBaseline(const std::vector<const LinkedTrace*>& traces,
                       const std::string& created_by) {
  Baseline baseline;
  baseline.created_by = created_by;
  for (const LinkedTrace* linked : traces) {
    const Trace* t = &linked->trace();
    baseline.inputs.push_back({t->path, t->format, t->rank});
    baseline.timestamp_resolution_ns =
        std::max(baseline.timestamp_resolution_ns, t->timestamp_resolution_ns);
    baseline.kernel_span_ns = std::max(baseline.kernel_span_ns, KernelSpan(*t));
  }
  // Steps (and the links beneath them) first; the op rows' FLOP estimate beside them.
  for (const LinkedTrace* linked : traces)
    linked->Prepare({LinkedPart::kSteps, LinkedPart::kSliceWork});
  const std::vector<InputSteps> steps = FindAllSteps(traces, &baseline.step_numbers);
  AddKernelRows(traces, steps, &baseline);
  AddOpRows(traces, steps, &baseline);
  return baseline;
}

}  // namespace tensormorph
