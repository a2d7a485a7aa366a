#include "tensormorph/analysis/compare/compare.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <future>
#include <map>
#include <unordered_map>

#include "analysis/common/saturating.h"
#include "analysis/compare/kernel_categories.h"
#include "analysis/compare/side_ops.h"
#include "analysis/ranking.h"
#include "analysis/roofline_ops.h"
#include "tensormorph/analysis/kernels.h"
#include "tensormorph/analysis/memory/memory_fit.h"
#include "tensormorph/model/op_inputs.h"

namespace tensormorph {
namespace {

constexpr std::string_view kNoOpName = "(kernels under no op)";
constexpr size_t kPrecisionSlots = 16;

// What a cell gathers besides its public fields.
struct CellAccumulator {
  std::optional<CompareCell> cell;
  std::map<uint32_t, int64_t> ns_by_device;  // device index -> device_ns (transfers included)
  std::array<double, kPrecisionSlots> flops_by_precision{};
  bool bytes_unknown = false;
};

struct RowAccumulator {
  CompareRow row;
  std::vector<CellAccumulator> cells;                 // per side
  std::unordered_map<uint32_t, size_t> child_of_key;  // child key id -> index into children
};

// Rows by their grouping key, across all sides.
class RowTable {
 public:
  explicit RowTable(size_t side_count) : side_count_(side_count) {}

  size_t Row(std::string key, const std::function<void(CompareRow*)>& describe) {
    auto [it, added] = index_.emplace(std::move(key), rows_.size());
    if (added) {
      RowAccumulator acc;
      acc.row.key = it->first;
      describe(&acc.row);
      acc.cells.resize(side_count_);
      acc.row.children.clear();
      rows_.push_back(std::move(acc));
    }
    return it->second;
  }
  RowAccumulator& operator[](size_t row) { return rows_[row]; }
  std::vector<RowAccumulator>& rows() { return rows_; }

 private:
  size_t side_count_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<RowAccumulator> rows_;
};

CompareCell& CellOf(RowAccumulator& row, size_t side) {
  std::optional<CompareCell>& cell = row.cells[side].cell;
  if (!cell) cell.emplace();
  return *cell;
}

// The part of a row's key the query groups by (the match key's fields, some left out).
std::string GroupKey(CompareBy by, const MatchKey& key) {
  switch (by) {
    case CompareBy::kOp:
      return "op\x1f" + key.name;
    case CompareBy::kStack:
      return "stack\x1f" + key.stack + '\x1f' + key.name;
    case CompareBy::kCategory:
      return std::string("category\x1f") + WorkCategoryName(CategoryOfOp(key.name));
    case CompareBy::kShape:
      break;
  }
  return "shape\x1f" + key.name + '\x1f' + key.shapes + '\x1f' + key.dtypes;
}

// A side's figures from the trace alone and its timeline (no alignment): computed beside the
// alignment, then merged into the side's totals (MergeHeader).
CompareSide SideHeader(const LinkedTrace& linked, const std::vector<DeviceSpec>& devices) {
  CompareSide header;
  CompareSide* out = &header;
  const Trace& trace = linked.trace();
  out->span_ns = trace.span_end_ns - trace.span_start_ns;
  const std::vector<Step>& steps = linked.steps();
  out->steps = steps.size();
  if (!steps.empty()) {
    std::vector<int64_t> durations;
    durations.reserve(steps.size());
    for (const Step& step : steps) durations.push_back(step.end_ns - step.start_ns);
    std::nth_element(durations.begin(), durations.begin() + (durations.size() - 1) / 2,
                     durations.end());
    out->host_step_ns = durations[(durations.size() - 1) / 2];
  }
  TimelineOptions options;
  options.concurrent = linked.concurrent();
  const TimelineResult timeline = AnalyzeTimeline({&linked}, options);
  int64_t busiest = -1;
  for (const DeviceTimeline& device : timeline.devices) {
    out->busy_ns = SaturatingAdd(out->busy_ns, device.busy_ns);
    out->idle_ns = SaturatingAdd(out->idle_ns, device.gap_total_ns);
    for (size_t c = 0; c < kGapCauseCount; ++c) {
      out->idle_by_cause[c].count += device.gap_causes[c].count;
      out->idle_by_cause[c].total_ns =
          SaturatingAdd(out->idle_by_cause[c].total_ns, device.gap_causes[c].total_ns);
    }
    if (device.kernel_ns > busiest) {
      busiest = device.kernel_ns;
      out->device = device.label;
      out->capacity_bytes = TraceDeviceCapacity(trace, device.device, devices);
      if (device.launch.count > 0) {
        out->launch_p50_ns = device.launch.p50_ns;
      } else {
        out->launch_p50_ns.reset();
      }
    }
  }
  out->memory = WorkloadPeak(linked, devices);
  return header;
}

void MergeHeader(CompareSide header, CompareSide* side) {
  side->device = std::move(header.device);
  side->busy_ns = header.busy_ns;
  side->span_ns = header.span_ns;
  side->host_step_ns = header.host_step_ns;
  side->steps = header.steps;
  side->launch_p50_ns = header.launch_p50_ns;
  side->idle_ns = header.idle_ns;
  side->idle_by_cause = header.idle_by_cause;
  side->memory = std::move(header.memory);
  side->capacity_bytes = header.capacity_bytes;
}

// Each side's peak memory on every side's device (the busiest one's capacity).
void FitMemoryOnSides(std::vector<CompareSide>* sides) {
  for (CompareSide& side : *sides) {
    if (!side.memory) continue;
    for (const CompareSide& on : *sides) {
      side.memory_fits.push_back(FitMemory(*side.memory, on.label, on.capacity_bytes));
    }
  }
}

class Comparer {
 public:
  Comparer(const std::vector<const LinkedTrace*>& sides, const CompareQuery& query)
      : sides_(sides), query_(query), table_(sides.size()) {}

