#include "tensormorph/link/linked_trace.h"

#include <future>
#include <mutex>

#include "link/link_stage_counters.h"
#include "link/slice_work.h"

namespace tensormorph {

struct LinkedTrace::Parts {
  std::once_flag links_once, steps_once, work_once, traffic_once;
  TraceLinks links;
  std::vector<Step> steps;
  std::vector<int32_t> step_of_kernels, step_of_transfers;
  SliceWork slice_work, slice_traffic;
};

LinkedTrace::LinkedTrace(const Trace& trace, LinkOptions options)
    : trace_(&trace), options_(options), parts_(std::make_unique<Parts>()) {}
LinkedTrace::LinkedTrace(LinkedTrace&&) noexcept = default;
LinkedTrace& LinkedTrace::operator=(LinkedTrace&&) noexcept = default;
LinkedTrace::~LinkedTrace() = default;

const TraceLinks& LinkedTrace::links() const {
  std::call_once(parts_->links_once,
                 [this] { parts_->links = LinkTrace(*trace_, options_.concurrent); });
  return parts_->links;
}

const std::vector<Step>& LinkedTrace::steps() const {
  std::call_once(parts_->steps_once, [this] {
    const TraceLinks& l = links();
    parts_->steps = FindSteps(*trace_);
    parts_->step_of_kernels = StepOfKernels(*trace_, l, parts_->steps);
    parts_->step_of_transfers = StepOfTransfers(*trace_, l, parts_->steps);
  });
  return parts_->steps;
}

const std::vector<int32_t>& LinkedTrace::step_of_kernels() const {
  steps();
  return parts_->step_of_kernels;
}

const std::vector<int32_t>& LinkedTrace::step_of_transfers() const {
  steps();
  return parts_->step_of_transfers;
}

const SliceWork& LinkedTrace::slice_work() const {
  std::call_once(parts_->work_once, [this] { parts_->slice_work = EstimateSliceWork(*trace_); });
  return parts_->slice_work;
}

const SliceWork& LinkedTrace::slice_traffic() const {
  std::call_once(parts_->traffic_once,
                 [this] { parts_->slice_traffic = EstimateSliceTraffic(*trace_, links()); });
  return parts_->slice_traffic;
}

void LinkedTrace::Prepare(std::initializer_list<LinkedPart> parts) const {
  auto compute = [this](LinkedPart part) {
    switch (part) {
      case LinkedPart::kLinks:
        links();
        break;
      case LinkedPart::kSteps:
        steps();
        break;
      case LinkedPart::kSliceWork:
        slice_work();
        break;
      case LinkedPart::kSliceTraffic:
        slice_traffic();
        break;
    }
  };
  const std::launch policy = concurrent() ? std::launch::async : std::launch::deferred;
  std::vector<std::future<void>> others;
  for (auto it = parts.begin(); it != parts.end(); ++it) {
    if (it != parts.begin()) others.push_back(std::async(policy, compute, *it));
  }
  if (parts.size() > 0) compute(*parts.begin());
  for (std::future<void>& other : others) other.get();
}

std::vector<LinkedTrace> LinkTraces(const std::vector<Trace>& traces, LinkOptions options) {
  std::vector<LinkedTrace> out;
  out.reserve(traces.size());
  for (const Trace& t : traces) out.emplace_back(t, options);
  return out;
}

std::vector<const LinkedTrace*> Pointers(const std::vector<LinkedTrace>& linked) {
  std::vector<const LinkedTrace*> out;
  out.reserve(linked.size());
  for (const LinkedTrace& l : linked) out.push_back(&l);
  return out;
}

std::vector<const Trace*> TracesOf(const std::vector<const LinkedTrace*>& linked) {
  std::vector<const Trace*> out;
  out.reserve(linked.size());
  for (const LinkedTrace* l : linked) out.push_back(&l->trace());
  return out;
}

LinkStageRuns LinkStageRunCounts() {
  return {link_stage::links_computed.load(), link_stage::steps_computed.load(),
          link_stage::slice_work_computed.load()};
}

}  // namespace tensormorph
