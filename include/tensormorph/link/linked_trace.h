// The linking stage's product: one LinkedTrace per input trace, built once and read by every
// analysis, the baseline builder and the exporters. It holds what is derived from a trace's rows
// alone and needed by more than one analysis:
//  - launch and op links of every kernel and transfer, slice parents, graph-replay kernels
//    (LinkTrace, link/work_links.h);
//  - the ProfilerStep#N steps and the step each kernel / transfer was launched in
//    (link/steps.h);
//  - the FLOP counter's estimate of each framework-op slice, and the memory traffic of the
//    memory-bound ops it does not know (link/slice_work.h).
//
// Invariants: each part is computed at most once per LinkedTrace, on first use (`kernels` needs
// none of them, so it pays for none), and is then immutable. First uses may race: every part is
// guarded by its own std::once_flag, so analyses may run on several threads over one LinkedTrace.
// `concurrent` (LinkOptions): the stage may compute a part on a second thread (the launch index
// beside the op index, each half of the kernels' links), and analyses over the LinkedTrace may
// compute the parts they need side by side; the parts are the same either way (tested). The CLI
// sets it unless --threads 1.
// The Trace must outlive the LinkedTrace and stay unmodified; a LinkedTrace may be moved (the
// parts live behind a pointer), so std::vector<LinkedTrace> works.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <vector>

#include "tensormorph/link/op_work.h"
#include "tensormorph/link/steps.h"
#include "tensormorph/link/work_links.h"
#include "tensormorph/model/trace.h"

namespace tensormorph {

struct LinkOptions {
  bool concurrent = false;
};

enum class LinkedPart : uint8_t { kLinks, kSteps, kSliceWork, kSliceTraffic };

class LinkedTrace {
 public:
  explicit LinkedTrace(const Trace& trace, LinkOptions options = {});
  LinkedTrace(LinkedTrace&&) noexcept;
  LinkedTrace& operator=(LinkedTrace&&) noexcept;
  LinkedTrace(const LinkedTrace&) = delete;
  LinkedTrace& operator=(const LinkedTrace&) = delete;
  ~LinkedTrace();

  const Trace& trace() const { return *trace_; }
  bool concurrent() const { return options_.concurrent; }

  const TraceLinks& links() const;
  const std::vector<Step>& steps() const;
  // Parallel to Trace::kernels / Trace::transfers: index into steps() or -1 (StepOfKernels).
  const std::vector<int32_t>& step_of_kernels() const;
  const std::vector<int32_t>& step_of_transfers() const;
  // Parallel to Trace::slices (EstimateSliceWork, EstimateSliceTraffic).
  const SliceWork& slice_work() const;
  const SliceWork& slice_traffic() const;

  // Computes `parts` now, side by side when concurrent(), for an analysis that needs several:
  // the FLOP estimate needs no links, so it need not wait for them; the memory traffic does (its
  // ops' kernels name the element size of tensor lists). Parts already computed are not computed
  // again.
  void Prepare(std::initializer_list<LinkedPart> parts) const;

 private:
  struct Parts;
  const Trace* trace_;
  LinkOptions options_;
  std::unique_ptr<Parts> parts_;
};

// One LinkedTrace per trace, in order; `traces` must outlive the result.
std::vector<LinkedTrace> LinkTraces(const std::vector<Trace>& traces, LinkOptions options = {});
std::vector<const LinkedTrace*> Pointers(const std::vector<LinkedTrace>& linked);
// The traces behind `linked`, in order.
std::vector<const Trace*> TracesOf(const std::vector<const LinkedTrace*>& linked);

// How often each part of the linking stage has been computed in this process, over all
// LinkedTraces and direct calls (LinkTrace, FindSteps, EstimateSliceWork count themselves). For
// tests that a command links each input once; atomic, never reset.
struct LinkStageRuns {
  uint64_t links = 0;
  uint64_t steps = 0;
  uint64_t slice_work = 0;
};
LinkStageRuns LinkStageRunCounts();

}  // namespace tensormorph