  CompareResult Run();

 private:
  void AddSide(size_t side, const SideOps& ops, const std::vector<uint32_t>& matched_calls);
  size_t NoOpRow(WorkCategory category);
  void AddDevice(CellAccumulator& acc, uint32_t device, int64_t ns);
  void AddToChildren(size_t side, const SideOps& ops, uint32_t innermost, uint32_t row_op,
                     RowAccumulator& row, int64_t ns, bool kernel,
                     std::vector<uint8_t>* child_call_seen);
  void FinishCell(size_t side, CellAccumulator& acc);
  void FinishRows(CompareResult* result);

  // Children are told apart by name, dims and dtypes, not by module path: one row's inner ops
  // are the same ops in every layer.
  uint32_t ChildKeyOf(uint32_t match_key);

  const std::vector<const LinkedTrace*>& sides_;
  const CompareQuery& query_;
  RowTable table_;
  MatchKeys keys_;
  MatchKeys child_keys_;
  std::vector<uint32_t> child_key_of_;  // match key id -> child key id, kNoKey until needed
  bool with_stack_ = false;
  bool with_nodes_ = false;
  std::vector<CompareSide> side_totals_;
};

size_t Comparer::NoOpRow(WorkCategory category) {
  return table_.Row(std::string("no_op\x1f") + WorkCategoryName(category), [&](CompareRow* row) {
    row->name = kNoOpName;
    row->category = category;
    row->origin = "no_op";
  });
}

void Comparer::AddDevice(CellAccumulator& acc, uint32_t device, int64_t ns) {
  int64_t& total = acc.ns_by_device[device];
  total = SaturatingAdd(total, ns);
}

uint32_t Comparer::ChildKeyOf(uint32_t match_key) {
  if (child_key_of_.size() < keys_.size()) child_key_of_.resize(keys_.size(), kNoKey);
  uint32_t& id = child_key_of_[match_key];
  if (id == kNoKey) {
    MatchKey key = keys_.Get(match_key);
    key.stack.clear();
    key.by_node = false;
    id = child_keys_.Intern(std::move(key));
  }
  return id;
}

void Comparer::AddToChildren(size_t side, const SideOps& ops, uint32_t innermost, uint32_t row_op,
                             RowAccumulator& row, int64_t ns, bool kernel,
                             std::vector<uint8_t>* child_call_seen) {
  // The ops between the kernel and the row op, innermost first; a key met twice on the chain
  // (aten::to inside aten::to) counts the kernel once.
  uint32_t seen_keys[16];
  size_t seen = 0;
  for (uint32_t s = innermost; s != kNoRow && s != row_op; s = ops.op_parent[s]) {
    const uint32_t key = ChildKeyOf(ops.key_of[s]);
    if (std::find(seen_keys, seen_keys + seen, key) != seen_keys + seen) continue;
    if (seen < std::size(seen_keys)) seen_keys[seen++] = key;
    auto [it, added] = row.child_of_key.emplace(key, row.row.children.size());
    if (added) {
      const MatchKey& k = child_keys_.Get(key);
      CompareChild child;
      child.name = k.name;
      child.shapes = k.shapes;
      child.dtypes = k.dtypes;
      child.sides.resize(sides_.size());
      row.row.children.push_back(std::move(child));
    }
    std::optional<CompareChildCell>& cell = row.row.children[it->second].sides[side];
    if (!cell) cell.emplace();
    if (!(*child_call_seen)[s]) {
      (*child_call_seen)[s] = 1;
      ++cell->calls;
    }
    if (!kernel) {
      cell->transfer_ns = SaturatingAdd(cell->transfer_ns, ns);
      continue;
    }
    cell->device_ns = SaturatingAdd(cell->device_ns, ns);
    ++cell->kernels;
    if (s == innermost) cell->self_ns = SaturatingAdd(cell->self_ns, ns);
  }
}

void Comparer::AddSide(size_t side, const SideOps& ops,
                       const std::vector<uint32_t>& matched_calls) {
  const LinkedTrace& linked = *sides_[side];
  const Trace& trace = linked.trace();
  const TraceLinks& links = linked.links();
  // Each op's work: the FLOP counter's, else the memory traffic of a memory-bound op.
  const SliceWork& flop_work = linked.slice_work();
  const SliceWork& traffic = linked.slice_traffic();
  auto work_of = [&](uint32_t i) -> const OpWork* {
    return flop_work[i] != nullptr ? flop_work[i] : traffic[i];
  };
  const size_t n = trace.slices.size();
  constexpr size_t kNoneRow = SIZE_MAX;

  const std::vector<uint32_t>& row_op = ops.row_op;
  // The outermost op with a FLOP estimate around each op slice: its work covers the kernels below.
  std::vector<uint32_t> counted_root(n, kNoRow);
  for (uint32_t i = 0; i < n; ++i) {
    if (!ops.has_work[i]) continue;
    const uint32_t p = ops.op_parent[i];
    counted_root[i] = p != kNoRow && counted_root[p] != kNoRow ? counted_root[p]
                      : work_of(i)                             ? i
                                                               : kNoRow;
  }
  // Row-op calls in call order, each given its row: matched while the key's occurrence is below
  // the fewest calls any side has (matched_calls), only_in after.
  std::vector<uint32_t> calls;
  for (uint32_t i = 0; i < n; ++i) {
    if (ops.is_row_op[i]) calls.push_back(i);
  }
  std::stable_sort(calls.begin(), calls.end(), [&](uint32_t a, uint32_t b) {
    return trace.slices[a].start_ns < trace.slices[b].start_ns;
  });
  std::vector<size_t> row_of_call(n, kNoneRow);
  std::vector<uint32_t> occurrence(keys_.size(), 0);
  // The row of each (key, matched): the group key is built and looked up once per key, not once
  // per call (a host-heavy trace makes millions of calls of a few thousand keys).
  std::vector<size_t> row_of_key(2 * keys_.size(), kNoneRow);
  for (uint32_t call : calls) {
    const uint32_t key_id = ops.key_of[call];
    const bool matched = occurrence[key_id]++ < matched_calls[key_id];
    size_t& row = row_of_key[2 * size_t{key_id} + (matched ? 1 : 0)];
    if (row == kNoneRow) {
      const MatchKey& key = keys_.Get(key_id);
      std::string group = GroupKey(query_.by, key);
      if (!matched) group += "\x1fonly_in";
      row = table_.Row(std::move(group), [&](CompareRow* r) {
        r->matched = matched;
        r->name =
            query_.by == CompareBy::kCategory ? WorkCategoryName(CategoryOfOp(key.name)) : key.name;
        r->category = CategoryOfOp(key.name);
        if (query_.by == CompareBy::kShape) {
          r->shapes = key.shapes;
          r->dtypes = key.dtypes;
        }
        if (query_.by == CompareBy::kStack) r->stack = key.stack;
      });
    }
    row_of_call[call] = row;
    ++CellOf(table_[row], side).calls;
  }

  CompareSide& totals = side_totals_[side];
  KernelCategories categories(trace, ops.op_parent);
  std::vector<int64_t> counted_ns(n, 0);
  std::vector<uint8_t> child_call_seen(n, 0);
  for (size_t k = 0; k < trace.kernels.size(); ++k) {
    const Kernel& kernel = trace.kernels[k];
    ++totals.kernels;
    totals.kernel_ns = SaturatingAdd(totals.kernel_ns, kernel.duration_ns);
    const uint32_t inner = ops.InnermostOp(links.kernels[k].op);
    const auto category = static_cast<size_t>(categories.Of(static_cast<uint32_t>(k), inner));
    totals.category_ns[category] = SaturatingAdd(totals.category_ns[category], kernel.duration_ns);
    ++totals.category_kernels[category];
    size_t row = 0;
    if (inner == kNoRow) {
      row = NoOpRow(categories.OfName(static_cast<uint32_t>(k)));
    } else {
      row = row_of_call[row_op[inner]];
      if (counted_root[inner] != kNoRow) {
        counted_ns[counted_root[inner]] =
            SaturatingAdd(counted_ns[counted_root[inner]], kernel.duration_ns);
      }
    }
    RowAccumulator& acc = table_[row];
    CompareCell& cell = CellOf(acc, side);
    cell.device_ns = SaturatingAdd(cell.device_ns, kernel.duration_ns);
    ++cell.kernels;
    if (inner == kNoRow || inner == row_op[inner]) {
      cell.self_ns = SaturatingAdd(cell.self_ns, kernel.duration_ns);
    }
    AddDevice(acc.cells[side], kernel.device, kernel.duration_ns);
    if (inner != kNoRow) {
      AddToChildren(side, ops, inner, row_op[inner], acc, kernel.duration_ns, true,
                    &child_call_seen);
    }
  }
  for (size_t t = 0; t < trace.transfers.size(); ++t) {
    const Transfer& transfer = trace.transfers[t];
    totals.transfer_ns = SaturatingAdd(totals.transfer_ns, transfer.duration_ns);
    const uint32_t inner = ops.InnermostOp(links.transfers[t].op);
    const size_t row =
        inner != kNoRow ? row_of_call[row_op[inner]]
                        : NoOpRow(transfer.kind == TransferKind::kMemset ? WorkCategory::kMemset
                                                                         : WorkCategory::kMemcpy);
    RowAccumulator& acc = table_[row];
    CompareCell& cell = CellOf(acc, side);
    cell.transfer_ns = SaturatingAdd(cell.transfer_ns, transfer.duration_ns);
    if (inner != kNoRow) {
      AddToChildren(side, ops, inner, row_op[inner], acc, transfer.duration_ns, false,
                    &child_call_seen);
    }
  }
  // The FLOP counter's work, from the outermost counted op of each call.
  for (uint32_t i = 0; i < n; ++i) {
    if (counted_root[i] != i || !ops.has_work[i]) continue;
    const OpWork& w = *work_of(i);
    CellAccumulator& acc = table_[row_of_call[row_op[i]]].cells[side];
    CompareCell& cell = *acc.cell;
    cell.flops = cell.flops.value_or(0) + w.flops;
    if (w.bytes > 0) {
      cell.bytes = cell.bytes.value_or(0) + w.bytes;
    } else {
      acc.bytes_unknown = true;
    }
    ++cell.calls_with_flops;
    cell.flops_device_ns = SaturatingAdd(cell.flops_device_ns, counted_ns[i]);
    acc.flops_by_precision[std::min<size_t>(static_cast<size_t>(w.precision),
                                            kPrecisionSlots - 1)] += w.flops;
  }
}

void Comparer::FinishCell(size_t side, CellAccumulator& acc) {
  if (!acc.cell) return;
  CompareCell& cell = *acc.cell;
  const Trace& trace = sides_[side]->trace();
  uint32_t device = kNoDevice;
  int64_t most = -1;
  for (const auto& [d, ns] : acc.ns_by_device) {
    if (ns > most) {
      most = ns;
      device = d;
    }
  }
  if (device != kNoDevice) {
    cell.backend = device < trace.devices.size() ? trace.devices[device].backend : Backend::kOther;
    cell.device = DeviceLabel(trace, device, false);
    cell.device_index = device;
  }
  if (acc.bytes_unknown) cell.bytes.reset();
  if (!cell.flops || cell.flops_device_ns <= 0) return;
  size_t dominant = 0;
  for (size_t p = 1; p < kPrecisionSlots; ++p) {
    if (acc.flops_by_precision[p] > acc.flops_by_precision[dominant]) dominant = p;
  }
  cell.precision = static_cast<Precision>(dominant);
  const double seconds = static_cast<double>(cell.flops_device_ns) * 1e-9;
  cell.achieved_flops_per_s = *cell.flops / seconds;
  if (cell.bytes) cell.achieved_bytes_per_s = *cell.bytes / seconds;
  if (!cell.bytes || *cell.bytes <= 0 || device == kNoDevice) return;
  RooflineRow roof;
  roof.precision = cell.precision;
  roof.flops = cell.flops;
  roof.dram_bytes = cell.bytes;
  roof.arithmetic_intensity = *cell.flops / *cell.bytes;
  roof.achieved_flops_per_s = cell.achieved_flops_per_s;
  roof.achieved_bytes_per_s = cell.achieved_bytes_per_s;
  roof.count = cell.kernels;  // the launch-duration rule: the mean kernel of the row
  roof.total_ns = cell.device_ns;
  ApplyOpShapeCeiling(trace, device, query_.devices ? *query_.devices : BuiltInDevices(), &roof);
  cell.percent_of_roof = roof.percent_of_roof;
  cell.bound = roof.bound;
}

void Comparer::FinishRows(CompareResult* result) {
  const size_t side_count = sides_.size();
  for (RowAccumulator& acc : table_.rows()) {
    CompareRow& row = acc.row;
    row.sides.resize(side_count);
    bool everywhere = true;
    for (size_t s = 0; s < side_count; ++s) {
      FinishCell(s, acc.cells[s]);
      row.sides[s] = std::move(acc.cells[s].cell);
      everywhere = everywhere && row.sides[s].has_value();
    }
    // Op rows are matched by call (AddSide); kernels under no op by category, when every side has
    // some. A matched key whose calls have no device work on some side is not matched there.
    row.matched = everywhere && (row.matched || row.origin == "no_op");
    row.ratio.resize(side_count);
    const std::optional<CompareCell>& first = row.sides[0];
    int64_t least = INT64_MAX;
    for (size_t s = 0; s < side_count; ++s) {
      const std::optional<CompareCell>& cell = row.sides[s];
      if (!cell) continue;
      row.total_ns = std::max(row.total_ns, cell->device_ns);
      if (first && first->device_ns > 0) {
        row.ratio[s] = static_cast<double>(cell->device_ns) / static_cast<double>(first->device_ns);
      }
      if (row.matched && cell->device_ns < least) {
        least = cell->device_ns;
        row.faster = s;
      }
      CompareSide& side = side_totals_[s];
      int64_t& bucket = row.matched ? side.matched_kernel_ns : side.unmatched_kernel_ns;
      bucket = SaturatingAdd(bucket, cell->device_ns);
    }
    auto child_ns = [](const CompareChild& c) {
      int64_t most = 0;
      for (const auto& cell : c.sides) most = std::max(most, cell ? cell->device_ns : 0);
      return most;
    };
    std::stable_sort(
        row.children.begin(), row.children.end(),
        [&](const CompareChild& a, const CompareChild& b) { return child_ns(a) > child_ns(b); });
    result->rows.push_back(std::move(row));
  }
  std::stable_sort(result->rows.begin(), result->rows.end(),
                   [](const CompareRow& a, const CompareRow& b) {
                     if (a.total_ns != b.total_ns) return a.total_ns > b.total_ns;
                     return a.key < b.key;
                   });
  result->row_count_before_top = result->rows.size();
  if (query_.top > 0 && result->rows.size() > query_.top) result->rows.resize(query_.top);
}

// "MI300X: kernel time +26 % (31.9 → 40.2 ms), busy −7 %; attention 1.44× slower, gemm 1.30×
// slower, elementwise 0.68×".
// The share of a side's kernel time in matched rows; 0 without kernel time.
double MatchedFraction(const CompareSide& side) {
  return side.kernel_ns > 0
             ? static_cast<double>(side.matched_kernel_ns) / static_cast<double>(side.kernel_ns)
             : 0.0;
}

// One line per side after the first; a side without the basis for one (see
// kSameWorkloadMatchedFraction) gets a warning in `warnings` instead.
std::string Verdict(const std::vector<CompareSide>& sides, CompareBy by,
                    std::vector<std::string>* warnings) {
  std::string out;
  const CompareSide& first = sides[0];
  auto percent = [](int64_t base, int64_t value) {
    return base > 0 ? fmt::format("{:+.0f} %", 100.0 * (static_cast<double>(value) - base) / base)
                    : std::string("n/a");
  };
  for (size_t s = 1; s < sides.size(); ++s) {
    const CompareSide& side = sides[s];
    if (MatchedFraction(side) < kSameWorkloadMatchedFraction ||
        MatchedFraction(first) < kSameWorkloadMatchedFraction) {
      warnings->push_back(fmt::format(
          "{} and {} do not look like the same workload: only {:.1f} % and {:.1f} % of their "
          "kernel time is in rows both ran (a verdict needs {:.0f} %), so none is drawn{}",
          side.label, first.label, 100 * MatchedFraction(side), 100 * MatchedFraction(first),
          100 * kSameWorkloadMatchedFraction,
          by == CompareBy::kShape ? "; if they ran the same model with other input shapes, "
                                    "compare --by op"
                                  : ""));
      continue;
    }
    if (!out.empty()) out += '\n';
    out += fmt::format("{}: kernel time {} vs {}, GPU busy {}", side.label,
                       percent(first.kernel_ns, side.kernel_ns), first.label,
                       percent(first.busy_ns, side.busy_ns));
    if (first.host_step_ns && side.host_step_ns) {
      out += fmt::format(", step {}", percent(*first.host_step_ns, *side.host_step_ns));
    }
    if (side.span_ns > 0 && side.busy_ns * 2 < side.span_ns) {
      out += fmt::format(" (GPU idle {:.0f} % of its span)",
                         100.0 - 100.0 * side.busy_ns / side.span_ns);
    }
    // Categories that hold at least 5 % of either side's kernel time, the largest first.
    std::vector<size_t> order;
    for (size_t c = 0; c < kWorkCategoryCount; ++c) {
      const int64_t a = first.category_ns[c], b = side.category_ns[c];
      if (a > 0 && b > 0 && (a * 20 >= first.kernel_ns || b * 20 >= side.kernel_ns)) {
        order.push_back(c);
      }
    }
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return std::max(first.category_ns[a], side.category_ns[a]) >
             std::max(first.category_ns[b], side.category_ns[b]);
    });
    for (size_t i = 0; i < order.size(); ++i) {
      const size_t c = order[i];
      const double ratio =
          static_cast<double>(side.category_ns[c]) / static_cast<double>(first.category_ns[c]);
      out += fmt::format("{} {} {:.2f}×{}", i == 0 ? ";" : ",",
                         WorkCategoryName(static_cast<WorkCategory>(c)), ratio,
                         ratio > 1   ? " slower"
                         : ratio < 1 ? " faster"
                                     : "");
    }
  }
  return out;
}

CompareResult Comparer::Run() {
  CompareResult result;
  result.by = query_.by;
  const size_t side_count = sides_.size();
  with_stack_ = true;
  with_nodes_ = true;
  for (const LinkedTrace* linked : sides_) {
    with_nodes_ = with_nodes_ && SideOps::HasNodes(linked->trace());
    if (query_.side_headers) {
      linked->Prepare({LinkedPart::kLinks, LinkedPart::kSliceWork, LinkedPart::kSliceTraffic,
                       LinkedPart::kSteps});
    } else {
      linked->Prepare({LinkedPart::kLinks, LinkedPart::kSliceWork, LinkedPart::kSliceTraffic});
    }
    with_stack_ = with_stack_ && SideOps::HasModulePaths(*linked);
  }
  with_stack_ = with_stack_ && !with_nodes_;  // a node is its own call site
  // The timelines need only the links and steps: they run beside the alignment.
  const std::launch policy = sides_[0]->concurrent() ? std::launch::async : std::launch::deferred;
  std::vector<std::future<CompareSide>> headers;
  if (query_.side_headers) {
    for (const LinkedTrace* linked : sides_) {
      headers.push_back(std::async(policy, [this, linked] {
        return SideHeader(*linked, query_.devices ? *query_.devices : BuiltInDevices());
      }));
    }
  }
  std::vector<SideOps> ops;
  ops.reserve(side_count);
  for (const LinkedTrace* linked : sides_)
    ops.emplace_back(*linked, with_stack_, with_nodes_, &keys_);
  // A key is shared when every side has a call of it with device work below.
  std::vector<uint8_t> shared(keys_.size(), 0);
  {
    std::vector<uint32_t> sides_with(keys_.size(), 0);
    for (const SideOps& side : ops) side.MarkKeysPresent(&sides_with);
    for (size_t k = 0; k < keys_.size(); ++k) shared[k] = sides_with[k] == side_count;
  }
  // A row-op call is matched while its key's occurrence is below the fewest calls any side has.
  std::vector<uint32_t> matched_calls(keys_.size(), UINT32_MAX);
  for (SideOps& side : ops) {
    side.AssignRowOps(shared);
    const std::vector<uint32_t> counts = side.RowCallCounts(keys_.size());
    for (size_t k = 0; k < keys_.size(); ++k) {
      matched_calls[k] = std::min(matched_calls[k], counts[k]);
    }
  }
  side_totals_.resize(side_count);
  for (size_t s = 0; s < side_count; ++s) {
    side_totals_[s].input = s;
    AddSide(s, ops[s], matched_calls);
  }
  for (size_t s = 0; s < headers.size(); ++s) MergeHeader(headers[s].get(), &side_totals_[s]);
  FinishRows(&result);
  const std::vector<std::string> defaults = DefaultCompareLabels(sides_);
  for (size_t s = 0; s < side_count; ++s) {
    side_totals_[s].label =
        s < query_.labels.size() && !query_.labels[s].empty() ? query_.labels[s] : defaults[s];
  }
  result.keys_include_stack = with_stack_;
  result.keys_are_nodes = with_nodes_;
  FitMemoryOnSides(&side_totals_);
  result.verdict = Verdict(side_totals_, query_.by, &result.warnings);
  result.sides = std::move(side_totals_);
  return result;
}

}  // namespace

const char* CompareByName(CompareBy by) {
  switch (by) {
    case CompareBy::kOp:
      return "op";
    case CompareBy::kShape:
      return "shape";
    case CompareBy::kStack:
      return "stack";
    case CompareBy::kCategory:
      return "category";
  }
  return "shape";
}

std::optional<CompareBy> ParseCompareBy(std::string_view name) {
  for (CompareBy by :
       {CompareBy::kOp, CompareBy::kShape, CompareBy::kStack, CompareBy::kCategory}) {
    if (name == CompareByName(by)) return by;
  }
  return std::nullopt;
}

std::vector<std::string> DefaultCompareLabels(const std::vector<const LinkedTrace*>& sides) {
  std::vector<std::string> labels;
  for (const LinkedTrace* linked : sides) {
    const Trace& trace = linked->trace();
    std::string label;
    if (const uint32_t busiest = BusiestDevice(trace); busiest != kNoDevice) {
      const Device& device = trace.devices[busiest];
      label = !device.name.empty() ? device.name : BackendName(device.backend);
    }
    if (label.empty()) label = BackendName(Backend::kCpu);
    labels.push_back(std::move(label));
  }
  for (size_t i = 0; i < labels.size(); ++i) {
    if (std::count(labels.begin(), labels.end(), labels[i]) > 1) {
      for (size_t j = 0; j < labels.size(); ++j) {
        if (labels[j] == labels[i] && j != i) {
          labels[j] = std::filesystem::path(sides[j]->trace().path).filename().string();
        }
      }
      labels[i] = std::filesystem::path(sides[i]->trace().path).filename().string();
    }
  }
  // The same file twice (a run compared with itself): sides by number.
  for (size_t i = 0; i < labels.size(); ++i) {
    if (std::count(labels.begin(), labels.end(), labels[i]) > 1) {
      const std::string shared_label = labels[i];
      for (size_t j = i, n = 1; j < labels.size(); ++j) {
        if (labels[j] == shared_label) labels[j] += fmt::format(" #{}", n++);
      }
    }
  }
  return labels;
}

CompareResult CompareTraces(const std::vector<const LinkedTrace*>& sides,
                            const CompareQuery& query) {
  if (sides.empty()) return {};
  return Comparer(sides, query).Run();
}

}  // namespace tensormorph
